"""Disk full: one line naming the file, no temporary left behind, and --resume recovers.

Needs root to mount a small tmpfs (CI runs as root); skipped where mounting is not allowed.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from biasaudit.cli.app import main
from biasaudit.results.io import read_results


@contextlib.contextmanager
def small_disk(path: Path, size: str) -> Iterator[Path]:
    path.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def argv(url: str, out: Path, cache: Path, data_dir: Path, *extra: str) -> list[str]:
    return [
        "run", "stop", "-m", f"openai:m@{url}", "--limit", "20", "-q", "--data-dir",
        str(data_dir), "-o", str(out), "--cache", str(cache), *extra,
    ]  # fmt: skip


@pytest.mark.parametrize("full", ["output", "cache"])
def test_a_full_disk_is_one_line_and_resume_recovers(
    full: str, tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with FakeOpenAI() as server, small_disk(tmp_path / "small", "48k") as small:
        out = small / "run" if full == "output" else tmp_path / "run"
        cache = small / "c.sqlite" if full == "cache" else tmp_path / "c.sqlite"
        code = main(argv(server.base_url, out, cache, data_dir))
        err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
        assert code == 2 and len(err) == 1, err
        assert ("No space left" in err[0] or "full" in err[0]) and str(small) in err[0]
        assert not list(out.glob(".*.tmp"))
        assert not (out / "results.json").exists()
        # Free space (a bigger disk): the same command with --resume finishes the run.
        moved_out, moved_cache = tmp_path / "run2", tmp_path / "c2.sqlite"
        if full == "cache":  # it filled while the cache opened: the run had not started
            assert not out.exists(), "a failed start leaves no output directory"
        else:
            subprocess.run(["cp", "-r", str(out), str(moved_out)], check=True)
        if full == "cache":  # the rows cached before the disk filled are reused
            for suffix in ("", "-wal", "-shm"):
                source = Path(str(cache) + suffix)
                if source.exists():
                    subprocess.run(["cp", str(source), str(moved_cache) + suffix], check=True)
        resumed = main(argv(server.base_url, moved_out, moved_cache, data_dir, "--resume"))
    assert resumed == 0
    assert read_results(moved_out).status == "complete"


@pytest.mark.parametrize("command", ["report", "export"])
def test_a_full_disk_keeps_the_previous_report_or_export(
    command: str, tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`report` and `export` write through a temporary file: a full disk is one line and the
    previous output is left as it was (it was truncated, with an OSError traceback)."""
    from fake_openai import stop_run

    run = stop_run(tmp_path / "run", data_dir, limit=3)
    with small_disk(tmp_path / "small", "200k") as small:
        target = small / ("r.html" if command == "report" else "export")
        argv = [command, str(run), "-o", str(target)]
        assert main(argv) == 0
        capsys.readouterr()
        previous = target / "samples.csv" if command == "export" else target
        before = previous.read_bytes()
        filler = small / "filler"
        # fill the disk to the last byte (unbuffered: nothing left to flush on close)
        with filler.open("wb", buffering=0) as handle, contextlib.suppress(OSError):
            while True:
                handle.write(b"\0" * 512)
        code = main(argv)
        err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
        assert code == 2 and len(err) == 1, err
        assert "No space left" in err[0] and "previous file is kept" in err[0]
        assert previous.read_bytes() == before
        assert not list(small.rglob(".*.tmp"))
