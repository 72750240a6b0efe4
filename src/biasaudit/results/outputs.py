"""Where `report`, `export` and `merge` may write, and writing their files atomically.

An output never replaces one of the command's inputs or a run's data file (``report RUN -o
RUN/results.json`` used to overwrite the run with HTML), never goes into a directory a live
run holds (see `lock`), and is written to a temporary file renamed over the target when it
is complete: a killed or failed write (disk full) leaves the previous file as it was, and a
failure is one line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from biasaudit.errors import RunError
from biasaudit.results.io import RESULTS_FILE, RUN_CONFIG_FILE, SAMPLES_FILE
from biasaudit.results.io import atomic_output as atomic_output  # report/export write with it
from biasaudit.results.lock import LOCK_FILE, check_unlocked

#: The files that make a directory a run directory.
RUN_FILES = (RESULTS_FILE, SAMPLES_FILE, RUN_CONFIG_FILE)


def holds_run(folder: Path) -> bool:
    """Whether `folder` holds a run (or a run's start: run.json, or a lock)."""
    return any((folder / name).exists() for name in (*RUN_FILES, LOCK_FILE))


def check_output_file(out: Path, inputs: Sequence[str | Path]) -> None:
    """Refuse an output file that is an input run's directory or one of its files, a run's
    data file anywhere, or inside a directory a live run holds."""
    target = out.resolve()
    for run_dir in map(Path, inputs):
        if target == run_dir.resolve():
            raise RunError(f"{out}: is the run directory {run_dir}; give a file name")
        if target.parent == run_dir.resolve() and out.name in (*RUN_FILES, LOCK_FILE):
            raise RunError(f"{out}: is {run_dir}'s {out.name}; it would overwrite the run")
    if out.name in (*RUN_FILES, LOCK_FILE) and holds_run(out.parent):
        raise RunError(f"{out}: is a run's {out.name}; it would overwrite the run")
    check_unlocked(out.parent)


def check_output_dir(out: Path, inputs: Sequence[str | Path]) -> None:
    """Refuse an output directory that is one of the input runs (or lies inside one's data)
    or that a live run holds."""
    target = out.resolve()
    for run_dir in map(Path, inputs):
        if target == run_dir.resolve():
            raise RunError(f"{out}: is one of the inputs ({run_dir}); choose another directory")
    if out.exists() and not out.is_dir():
        raise RunError(f"{out}: exists and is not a directory")
    check_unlocked(out)
