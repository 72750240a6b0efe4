"""Reading and writing a run directory: results.json, samples.jsonl, run.json."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from biasaudit._version import __version__
from biasaudit.errors import RunError
from biasaudit.results.digests import exchanges_digest, hash_sample_hashes
from biasaudit.results.schema import READABLE_SCHEMA_VERSIONS, RunResult, SampleRecord

RESULTS_FILE = "results.json"
SAMPLES_FILE = "samples.jsonl"
RUN_CONFIG_FILE = "run.json"


@contextlib.contextmanager
def atomic_output(path: Path) -> Iterator[Path]:
    """A private temporary path next to `path` to write to; renamed over `path` (after an
    fsync) when the block ends without error, removed otherwise, so `path` is always either
    the old or the new content. An OSError (disk full, permission) is one RunError naming
    `path`; nothing is replaced then."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise RunError(f"{path}: cannot write ({exc.strerror or exc})") from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        with tmp.open("rb+") as handle:
            os.fsync(handle.fileno())
        tmp.chmod(0o644)
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise RunError(
            f"{path}: cannot write ({exc.strerror or exc}); nothing was replaced, the "
            f"previous file is kept"
        ) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` atomically (see `atomic_output`): a full disk is one RunError
    and the previous file is kept."""
    with atomic_output(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_results(run_dir: Path, result: RunResult) -> Path:
    path = run_dir / RESULTS_FILE
    atomic_write_text(path, result.model_dump_json(indent=2) + "\n")
    return path


def write_samples(run_dir: Path, records: Iterable[SampleRecord]) -> Path:
    path = run_dir / SAMPLES_FILE
    lines = [record.model_dump_json() for record in records]
    atomic_write_text(path, "\n".join(lines) + ("\n" if lines else ""))
    return path


#: suffix of a previous run's samples.jsonl / results.json while a resumed run rewrites them
PREVIOUS = ".prev"


class SamplesWriter:
    """samples.jsonl written as samples finish: one record per line, appended and flushed.

    Each line goes to the file in one `os.write` of the whole line on an unbuffered
    descriptor, so a process killed at any moment leaves whole lines only: a valid prefix of
    the run's samples.jsonl (a failed write, e.g. a full disk, is cut back to the last whole
    line before the one-line RunError). The file is started afresh when the first line is
    written (or by `start`). A previous samples.jsonl and results.json (a resumed run) are
    first set aside as ``*.prev``: `finish` deletes them once the new run is written, and
    `restore` puts them back when it fails (a write error, a full disk), so a failed resume
    never loses a run that was whole. After a kill the ``*.prev`` files stay, and the next
    start keeps them (they are the last state known to be consistent).
    """

    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        self.path = run_dir / SAMPLES_FILE
        self._fd: int | None = None
        self._size = 0

    def start(self) -> None:
        """Truncate (create) samples.jsonl now, if that has not happened yet."""
        if self._fd is not None:
            return
        try:
            for name in (RESULTS_FILE, SAMPLES_FILE):  # results.json first: never a stale pair
                current, kept = self.run_dir / name, self.run_dir / (name + PREVIOUS)
                if current.is_file() and not kept.exists():
                    current.replace(kept)
                current.unlink(missing_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        except OSError as exc:
            raise RunError(f"{self.path}: cannot write ({exc.strerror or exc})") from None

    def write(self, record: SampleRecord) -> None:
        self.start()
        assert self._fd is not None
        line = (record.model_dump_json() + "\n").encode("utf-8")
        view = memoryview(line)
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._size)
            raise RunError(f"{self.path}: cannot write ({exc.strerror or exc})") from None
        self._size += len(line)

    def close(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def finish(self) -> None:
        """The new run is written: the previous one's files go."""
        for name in (SAMPLES_FILE, RESULTS_FILE):
            with contextlib.suppress(OSError):
                (self.run_dir / (name + PREVIOUS)).unlink(missing_ok=True)

    def restore(self) -> None:
        """The new run failed: put the previous samples.jsonl and results.json back."""
        self.close()
        if not (self.run_dir / (SAMPLES_FILE + PREVIOUS)).exists():
            return
        with contextlib.suppress(OSError):
            (self.run_dir / RESULTS_FILE).unlink(missing_ok=True)
            for name in (SAMPLES_FILE, RESULTS_FILE):  # samples first: never a stale pair
                kept = self.run_dir / (name + PREVIOUS)
                if kept.exists():
                    kept.replace(self.run_dir / name)


def write_run_config(run_dir: Path, config: dict[str, Any]) -> None:
    atomic_write_text(
        run_dir / RUN_CONFIG_FILE, json.dumps(config, indent=2, sort_keys=True) + "\n"
    )


def _read_text(path: Path, what: str) -> str:
    """The file as text; RunError (one line) when it cannot be read or is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise RunError(f"{path}: not a {what} (not UTF-8 at byte {exc.start})") from None
    except OSError as exc:
        raise RunError(f"{path}: cannot read ({exc.strerror or exc})") from None


def read_run_config(run_dir: Path) -> dict[str, Any] | None:
    """The run's recorded settings; None when there are none (absent file or ``null``)."""
    path = run_dir / RUN_CONFIG_FILE
    if not path.exists():
        return None
    text = _read_text(path, "run configuration")
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RunError(
            f"{path}: not a run configuration (invalid JSON at line {exc.lineno}: {exc.msg}); "
            f"delete it or pass --overwrite"
        ) from None
    except RecursionError:
        raise RunError(f"{path}: not a run configuration (JSON nested too deeply)") from None
    if loaded is None:
        return None
    if not isinstance(loaded, dict):
        raise RunError(
            f"{path}: not a run configuration (a JSON {type(loaded).__name__}, not an object); "
            f"delete it or pass --overwrite"
        )
    return loaded


def read_results(run_dir: str | Path) -> RunResult:
    path = Path(run_dir) / RESULTS_FILE
    if not path.is_file():
        raise RunError(f"{path}: no results.json (is this a biasaudit run directory?)")
    text = _read_text(path, "results file")
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RunError(
            f"{path}: invalid results file (invalid JSON at line {exc.lineno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise RunError(f"{path}: invalid results file (JSON nested too deeply)") from None
    version = loaded.get("schema_version", "1") if isinstance(loaded, dict) else None
    if version is not None and version not in READABLE_SCHEMA_VERSIONS:
        raise RunError(
            f"{path}: results schema version {str(version)[:20]!r}, which this biasaudit "
            f"({__version__}) cannot read (it reads {', '.join(READABLE_SCHEMA_VERSIONS)}); "
            f"use the version that wrote it"
        )
    try:
        return RunResult.model_validate_json(text)
    except RecursionError:
        raise RunError(f"{path}: invalid results file (JSON nested too deeply)") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RunError(f"{path}: invalid results file at '{where}': {first['msg']}") from None


def iter_samples(run_dir: str | Path) -> Iterator[SampleRecord]:
    path = Path(run_dir) / SAMPLES_FILE
    if not path.is_file():
        raise RunError(f"{path}: no samples.jsonl (is this a biasaudit run directory?)")
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise RunError(f"{path}: cannot read ({exc.strerror or exc})") from None
    with handle:
        for line_number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                yield SampleRecord.model_validate_json(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise RunError(f"{path}:{line_number}: not UTF-8 at byte {exc.start}") from None
            except RecursionError:
                raise RunError(f"{path}:{line_number}: JSON nested too deeply") from None
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                raise RunError(f"{path}:{line_number}: invalid sample at '{where}'") from None


def remove_outputs(run_dir: Path) -> None:
    """Delete a previous run's outputs before a new run starts (``--overwrite``).

    results.json goes first, so at every moment either the old run is whole or nothing in the
    directory looks like a finished run; other files in the directory are left alone.
    """
    names = (RESULTS_FILE, SAMPLES_FILE, RUN_CONFIG_FILE)
    for name in (*names, RESULTS_FILE + PREVIOUS, SAMPLES_FILE + PREVIOUS):
        path = run_dir / name
        try:
            path.unlink(missing_ok=True)
        except IsADirectoryError:
            raise RunError(f"{path}: a directory where a run file belongs; remove it") from None
        except OSError as exc:
            raise RunError(f"{path}: cannot remove ({exc.strerror or exc})") from None
    for stale in run_dir.glob(".*.tmp"):
        stale.unlink(missing_ok=True)


def check_samples_match(
    run_dir: Path, run: RunResult, records: dict[str, list[SampleRecord]]
) -> None:
    """Refuse a samples.jsonl that is not the one results.json was computed from: records of
    benchmarks the run does not have, duplicate sample ids, or per benchmark a different
    number of samples or a different samples hash. Records of a planned benchmark that did
    not finish (an interrupted run streams them) are left out of the check."""

    path = run_dir / SAMPLES_FILE
    known = {b.benchmark for b in run.benchmarks}
    # A planned benchmark that did not finish may have left the prefix it streamed.
    unfinished = set(run.benchmarks_planned or []) - known
    unknown = sorted(set(records) - known - unfinished)
    if unknown:
        raise RunError(
            f"{path}: records of benchmark(s) {', '.join(unknown)}, which {RESULTS_FILE} "
            f"does not have"
        )
    for bench in run.benchmarks:
        mine = records.get(bench.benchmark, [])
        ids = [r.sample_id for r in mine]
        if len(set(ids)) != len(ids):
            duplicate = next(i for i in ids if ids.count(i) > 1)
            raise RunError(f"{path}: {bench.benchmark} sample '{duplicate}' appears twice")
        if len(mine) != bench.n_samples:
            raise RunError(
                f"{path}: {len(mine)} {bench.benchmark} samples, but {RESULTS_FILE} was "
                f"computed from {bench.n_samples}; refusing to rescore a different sample set"
            )
        if hash_sample_hashes([r.sample_hash for r in mine]) != bench.samples_hash:
            raise RunError(
                f"{path}: the {bench.benchmark} samples are not the ones {RESULTS_FILE} was "
                f"computed from (samples_hash differs)"
            )
        if bench.exchanges_hash is not None and bench.exchanges_hash != hash_sample_hashes(
            exchanges_digest(r) for r in mine
        ):
            raise RunError(
                f"{path}: the stored {bench.benchmark} requests and answers are not the ones "
                f"{RESULTS_FILE} was computed from (exchanges_hash differs: one was edited "
                f"or dropped)"
            )
