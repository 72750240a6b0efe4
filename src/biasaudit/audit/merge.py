"""`biasaudit merge` of audit shards (``audit --shard i/N``) into one audit folder."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from biasaudit.api import merge
from biasaudit.audit.folder import (
    AuditInfo,
    ModelFolder,
    now,
    overall_status,
    read_audit,
    statuses,
    write_audit,
)
from biasaudit.audit.run import write_outputs_hook
from biasaudit.errors import RunError


def _check_alike(dirs: Sequence[Path], infos: Sequence[AuditInfo]) -> None:
    first = infos[0]
    for folder, info in zip(dirs, infos, strict=True):
        for field in ("suite", "models", "seed"):
            if getattr(info, field) != getattr(first, field):
                raise RunError(f"{folder}: a different {field} than {dirs[0]}")
        if [f.folder for f in info.folders] != [f.folder for f in first.folders]:
            raise RunError(f"{folder}: different model folders than {dirs[0]}")
        plans = {
            b.name: b.sample_plan.plan_hash if b.sample_plan else None for b in info.benchmarks
        }
        mine = {
            b.name: b.sample_plan.plan_hash if b.sample_plan else None for b in first.benchmarks
        }
        if plans != mine:
            changed = sorted(n for n in plans.keys() | mine.keys() if plans.get(n) != mine.get(n))
            raise RunError(
                f"{folder}: different sample plans than {dirs[0]} ({', '.join(changed)}): "
                f"shards of one audit share its suite, seed and benchmark options"
            )


def merge_audit_folders(
    dirs: Sequence[str | Path], output_dir: str | Path, *, data_dir: str | Path | None = None
) -> AuditInfo:
    """Merge the shards of one audit (one model, or several with a folder each)."""
    if len(dirs) < 2:
        raise RunError("merge needs at least two audit folders")
    paths = [Path(d) for d in dirs]
    infos = [read_audit(p) for p in paths]
    _check_alike(paths, infos)
    out = Path(output_dir)
    first = infos[0]
    if first.folders:
        merged = [
            merge_audit_folders([p / f.folder for p in paths], out / f.folder, data_dir=data_dir)
            for f in first.folders
        ]
        states = {m.status for m in merged}
        info = first.model_copy(
            update={
                "folders": [
                    ModelFolder(model=m.models[0], folder=f.folder, status=m.status)
                    for m, f in zip(merged, first.folders, strict=True)
                ],
                "status": "complete" if states == {"complete"} else "partial",
                "shard": None,
                "finished_at": now(),
            }
        )
    else:
        run = merge(paths, out, data_dir=data_dir)
        order = [b.name for b in first.benchmarks]
        options = {b.name: b.options for b in first.benchmarks}
        plans = {b.name: b.sample_plan for b in first.benchmarks if b.sample_plan is not None}
        rows = statuses(order, run, dict(first.skipped), options, plans)
        if run.status != "complete":  # a shard missing or unfinished: no benchmark is whole
            rows = [
                r.model_copy(update={"status": "partial", "reason": run.status_reason})
                if r.status == "complete"
                else r
                for r in rows
            ]
        info = first.model_copy(
            update={
                "benchmarks": rows,
                "status": overall_status(rows, finished=True),
                "shard": None,
                "finished_at": now(),
            }
        )
    out.mkdir(parents=True, exist_ok=True)
    write_audit(out, info)
    write_outputs_hook(out)
    return info
