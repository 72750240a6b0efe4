"""BEADs' aggregate metrics and tables (`beads.metrics`) on hand-made records.

Expected values: per-class and span scores by plain counting loops written here (and by hand
in the comments), intervals by the naive bootstrap loop of `tests/unit/core/bootstrap_oracle.py`
over those naive statistics. Nothing is taken from the implementation.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import pytest
from tests.unit.core.bootstrap_oracle import naive_index_ci

from biasaudit.benchmarks.beads.metrics import (
    classification_metrics,
    confusion_table,
    per_class_table,
    span_metrics,
)
from biasaudit.results.schema import MetricValue, SampleRecord

LABELS = ("negative", "neutral", "positive")
# (dimension, gold, predicted, excluded); predicted None is an unparsed reply (a wrong answer)
ROWS: list[tuple[str, str, str | None, bool]] = [
    ("race", "negative", "negative", False),
    ("race", "negative", "negative", False),
    ("race", "negative", "neutral", False),
    ("race", "neutral", "neutral", False),
    ("race", "positive", "positive", False),
    ("race", "positive", None, False),
    ("race", "neutral", "negative", False),
    ("race", "negative", "negative", False),
    ("gender", "negative", "negative", False),
    ("gender", "neutral", "neutral", False),
    ("gender", "neutral", "positive", False),
    ("gender", "positive", "positive", False),
    ("gender", "positive", "positive", False),
    ("gender", "negative", "positive", False),
    ("gender", "neutral", "neutral", False),
    ("gender", "negative", "negative", False),
    ("age", "negative", "negative", False),
    ("age", "neutral", "neutral", False),
    ("age", "positive", "neutral", False),
    ("age", "positive", "positive", False),
    ("age", "negative", "negative", False),
    ("age", "neutral", "neutral", False),
    ("age", "negative", "negative", True),  # excluded: never counted
    ("age", "toxic", "toxic", False),  # gold outside the label set: never counted
]


def _records(rows: Sequence[tuple[str, str, str | None, bool]]) -> list[SampleRecord]:
    return [
        SampleRecord(
            benchmark="beads",
            sample_id=str(i),
            sample_hash=str(i),
            groups={"dimension": dimension},
            data={"gold": gold},
            scores={"predicted": predicted},
            outcomes=["answered" if predicted else "unparsed"],
            excluded=excluded,
            exclusion_reason="test" if excluded else None,
        )
        for i, (dimension, gold, predicted, excluded) in enumerate(rows)
    ]


USED = [(d, g, p) for d, g, p, excluded in ROWS if not excluded and g in LABELS]


def _per_class(pairs: Sequence[tuple[str, str | None]], label: str) -> tuple[float | None, ...]:
    tp = sum(1 for g, p in pairs if g == label and p == label)
    fp = sum(1 for g, p in pairs if g != label and p == label)
    fn = sum(1 for g, p in pairs if g == label and p != label)
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else None
    return precision, recall, f1, tp + fn


def _macro(pairs: Sequence[tuple[str, str | None]]) -> float | None:
    f1s = [f for f in (_per_class(pairs, c)[2] for c in LABELS) if f is not None]
    return sum(f1s) / len(f1s) if f1s else None


def _weighted(pairs: Sequence[tuple[str, str | None]]) -> float | None:
    total = weighted = 0.0
    for c in LABELS:
        _, _, f1, support = _per_class(pairs, c)
        if support:
            total += support
            weighted += f1 * support  # type: ignore[operator]
    return weighted / total if total else None


def _pairs(
    idx: Sequence[int], used: Sequence[tuple[str, str, str | None]] = USED
) -> list[tuple[str, str | None]]:
    return [(used[i][1], used[i][2]) for i in idx]


def test_hand_counts_of_the_fixture() -> None:
    # 22 usable texts; negative: support 9, TP 7, FP 1 (a neutral read as negative);
    # neutral: support 7, TP 5, FP 2; positive: support 6, TP 4, FP 2, one unparsed
    pairs = _pairs(range(len(USED)))
    assert len(USED) == 22
    assert _per_class(pairs, "negative") == pytest.approx((7 / 8, 7 / 9, 14 / 17, 9))
    assert _per_class(pairs, "neutral") == pytest.approx((5 / 7, 5 / 7, 10 / 14, 7))
    assert _per_class(pairs, "positive") == pytest.approx((4 / 6, 4 / 6, 8 / 12, 6))


def _by(metrics: list[MetricValue], name: str) -> MetricValue:
    return next(m for m in metrics if m.name == name)


def test_macro_and_weighted_f1_with_intervals_and_dimensions() -> None:
    records = _records(ROWS)
    metrics = classification_metrics(records, LABELS, seed=3)
    assert [m.name for m in metrics] == ["macro_f1", "weighted_f1"]
    for metric, naive, description in (
        (_by(metrics, "macro_f1"), _macro, "unweighted mean of per-class F1"),
        (_by(metrics, "weighted_f1"), _weighted, "support-weighted mean of per-class F1"),
    ):
        assert metric.value == pytest.approx(naive(_pairs(range(22))), abs=1e-12)
        assert (metric.n, metric.n_excluded) == (22, 2)
        low, high = naive_index_ci(22, lambda idx, f=naive: f(_pairs(idx)), seed=3)  # type: ignore[misc]
        assert (metric.ci_low, metric.ci_high) == pytest.approx((low, high), abs=1e-12)
        assert metric.ci_low is not None and metric.ci_low < metric.value < metric.ci_high  # type: ignore[operator]
        assert metric.statistic == metric.name
        assert metric.higher_is_better is True
        assert metric.description == description
        assert metric.reference == "Sokolova & Lapalme 2009, Table 3 (macro / weighted F-score)"
        assert metric.outcome_rates == pytest.approx({"answered": 21 / 22, "unparsed": 1 / 22})
        [breakdown] = metric.breakdowns
        assert breakdown.by == "dimension"
        groups = {g.group: (g.value, g.n) for g in breakdown.groups}
        for dimension in ("age", "gender", "race"):
            members = [i for i, row in enumerate(USED) if row[0] == dimension]
            assert groups[dimension] == pytest.approx((naive(_pairs(members)), len(members)))
    # macro and weighted differ on this fixture, so a swapped attribute is visible
    assert _macro(_pairs(range(22))) != pytest.approx(_weighted(_pairs(range(22))))


def test_no_usable_text_is_undefined() -> None:
    records = _records([("race", "negative", "negative", True), ("race", "toxic", "x", False)])
    for metric in classification_metrics(records, LABELS, seed=0):
        assert metric.value is None and metric.n == 0 and metric.n_excluded == 2


@functools.cache
def _doubled_per_class(idx: tuple[int, ...], label: str) -> tuple[float | None, ...]:
    """Per-class scores of the doubled fixture (cached: the three CIs share their resamples)."""
    return _per_class(_pairs(idx, USED * 2), label)


def test_per_class_table_against_counting_and_the_naive_bootstrap() -> None:
    # the fixture twice, so that every class is predicted in every resample (defined CIs)
    table = per_class_table(_records(ROWS * 2), LABELS, seed=5)
    assert table.columns == [
        "class",
        "support",
        "precision",
        "precision_ci_low",
        "precision_ci_high",
        "recall",
        "recall_ci_low",
        "recall_ci_high",
        "f1",
        "f1_ci_low",
        "f1_ci_high",
    ]
    assert table.description == (
        "per-class scores; CIs resample texts (None: undefined in some resample)"
    )
    assert [row[0] for row in table.rows] == list(LABELS)
    for row, label in zip(table.rows, LABELS, strict=True):
        precision, recall, f1, support = _per_class(_pairs(range(44), USED * 2), label)
        assert row[1] == support
        for k, value in enumerate((precision, recall, f1)):

            def statistic(idx: Sequence[int], k: int = k, label: str = label) -> float | None:
                return _doubled_per_class(tuple(idx), label)[k]

            low, high = naive_index_ci(44, statistic, seed=5)
            assert row[2 + 3 * k : 5 + 3 * k] == pytest.approx([value, low, high], abs=1e-12)
            assert low is not None and high is not None and low < high


def test_confusion_table_by_counting() -> None:
    table = confusion_table(_records(ROWS), LABELS)
    assert table.columns == [
        "gold \\ predicted",
        "negative",
        "neutral",
        "positive",
        "(unparsed/refused)",
    ]
    expected = []
    for gold in LABELS:
        row: list[object] = [gold]
        row += [sum(1 for _, g, p in USED if g == gold and p == c) for c in LABELS]
        row.append(sum(1 for _, g, p in USED if g == gold and p not in LABELS))
        expected.append(row)
    # by hand: negative 7/1/1/0, neutral 1/5/1/0, positive 0/1/4/1
    assert expected == [
        ["negative", 7, 1, 1, 0],
        ["neutral", 1, 5, 1, 0],
        ["positive", 0, 1, 4, 1],
    ]
    assert table.rows == expected
    assert table.description == (
        "confusion matrix; the last column counts answers outside the label set"
    )


# -- spans -------------------------------------------------------------------------------------

B, I, O = "B-BIAS", "I-BIAS", "O"  # noqa: E741
SPANS: list[tuple[list[str], list[str] | None, bool]] = [
    # (gold tags, predicted tags or None for no prediction, excluded)
    ([B, I, O, O, B], [B, I, O, O, O], False),  # gold 2, pred 1, hit 1
    ([O, B, I, I, O], [O, B, I, O, O], False),  # gold 1, pred 1, hit 0
    ([O, O, O, O], [O, O, O, O], False),  # no spans
    ([B, O, O, B, I], [B, O, O, B, I], False),  # gold 2, pred 2, hit 2
    ([O, B, O], [B, I, O], False),  # gold 1, pred 1, hit 0
    ([B, I, I, O], [O, O, O, B], False),  # gold 1, pred 1, hit 0
    ([O, O, B], [O, O, B], False),  # gold 1, pred 1, hit 1
    ([O, B, I, O, O, B], [O, B, I, O, O, O], False),  # gold 2, pred 1, hit 1
    ([B, O], [O, B], True),  # excluded
    ([O, B], None, False),  # never scored: no pred_tags
]


def _span_records() -> list[SampleRecord]:
    out = []
    for i, (gold, pred, excluded) in enumerate(SPANS):
        scores: dict[str, object] = {"gold_tags": gold}
        if pred is not None:
            scores["pred_tags"] = pred
        out.append(
            SampleRecord(
                benchmark="beads",
                sample_id=str(i),
                sample_hash=str(i),
                scores=scores,
                outcomes=["answered"],
                excluded=excluded,
            )
        )
    return out


def _spans(tags: Sequence[str]) -> set[tuple[int, int]]:
    """Well-formed B/I runs only (every entity here opens with B-)."""
    found, start = set(), None
    for i, tag in enumerate([*tags, O]):
        if tag != I and start is not None:
            found.add((start, i - 1))
            start = None
        if tag == B:
            start = i
    return found


@functools.cache
def _span_scores(idx: tuple[int, ...]) -> dict[str, float | None]:
    """Naive span scores (cached: the six CIs share their resamples)."""
    used = [(g, p) for g, p, excluded in SPANS if p is not None and not excluded]
    hits = n_gold = n_pred = 0
    correct = tokens = tp = fp = fn = 0
    for i in idx:
        gold, pred = used[i]
        hits += len(_spans(gold) & _spans(pred))
        n_gold += len(_spans(gold))
        n_pred += len(_spans(pred))
        for g, p in zip(gold, pred, strict=True):
            tokens += 1
            correct += (g == O) == (p == O)
            tp += g != O and p != O
            fp += g == O and p != O
            fn += g != O and p == O
    return {
        "entity_f1": 2 * hits / (n_gold + n_pred) if n_gold + n_pred else None,
        "entity_precision": hits / n_pred if n_pred else None,
        "entity_recall": hits / n_gold if n_gold else None,
        "token_accuracy": correct / tokens if tokens else None,
        "bias_token_precision": tp / (tp + fp) if tp + fp else None,
        "bias_token_recall": tp / (tp + fn) if tp + fn else None,
    }


def test_span_metrics_against_counting_and_the_naive_bootstrap() -> None:
    metrics = span_metrics(_span_records(), seed=7)
    names = [
        "entity_f1",
        "entity_precision",
        "entity_recall",
        "token_accuracy",
        "bias_token_precision",
        "bias_token_recall",
    ]
    assert [m.name for m in metrics] == names
    full = _span_scores(tuple(range(8)))
    # by hand: gold 10 entities, predicted 8, hits 5; tokens 35, 27 agree on Bias / Non-Bias;
    # Bias tokens: TP 11, FP 2, FN 6
    assert full == pytest.approx(
        {
            "entity_f1": 10 / 18,
            "entity_precision": 5 / 8,
            "entity_recall": 5 / 10,
            "token_accuracy": 27 / 35,
            "bias_token_precision": 11 / 13,
            "bias_token_recall": 11 / 17,
        }
    )
    descriptions = {
        "entity_f1": "exact-match biased spans, micro F1",
        "entity_precision": "exact-match span precision",
        "entity_recall": "exact-match span recall",
        "token_accuracy": "B/I merged to Bias (Table 10)",
        "bias_token_precision": "precision of the Bias token class (Table 10)",
        "bias_token_recall": "recall of the Bias token class (Table 10)",
    }
    for metric in metrics:
        assert metric.value == pytest.approx(full[metric.name], abs=1e-12)
        assert (metric.n, metric.n_excluded) == (8, 2)
        low, high = naive_index_ci(
            8,
            lambda idx, name=metric.name: _span_scores(tuple(idx))[name],  # type: ignore[misc]
            seed=7,
        )
        if low is None:
            assert (metric.ci_low, metric.ci_high) == (None, None)
        else:
            assert (metric.ci_low, metric.ci_high) == pytest.approx((low, high), abs=1e-12)
        assert metric.statistic == metric.name
        assert metric.higher_is_better is True
        assert metric.description == descriptions[metric.name]
        assert metric.reference == (
            "Tjong Kim Sang & Buchholz 2000 (chunk F1); BEADs Table 10 (tokens)"
        )
        assert metric.breakdowns == []
    accuracy = _by(metrics, "token_accuracy")
    assert accuracy.ci_low is not None and accuracy.ci_low < accuracy.ci_high  # type: ignore[operator]


def test_no_scored_sentence_is_undefined() -> None:
    records = _span_records()[-2:]
    for metric in span_metrics(records, seed=0):
        assert metric.value is None and metric.n == 0 and metric.n_excluded == 2
