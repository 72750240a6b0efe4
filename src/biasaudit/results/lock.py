"""An advisory lock on a run directory: one writer at a time.

A run holds ``RUN/.biasaudit.lock`` (JSON: pid, host, start time) from before it writes
anything until it ends. Every command that writes into a run directory (`run`, `score`,
`merge -o`, `report -o`, `export -o`) refuses a directory whose lock is held, with one line
naming the holder. A lock is stale when its host is this machine and its process is gone (a
killed run): it is then replaced without a word. A lock from another host cannot be checked
from here and is treated as held; the message says how to remove it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from biasaudit.errors import RunError

LOCK_FILE = ".biasaudit.lock"


def _host() -> str:
    return socket.gethostname()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by another user
        return True
    except OSError:
        return False
    return True


def read_lock(run_dir: Path) -> dict[str, Any] | None:
    """The holder of `run_dir`'s lock, or None when it is free (no lock, or a stale one)."""
    path = run_dir / LOCK_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return {"pid": None, "host": None, "path": str(path)}
    try:
        holder = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        holder = None
    if not isinstance(holder, dict):
        # Half-written by a process killed while creating it: only its creator could be
        # alive, and only for an instant; a lock file that says nothing is stale.
        return None
    pid, host = holder.get("pid"), holder.get("host")
    if host == _host() and isinstance(pid, int) and not _alive(pid):
        return None
    return holder


def _describe(run_dir: Path, holder: dict[str, Any]) -> str:
    since = f" since {holder['started']}" if holder.get("started") else ""
    who = f"process {holder.get('pid')} on {holder.get('host')}{since}"
    return (
        f"{run_dir} is being written by a biasaudit run ({who}); wait for it to end, or "
        f"delete {run_dir / LOCK_FILE} if no run is writing there"
    )


def _mine(holder: dict[str, Any]) -> bool:
    return holder.get("pid") == os.getpid() and holder.get("host") == _host()


def check_unlocked(path: Path) -> None:
    """Refuse to write into `path` (a run directory or a file in one, at any depth) while
    another process's run holds the lock of that directory or of any folder above it. A lock
    this process holds does not block its own writes (e.g. a driver writing a report into
    the folder it holds); taking a second `run_lock` on one folder is refused all the same."""
    for folder in [path, *path.parents]:
        holder = read_lock(folder) if (folder / LOCK_FILE).exists() else None
        if holder is not None and not _mine(holder):
            raise RunError(_describe(folder, holder))


@contextlib.contextmanager
def run_lock(run_dir: Path) -> Iterator[None]:
    """Hold `run_dir`'s lock (the directory must exist); RunError when another holds it."""
    path = run_dir / LOCK_FILE
    record = json.dumps(
        {
            "pid": os.getpid(),
            "host": _host(),
            "started": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        }
    )
    for _ in range(3):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            holder = read_lock(run_dir)
            if holder is not None:
                raise RunError(_describe(run_dir, holder)) from None
            with contextlib.suppress(FileNotFoundError):
                path.unlink()  # stale: its process is gone
            continue
        except OSError as exc:
            raise RunError(f"{path}: cannot create the run lock ({exc.strerror or exc})") from None
        try:
            os.write(fd, record.encode())
        except OSError as exc:
            os.close(fd)
            path.unlink(missing_ok=True)
            raise RunError(f"{path}: cannot write ({exc.strerror or exc})") from None
        os.close(fd)
        break
    else:
        raise RunError(f"{path}: another process keeps taking the run lock")
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()
