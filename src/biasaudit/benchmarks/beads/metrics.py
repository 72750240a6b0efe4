"""BEADs aggregates that are not per-sample means, with the toolkit's bootstrap CIs.

The formulas are the pure functions of `biasaudit.metrics.classification` (accuracy,
per-class precision/recall/F1, macro and weighted F1; spec §3.1) and `biasaudit.metrics.spans`
(entity-level and token-level BIO scores; spec §3.2). Here they are evaluated over the scored
records, with percentile bootstrap CIs that resample samples (texts or sentences).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from biasaudit.metrics.bootstrap import bootstrap_index_ci
from biasaudit.metrics.classification import ClassificationReport, classification_report
from biasaudit.metrics.frame import StatisticSpec, frame
from biasaudit.metrics.spans import SpanReport, span_report
from biasaudit.results.schema import MetricValue, SampleRecord, Table


def _usable(records: Sequence[SampleRecord], labels: Sequence[str]) -> list[SampleRecord]:
    return [r for r in records if not r.excluded and r.data.get("gold") in labels]


def _report(
    records: Sequence[SampleRecord], labels: Sequence[str]
) -> Callable[[Sequence[int]], ClassificationReport]:
    gold = [r.data["gold"] for r in records]
    predicted = [r.scores.get("predicted") for r in records]
    return lambda idx: classification_report(
        [gold[i] for i in idx], [predicted[i] for i in idx], labels
    )


def classification_metrics(
    records: Sequence[SampleRecord], labels: Sequence[str], seed: int
) -> list[MetricValue]:
    """macro-F1 and weighted-F1 (bootstrap over texts)."""
    usable = _usable(records, labels)
    report = _report(usable, labels)
    excluded = len(records) - len(usable)
    return [
        frame(
            usable,
            StatisticSpec(
                name,
                lambda idx, attr=attr: getattr(report(idx), attr) if idx else None,  # type: ignore[misc]
                statistic_name=name,
                group_by=["dimension"],
                higher_is_better=True,
                description=description,
                reference="Sokolova & Lapalme 2009, Table 3 (macro / weighted F-score)",
                n_excluded=excluded,
            ),
            seed,
        )
        for name, attr, description in (
            ("macro_f1", "macro_f1", "unweighted mean of per-class F1"),
            ("weighted_f1", "weighted_f1", "support-weighted mean of per-class F1"),
        )
    ]


def per_class_table(records: Sequence[SampleRecord], labels: Sequence[str], seed: int) -> Table:
    """Per-class precision, recall, F1 and support, each with a bootstrap CI over texts."""
    usable = _usable(records, labels)
    report = _report(usable, labels)
    rows = []
    full = report(range(len(usable)))
    for scores in full.per_class:
        row: list[object] = [scores.label, scores.support]
        for attr in ("precision", "recall", "f1"):

            def statistic(
                idx: Sequence[int], attr: str = attr, label: str = scores.label
            ) -> float | None:
                value: float | None = getattr(report(idx).by_label(label), attr)
                return value

            low, high = bootstrap_index_ci(len(usable), statistic, seed=seed)
            row += [getattr(scores, attr), low, high]
        rows.append(row)
    columns = ["class", "support"]
    for attr in ("precision", "recall", "f1"):
        columns += [attr, f"{attr}_ci_low", f"{attr}_ci_high"]
    return Table(
        columns=columns,
        rows=rows,
        description="per-class scores; CIs resample texts (None: undefined in some resample)",
    )


def confusion_table(records: Sequence[SampleRecord], labels: Sequence[str]) -> Table:
    usable = _usable(records, labels)
    report = _report(usable, labels)(range(len(usable)))
    return Table(
        columns=["gold \\ predicted", *labels, "(unparsed/refused)"],
        rows=[[label, *row] for label, row in zip(labels, report.confusion, strict=True)],
        description="confusion matrix; the last column counts answers outside the label set",
    )


def span_metrics(records: Sequence[SampleRecord], seed: int) -> list[MetricValue]:
    """Entity-level P/R/F1 and token-level accuracy and Bias precision/recall."""
    usable = [r for r in records if not r.excluded and "pred_tags" in r.scores]
    gold = [r.scores["gold_tags"] for r in usable]
    pred = [r.scores["pred_tags"] for r in usable]

    def report(idx: Sequence[int]) -> SpanReport:
        return span_report([gold[i] for i in idx], [pred[i] for i in idx])

    stats: list[tuple[str, Callable[[SpanReport], float | None], str]] = [
        ("entity_f1", lambda r: r.entity_f1, "exact-match biased spans, micro F1"),
        ("entity_precision", lambda r: r.entity_precision, "exact-match span precision"),
        ("entity_recall", lambda r: r.entity_recall, "exact-match span recall"),
        ("token_accuracy", lambda r: r.tokens.accuracy, "B/I merged to Bias (Table 10)"),
        (
            "bias_token_precision",
            lambda r: r.tokens.by_label("Bias").precision,
            "precision of the Bias token class (Table 10)",
        ),
        (
            "bias_token_recall",
            lambda r: r.tokens.by_label("Bias").recall,
            "recall of the Bias token class (Table 10)",
        ),
    ]
    return [
        frame(
            usable,
            StatisticSpec(
                name,
                lambda idx, get=get: get(report(idx)) if idx else None,  # type: ignore[misc]
                statistic_name=name,
                higher_is_better=True,
                description=description,
                reference="Tjong Kim Sang & Buchholz 2000 (chunk F1); BEADs Table 10 (tokens)",
                n_excluded=len(records) - len(usable),
            ),
            seed,
        )
        for name, get, description in stats
    ]
