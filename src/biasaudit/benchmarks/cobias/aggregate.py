"""Dataset-level COBIAS results: headline metrics and tables from scored statements.

Used by the benchmark's `aggregate` and by `ensemble` (several models' τ averaged), so both
report the same metrics and tables.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from biasaudit.benchmarks import Aggregate
from biasaudit.benchmarks.cobias import metrics
from biasaudit.benchmarks.cobias.estimators import TauSettings
from biasaudit.benchmarks.cobias.validation import length_correlation, spearman
from biasaudit.metrics.frame import MetricSpec, frame
from biasaudit.results.schema import MetricValue, SampleRecord, Table

STATEMENT_COLUMNS = ["id", "sentence", "cobias", "cv", "n_contexts"]

DIRECTION_NOTE = (
    "Eq. 3 as printed: the score rises with cv. The paper reads higher COBIAS as more "
    "reliable (Table 3, human validation) but also as 'possibly insufficient context' "
    "(Fig. 2); cv is reported alongside."
)


@dataclass(frozen=True)
class Row:
    """One statement's outcome, whichever way its τ values were obtained."""

    id: str
    sentence: str
    group: str = ""
    cobias: float | None = None
    cv: float | None = None
    n_contexts: int = 0
    human_rating: float | None = None
    exclusion_reason: str | None = None
    flags: list[str] = field(default_factory=list)


def rows_from_records(records: Sequence[SampleRecord]) -> list[Row]:
    return [
        Row(
            id=r.sample_id,
            sentence=r.data.get("sentence", ""),
            group=r.groups.get("source", ""),
            cobias=None if r.excluded else r.scores.get("cobias"),
            cv=None if r.excluded else r.scores.get("cv"),
            n_contexts=int(r.scores.get("n_contexts", 0)),
            human_rating=r.data.get("human_rating"),
            exclusion_reason=r.exclusion_reason if r.excluded else None,
            flags=list(r.data.get("flags", [])),
        )
        for r in records
    ]


def _as_records(rows: Sequence[Row]) -> list[SampleRecord]:
    """The rows as the records `frame` reads (an ensemble's rows come from several runs)."""
    return [
        SampleRecord(
            benchmark="cobias",
            sample_id=row.id,
            sample_hash=row.id,
            groups={"source": row.group} if row.group else {},
            scores={"cobias": row.cobias, "cv": row.cv},
        )
        for row in rows
    ]


def _value_metric(name: str, value: float | None, n: int, description: str) -> MetricValue:
    if value is not None and not math.isfinite(value):
        value = None
    return MetricValue(name=name, value=value, n=n, description=description, statistic=name)


def aggregate_records(
    records: Sequence[SampleRecord],
    *,
    seed: int,
    settings: TauSettings,
    flag_threshold: float | None = None,
) -> Aggregate:
    return aggregate_rows(
        rows_from_records(records),
        seed=seed,
        scorer=describe(settings),
        flag_threshold=flag_threshold,
    )


def describe(settings: TauSettings) -> str:
    """The estimator and its settings, as named in every metric's description."""
    return (
        f"tau estimator={settings.estimator}, granularity={settings.granularity}, "
        f"lowercase={settings.lowercase}, add_special_tokens={settings.add_special_tokens}"
    )


def aggregate_rows(
    rows: Sequence[Row], *, seed: int, scorer: str, flag_threshold: float | None = None
) -> Aggregate:
    groups = [r.group for r in rows] if rows and all(r.group for r in rows) else None
    scored = [r for r in rows if r.cobias is not None]
    summary = metrics.summarize([r.cobias for r in scored if r.cobias is not None])
    by_source = ["source"] if groups is not None else []
    records = _as_records(rows)
    metric_list = [
        frame(
            records,
            MetricSpec(
                name="cobias_mean",
                score="cobias",
                group_by=by_source,
                description=f"dataset COBIAS: mean of Eq. 3 over statements ({scorer}). "
                + DIRECTION_NOTE,
            ),
            seed,
        ),
        _value_metric("cobias_sd", summary.sd, summary.n, "sample SD (ddof=1) of COBIAS"),
        frame(
            records,
            MetricSpec(
                name="cv_mean",
                score="cv",
                group_by=by_source,
                description=f"mean context variance, Eq. 2 ({scorer})",
            ),
            seed,
        ),
        _value_metric(
            "cv_median",
            float(np.median([r.cv for r in scored])) if scored else None,
            len(scored),
            "median context variance",
        ),
        _value_metric(
            "share_no_context_added",
            (sum("no_context_added" in r.flags for r in scored) / len(scored)) if scored else None,
            len(scored),
            "statements whose versions all equal the statement (cv = 0, COBIAS = 0)",
        ),
    ]
    if flag_threshold is not None:
        metric_list.append(
            _value_metric(
                "share_at_or_above_threshold",
                (
                    sum(r.cobias >= flag_threshold for r in scored if r.cobias is not None)
                    / len(scored)
                )
                if scored
                else None,
                len(scored),
                f"statements with COBIAS >= {flag_threshold}. " + DIRECTION_NOTE,
            )
        )
    length = length_correlation([r.sentence for r in scored], [r.cobias or 0.0 for r in scored])
    metric_list.append(
        _value_metric(
            "spearman_length",
            length.rho,
            length.n,
            f"Spearman of words per statement vs COBIAS (p = {length.p:.3g})",
        )
    )
    rated = [r for r in scored if r.human_rating is not None]
    if rated:
        human = spearman([r.cobias or 0.0 for r in rated], [r.human_rating or 0.0 for r in rated])
        metric_list.append(
            _value_metric(
                "spearman_human",
                human.rho,
                human.n,
                f"Spearman of COBIAS vs mean human Likert rating (p = {human.p:.3g}); "
                f"the paper reports 0.65 for its scorer",
            )
        )
        metric_list.append(
            _value_metric("spearman_human_p", human.p, human.n, "p-value of spearman_human")
        )
    excluded = Counter(r.exclusion_reason.partition(":")[0] for r in rows if r.exclusion_reason)
    tables = {
        "statements": Table(
            description=f"per-statement COBIAS and cv ({scorer})",
            columns=STATEMENT_COLUMNS,
            rows=[[r.id, r.sentence, r.cobias, r.cv, r.n_contexts] for r in rows],
        ),
        "histogram": Table(
            description="COBIAS distribution: exact zeros, then 10 right-closed bins",
            columns=["bin", "count"],
            rows=[list(row) for row in summary.histogram],
        ),
        "exclusions": Table(
            description="statements not scored, by reason",
            columns=["reason", "count"],
            rows=[[reason, count] for reason, count in sorted(excluded.items())],
        ),
    }
    return Aggregate(metrics=metric_list, tables=tables)
