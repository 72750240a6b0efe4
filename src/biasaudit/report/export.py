"""Flat tables of a run for pandas, R or a spreadsheet: CSV or Parquet.

`biasaudit export RUN_DIR` writes:

* ``metrics.<ext>``: one row per (benchmark, metric, group), `to_dataframe(run)`;
* ``samples.<ext>``: one row per sample: ids, ``group_<key>`` columns, outcomes (joined with
  ";" and counted per outcome in ``n_<outcome>``), ``score_<key>`` columns (lists and dicts as
  JSON text), exclusion;
* ``profile.<ext>``: the bias profile, one row per axis x benchmark cell (docs/profile.md),
  when a benchmark of the run has profile cells;
* ``table_<benchmark>_<name>.<ext>``: every benchmark-specific table from results.json.

Metrics a validity gate withholds have no value and say why in ``not_measurable``.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # pandas is imported where a frame is built: `biasaudit` start-up stays light
    import pandas as pd

from biasaudit.errors import RunError
from biasaudit.metrics.grouped import OUTCOMES
from biasaudit.profile.frame import to_dataframe
from biasaudit.report.runs import LoadedRun, load_run
from biasaudit.results.outputs import atomic_output, check_output_dir
from biasaudit.results.schema import SampleRecord

Format = Literal["csv", "parquet"]


def _scalar(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _sample_row(model: str, record: SampleRecord) -> dict[str, Any]:
    counts = Counter(record.outcomes)
    row: dict[str, Any] = {
        "model": model,
        "benchmark": record.benchmark,
        "sample_id": record.sample_id,
        "sample_hash": record.sample_hash,
    }
    row |= {f"group_{k}": v for k, v in record.groups.items()}
    row["outcomes"] = ";".join(record.outcomes)
    labels = [o for o in OUTCOMES if o in counts] + sorted(set(counts) - set(OUTCOMES))
    row |= {f"n_{label}": counts[label] for label in labels}
    row |= {f"score_{k}": _scalar(v) for k, v in record.scores.items()}
    row |= {
        "excluded": record.excluded,
        "exclusion_reason": record.exclusion_reason,
        "n_exchanges": len(record.exchanges),
    }
    return row


def samples_frame(run: LoadedRun) -> pd.DataFrame:
    rows = [
        _sample_row(run.result.model.spec, r) for records in run.records.values() for r in records
    ]
    import pandas as pd

    frame = pd.DataFrame(rows)
    counts = [c for c in frame.columns if c.startswith("n_") and c != "n_exchanges"]
    if counts:
        frame[counts] = frame[counts].fillna(0).astype("int64")
    return frame


def metrics_frame(run: LoadedRun) -> pd.DataFrame:
    """`to_dataframe(run)`: gated, with a ``not_measurable`` column holding the
    validity gate's reason where a value is withheld (docs/profile.md)."""
    return to_dataframe(run.result)


def profile_frame(run: LoadedRun) -> pd.DataFrame:
    """The bias profile's cells (biasaudit.profile), one row per axis x benchmark."""
    import pandas as pd

    from biasaudit.profile.build import build_profile
    from biasaudit.profile.outputs import PROFILE_COLUMNS, profile_rows

    records = [r for rs in run.records.values() for r in rs]
    profile = build_profile(run.result, records, run_dir=str(run.path))
    return pd.DataFrame(profile_rows(profile), columns=PROFILE_COLUMNS)


def table_frames(run: LoadedRun) -> dict[str, pd.DataFrame]:
    """Benchmark tables, keyed by a file-safe name."""
    import pandas as pd

    frames = {}
    for bench in run.result.benchmarks:
        for name, table in bench.tables.items():
            key = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"table_{bench.benchmark}_{name}")
            frames[key] = pd.DataFrame(table.rows, columns=table.columns)
    return frames


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _parquet_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Object columns mixing types (1, 2, "none") or holding lists become text for Parquet."""
    out = frame.copy()
    for column in out.columns:
        if out[column].dtype != object:
            continue
        kinds = {type(v) for v in out[column] if not _missing(v)}
        if len(kinds) > 1 or kinds & {list, dict, tuple}:
            out[column] = [
                None if _missing(v) else v if isinstance(v, str) else str(_scalar(v))
                for v in out[column]
            ]
    return out


def _write(frame: pd.DataFrame, tmp: Path, fmt: Format) -> None:
    if fmt == "csv":
        frame.to_csv(tmp, index=False)
    else:
        _parquet_safe(frame).to_parquet(tmp, index=False)


def write_frames(frames: dict[str, pd.DataFrame], out: Path, fmt: Format) -> list[Path]:
    """Every frame written to a temporary file first; only when all are written are they
    renamed into place, so a failed export (a full disk) replaces none of the previous
    export's files and never leaves two runs' files mixed (issue 33)."""
    paths = [out / f"{name}.{fmt}" for name in frames]
    with contextlib.ExitStack() as stack:
        temps = [stack.enter_context(atomic_output(path)) for path in paths]
        for frame, tmp in zip(frames.values(), temps, strict=True):
            _write(frame, tmp, fmt)
    return paths


def export_run(run_dir: str | Path, fmt: Format, output: str | Path) -> list[Path]:
    """Write metrics, samples and benchmark tables of `run_dir` into `output`."""
    if fmt not in ("csv", "parquet"):
        raise RunError(f"unknown export format '{fmt}' (use csv or parquet)")
    out = Path(output)
    check_output_dir(out, [run_dir])
    run = load_run(run_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"{out}: cannot create ({exc.strerror or exc})") from None
    frames = {"metrics": metrics_frame(run), "samples": samples_frame(run)}
    profile = profile_frame(run)
    if len(profile):  # a run of benchmarks with profile cells
        frames["profile"] = profile
    frames |= table_frames(run)
    # complete / partial / failed on every row, so a partial run is never read as whole
    for name in ("metrics", "samples"):
        frames[name]["run_status"] = run.result.status
    return write_frames(frames, out, fmt)
