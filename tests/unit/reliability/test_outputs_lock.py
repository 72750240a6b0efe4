"""The atomic writer of report/export outputs and the run-directory lock, without a run."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from biasaudit.errors import RunError
from biasaudit.results.lock import LOCK_FILE, check_unlocked, read_lock, run_lock
from biasaudit.results.outputs import atomic_output, check_output_file


def test_an_interrupted_write_keeps_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("old")
    with pytest.raises(KeyboardInterrupt), atomic_output(target) as tmp:
        tmp.write_text("half of the new")
        raise KeyboardInterrupt
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]
    with atomic_output(target) as tmp:
        tmp.write_text("new")
    assert target.read_text() == "new"
    assert target.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_a_failed_write_is_one_line_naming_the_file(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("old")
    expected = "out.csv: cannot write .*previous file is kept"
    with pytest.raises(RunError, match=expected), atomic_output(target) as tmp:
        raise OSError(28, "No space left on device")
    assert target.read_text() == "old" and not tmp.exists()


def _dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_the_lock_names_its_holder_and_goes_away(tmp_path: Path) -> None:
    with run_lock(tmp_path):
        holder = json.loads((tmp_path / LOCK_FILE).read_text())
        assert (holder["pid"], holder["host"]) == (os.getpid(), socket.gethostname())
        check_unlocked(tmp_path / "report.html")  # this process's own lock: its own writes
        with pytest.raises(RunError, match="being written"), run_lock(tmp_path):
            pass  # but never a second run in one folder
    assert not (tmp_path / LOCK_FILE).exists()
    check_unlocked(tmp_path)
    other = json.dumps({"pid": os.getppid(), "host": socket.gethostname()})  # alive, not us
    (tmp_path / LOCK_FILE).write_text(other)
    with pytest.raises(RunError, match=f"process {os.getppid()} on"):
        check_unlocked(tmp_path / "sub" / "report.html")  # a file below a locked run


@pytest.mark.parametrize(
    "content",
    [
        lambda: json.dumps({"pid": _dead_pid(), "host": socket.gethostname()}),  # killed run
        lambda: "",  # killed while writing its lock
        lambda: "{not json",
    ],
    ids=["dead pid", "empty", "garbage"],
)
def test_a_stale_lock_is_free(tmp_path: Path, content) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / LOCK_FILE).write_text(content())
    assert read_lock(tmp_path) is None
    with run_lock(tmp_path):
        assert json.loads((tmp_path / LOCK_FILE).read_text())["pid"] == os.getpid()


def test_a_lock_of_another_host_is_held(tmp_path: Path) -> None:
    (tmp_path / LOCK_FILE).write_text(json.dumps({"pid": 1, "host": "elsewhere.example"}))
    with pytest.raises(RunError, match="process 1 on elsewhere.example"), run_lock(tmp_path):
        pass


def test_outputs_never_name_run_files(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "results.json").write_text("{}")
    for name in ("results.json", "samples.jsonl", "run.json", LOCK_FILE):
        with pytest.raises(RunError, match="overwrite the run"):
            check_output_file(run / name, [run])
        with pytest.raises(RunError, match="overwrite the run"):
            check_output_file(run / name, [tmp_path / "other"])
    with pytest.raises(RunError, match="is the run directory"):
        check_output_file(run, [run])
    check_output_file(run / "report.html", [run])
    check_output_file(tmp_path / "results.json", [run])  # not a run directory: a free name
