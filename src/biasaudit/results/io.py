"""Reading and writing a run directory: results.json, samples.jsonl, run.json."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from biasaudit.errors import RunError
from biasaudit.results.schema import RunResult, SampleRecord

RESULTS_FILE = "results.json"
SAMPLES_FILE = "samples.jsonl"
RUN_CONFIG_FILE = "run.json"


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_results(run_dir: Path, result: RunResult) -> Path:
    path = run_dir / RESULTS_FILE
    _atomic_write(path, result.model_dump_json(indent=2) + "\n")
    return path


def write_samples(run_dir: Path, records: Iterable[SampleRecord]) -> Path:
    path = run_dir / SAMPLES_FILE
    lines = [record.model_dump_json() for record in records]
    _atomic_write(path, "\n".join(lines) + ("\n" if lines else ""))
    return path


def write_run_config(run_dir: Path, config: dict[str, Any]) -> None:
    _atomic_write(run_dir / RUN_CONFIG_FILE, json.dumps(config, indent=2, sort_keys=True) + "\n")


def read_run_config(run_dir: Path) -> dict[str, Any] | None:
    path = run_dir / RUN_CONFIG_FILE
    if not path.is_file():
        return None
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def read_results(run_dir: str | Path) -> RunResult:
    path = Path(run_dir) / RESULTS_FILE
    if not path.is_file():
        raise RunError(f"{path}: no results.json (is this a biasaudit run directory?)")
    try:
        return RunResult.model_validate_json(path.read_text(encoding="utf-8"))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise RunError(f"{path}: invalid results file at '{where}': {first['msg']}") from None


def iter_samples(run_dir: str | Path) -> Iterator[SampleRecord]:
    path = Path(run_dir) / SAMPLES_FILE
    if not path.is_file():
        raise RunError(f"{path}: no samples.jsonl (is this a biasaudit run directory?)")
    with path.open(encoding="utf-8") as handle:
        for line_number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield SampleRecord.model_validate_json(line)
            except ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"])
                raise RunError(f"{path}:{line_number}: invalid sample at '{where}'") from None
