"""CALM's validity gates; CALM has no profile cells.

CALM's bias score is a spread of accuracy between name groups, with no stereotype direction,
so it is not a signed cell of the profile; its own report section shows it. Gate: templates
dropped by ``skip_zero_templates`` (a group at accuracy 0) leave the bias score computed on a
selected subset, so the score is not shown (the benchmark's numbers are kept in results.json).
"""

from biasaudit.profile import BenchmarkProfile, Gates
from biasaudit.results.schema import BenchmarkResult, ValidityFlag

DROPPED = "a group has accuracy 0"


def templates_dropped(bench: BenchmarkResult) -> list[ValidityFlag]:
    table = bench.tables.get("template_bias")
    if table is None or "status" not in table.columns:
        return []
    at = table.columns.index("status")
    task_at = table.columns.index("task") if "task" in table.columns else None
    statuses = [row[at] for row in table.rows]
    dropped = [row for row in table.rows if row[at] == DROPPED]
    if not dropped:
        return []
    tasks = sorted({str(row[task_at]) for row in dropped}) if task_at is not None else []
    where = f" ({', '.join(tasks)})" if tasks else ""
    message = (
        f"{len(dropped)} of {len(statuses)} templates dropped{where} because a group has "
        "accuracy 0 (-O skip_zero_templates=false keeps them)"
    )
    return [
        ValidityFlag(gate="templates_dropped", severity="fail", message=message, metric=m.name)
        for m in bench.metrics
        if m.name.startswith("bias_score")
    ]


PROFILE = BenchmarkProfile(
    gates=Gates(extra=templates_dropped),
    no_effect="an accuracy spread between name groups, with no stereotype direction",
)
