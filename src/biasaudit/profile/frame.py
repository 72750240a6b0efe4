"""`to_dataframe(run)` (also `biasaudit.to_dataframe`): one row per (benchmark, metric,
breakdown group), validity-gated. A plain function of the reporting layer: the gates
(`biasaudit.profile.display`) sit above the results schema."""

from __future__ import annotations

from typing import Any

from biasaudit.profile import display
from biasaudit.results.schema import DATAFRAME_COLUMNS, RunResult


def to_dataframe(run: RunResult, *, gated: bool = True) -> Any:
    """One row per (benchmark, metric, breakdown group); group is '' for the overall value.

    A signed contrast is a row with group_by "contrast" and its name as the group.

    Columns: model, benchmark, metric, group_by, group, value, n, ci_low, ci_high, then
    ci_level, ci_method, higher_is_better, n_excluded (None on group rows),
    not_measurable, and one ``rate_<outcome>`` column per parse outcome seen anywhere in
    the run (share of answers; 0 when the row has outcome rates but not that one, None
    when it has none).

    The validity gates apply as in `export` and the report (docs/profile.md): a row
    that fails one has value, ci_low and ci_high None (NaN) and ``not_measurable`` =
    "not measurable: <reason>"; n and the outcome rates stay (they say why).
    ``gated=False`` gives every computed value as results.json holds it.
    """
    import pandas as pd

    def gate(row: dict[str, Any], reason: str | None) -> dict[str, Any]:
        if reason is None or not gated:
            return row | {"not_measurable": None}
        withheld = {"value": None, "ci_low": None, "ci_high": None}
        return row | withheld | {"not_measurable": display.not_measurable(reason)}

    def all_rates() -> set[str]:
        found: set[str] = set()
        for bench in run.benchmarks:
            for metric in bench.metrics:
                found |= metric.outcome_rates.keys()
                for breakdown in metric.breakdowns:
                    for group in breakdown.groups:
                        found |= group.outcome_rates.keys()
        return found

    labels = sorted(all_rates())

    def rates(shares: dict[str, float]) -> dict[str, float | None]:
        return {f"rate_{k}": shares.get(k, 0.0) if shares else None for k in labels}

    rows: list[dict[str, Any]] = []
    for bench in run.benchmarks:
        for metric in bench.metrics:
            base = {"model": run.model.spec, "benchmark": bench.benchmark}
            base["metric"] = metric.name
            extra = {
                "ci_level": metric.ci.level if metric.ci else None,
                "ci_method": metric.ci_method,
                "higher_is_better": metric.higher_is_better,
            }
            overall: dict[str, Any] = {"group_by": "", "group": ""}
            overall |= {"value": metric.value, "n": metric.n}
            overall |= {"ci_low": metric.ci_low, "ci_high": metric.ci_high}
            reason = display.metric_reason(bench, metric)
            rows.append(
                gate(base | overall, reason)
                | extra
                | {"n_excluded": metric.n_excluded}
                | rates(metric.outcome_rates)
            )
            for breakdown in metric.breakdowns:
                for group in breakdown.groups:
                    cells: dict[str, Any] = {"group_by": breakdown.by, "group": group.group}
                    cells |= {"value": group.value, "n": group.n}
                    cells |= {"ci_low": group.ci_low, "ci_high": group.ci_high}
                    method = {"ci_method": group.ci_method or metric.ci_method}
                    shown = display.group_value_reason(bench, metric, group)
                    rows.append(
                        gate(base | cells, shown)
                        | extra
                        | method
                        | {"n_excluded": None}
                        | rates(group.outcome_rates)
                    )
            for c in metric.contrasts:
                cells = {"group_by": "contrast", "group": c.name, "value": c.value}
                cells |= {"n": c.n_a + c.n_b, "ci_low": c.ci_low, "ci_high": c.ci_high}
                shown = display.contrast_reason(bench, metric, c)
                row = gate(base | cells, shown) | extra
                rows.append(row | {"n_excluded": None} | rates({}))
    return pd.DataFrame(rows, columns=[*DATAFRAME_COLUMNS, *(f"rate_{k}" for k in labels)])
