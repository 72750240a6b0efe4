"""Classification, span and Bias Rate metrics against hand computation, scikit-learn and seqeval."""

from __future__ import annotations

import random

import pytest

from biasaudit.benchmarks.beads.biasrate import (
    AMBIGUOUS,
    TIE,
    UNMAPPED,
    bias_rate,
    majority,
    map_fill,
)
from biasaudit.metrics.classification import classification_report
from biasaudit.metrics.spans import (
    align_offsets,
    align_phrases,
    entities,
    span_report,
    tokenize,
)


def test_classification_by_hand() -> None:
    gold = ["biased", "biased", "biased", "neutral", "neutral", "neutral", "neutral"]
    pred = ["biased", "neutral", None, "neutral", "neutral", "biased", "neutral"]
    report = classification_report(gold, pred, ("neutral", "biased"))
    assert report.accuracy == pytest.approx(4 / 7)
    b, n = report.by_label("biased"), report.by_label("neutral")
    assert (b.precision, b.recall, b.f1) == pytest.approx((0.5, 1 / 3, 0.4))
    assert (n.precision, n.recall, n.f1) == pytest.approx((0.75, 0.75, 0.75))
    assert report.macro_f1 == pytest.approx(0.575)
    assert report.weighted_f1 == pytest.approx((0.4 * 3 + 0.75 * 4) / 7)
    assert report.confusion == ((3, 1, 0), (1, 1, 1))
    assert report.n_other_predictions == 1


def test_undefined_ratios_are_none_not_zero() -> None:
    report = classification_report(["a", "a"], ["a", "a"], ("a", "b"))
    b = report.by_label("b")
    assert (b.precision, b.recall, b.f1, b.support) == (None, None, None, 0)
    assert report.macro_f1 == 1.0
    empty = classification_report([], [], ("a", "b"))
    assert empty.accuracy is None and empty.macro_f1 is None and empty.reason == "no samples"
    with pytest.raises(ValueError, match="gold label 'c'"):
        classification_report(["c"], ["a"], ("a", "b"))


@pytest.mark.parametrize("seed", range(6))
def test_classification_matches_sklearn(seed: int) -> None:
    np = pytest.importorskip("numpy")
    metrics = pytest.importorskip("sklearn.metrics")
    rng = random.Random(seed)
    labels = ("negative", "neutral", "positive")[: 2 + seed % 2]
    gold = [rng.choice(labels) for _ in range(40)]
    pred = [rng.choice([*labels, "UNPARSED"]) for _ in range(40)]
    report = classification_report(gold, pred, labels)
    p, r, f, s = metrics.precision_recall_fscore_support(
        gold, pred, labels=list(labels), zero_division=np.nan
    )
    for i, label in enumerate(labels):
        c = report.by_label(label)
        assert (c.precision, c.recall, c.f1, c.support) == pytest.approx((p[i], r[i], f[i], s[i]))
    assert report.accuracy == pytest.approx(metrics.accuracy_score(gold, pred))
    assert report.macro_f1 == pytest.approx(
        metrics.f1_score(gold, pred, labels=list(labels), average="macro", zero_division=np.nan)
    )
    assert report.weighted_f1 == pytest.approx(
        metrics.f1_score(gold, pred, labels=list(labels), average="weighted", zero_division=np.nan)
    )
    matrix = metrics.confusion_matrix(gold, pred, labels=list(labels))
    assert [list(row[:-1]) for row in report.confusion] == matrix.tolist()


def test_tokenize_offsets() -> None:
    tokens = tokenize("Women can't drive, right?")
    assert [(t.text, t.start, t.end) for t in tokens] == [
        ("Women", 0, 5),
        ("can't", 6, 11),
        ("drive", 12, 17),
        (",", 17, 18),
        ("right", 19, 24),
        ("?", 24, 25),
    ]


def test_phrase_alignment_matches_the_hand_tagged_conll_fixture() -> None:
    # tests/fixtures/beads/2-Token-Classification/conll.csv sentence 1, tagged by hand
    result = align_phrases(
        "Women are overreacting bossy managers.", ["overreacting", "bossy managers"]
    )
    assert result.tags == ["O", "O", "B-BIAS", "B-BIAS", "I-BIAS", "O"]
    assert result.problems == []
    result = align_phrases("Muslims are violent extremists.", ["VIOLENT   extremists"])
    assert result.tags == ["O", "O", "B-BIAS", "I-BIAS", "O"]


def test_phrase_alignment_occurrences_and_problems() -> None:
    assert align_phrases("Lazy workers are lazy.", ["lazy"]).tags == [
        "B-BIAS", "O", "O", "B-BIAS", "O",
    ]  # fmt: skip
    first = align_phrases("Lazy workers are lazy.", ["lazy"], occurrence="first")
    assert first.tags == ["B-BIAS", "O", "O", "O", "O"]
    missing = align_phrases("Men are brutes.", ["kind", "brutes"])
    assert missing.tags == ["O", "O", "B-BIAS", "O"]
    assert missing.problems == ["span 'kind' not found in the text"]
    inside = align_phrases("Muslims are violent.", ["slim"])
    assert inside.problems == ["span 'slim' matches only inside a word"]
    overlap = align_phrases(
        "Women are overreacting bossy managers.", ["bossy managers", "managers"]
    )
    assert overlap.tags == ["O", "O", "O", "B-BIAS", "I-BIAS", "O"]
    assert overlap.problems == ["span 'managers' overlaps span 'bossy managers'; merged"]
    assert align_phrases("A b.", ["  "]).problems == ["span '  ' is empty"]


def test_offset_alignment_reports_malformed_spans() -> None:
    text = "Muslims are violent extremists."
    good = align_offsets(text, [(12, 30)])
    assert good.tags == ["O", "O", "B-BIAS", "I-BIAS", "O"] and good.problems == []
    bad = align_offsets(text, [(12, 15), (25, 100), (5, 5)])
    assert bad.tags == ["O"] * 5
    assert bad.problems == [
        "span [12, 15) 'vio' does not start and end on tokens",
        "span [25, 100) is outside the text (length 31) or empty",
        "span [5, 5) is outside the text (length 31) or empty",
    ]


def test_entities_conlleval_rules() -> None:
    assert entities(["O", "B-BIAS", "I-BIAS", "O", "B-BIAS"]) == [(1, 2), (4, 4)]
    assert entities(["I-BIAS", "I-BIAS", "O"]) == [(0, 1)]
    assert entities(["B-BIAS", "B-BIAS", "I-BIAS"]) == [(0, 0), (1, 2)]


def test_span_report_by_hand() -> None:
    gold = [["O", "B-BIAS", "I-BIAS", "O", "B-BIAS"], ["I-BIAS", "I-BIAS", "O"]]
    pred = [["O", "B-BIAS", "O", "O", "B-BIAS"], ["B-BIAS", "I-BIAS", "O"]]
    report = span_report(gold, pred)
    assert (report.entity_precision, report.entity_recall, report.entity_f1) == pytest.approx(
        (2 / 3, 2 / 3, 2 / 3)
    )
    bias, non = report.tokens.by_label("Bias"), report.tokens.by_label("Non-Bias")
    assert (bias.precision, bias.recall) == pytest.approx((1.0, 0.8))
    assert (non.precision, non.recall) == pytest.approx((0.75, 1.0))
    assert report.tokens.accuracy == pytest.approx(7 / 8)
    empty = span_report([], [])
    assert empty.entity_f1 is None and empty.reason == "no sentences"
    with pytest.raises(ValueError, match="sentence 0: 2 gold tags but 1 predicted"):
        span_report([["O", "O"]], [["O"]])


@pytest.mark.parametrize("seed", range(5))
def test_entity_scores_match_seqeval(seed: int) -> None:
    seqeval = pytest.importorskip("seqeval.metrics")
    rng = random.Random(seed)
    tags = ["O", "O", "B-BIAS", "I-BIAS"]
    gold = [[rng.choice(tags) for _ in range(rng.randint(1, 9))] for _ in range(30)]
    pred = [[rng.choice(tags) for _ in g] for g in gold]
    report = span_report(gold, pred)
    assert report.entity_precision == pytest.approx(seqeval.precision_score(gold, pred))
    assert report.entity_recall == pytest.approx(seqeval.recall_score(gold, pred))
    assert report.entity_f1 == pytest.approx(seqeval.f1_score(gold, pred))


def test_map_fill_and_majority() -> None:
    assert map_fill("She") == "Gender Female"
    assert map_fill("The African American") == "Ethnicity Black"
    assert map_fill("Muslim.") == "Religion Muslim"
    assert map_fill("happy") == UNMAPPED
    assert map_fill("black woman") == AMBIGUOUS
    assert map_fill("shepherd") == UNMAPPED  # "she" only as a word
    assert majority(["a", "b", "a", "c", "b"]) == TIE
    assert majority(["a", "b", "a", "c", "b"], tie="first") == "a"
    assert majority(["b", "a", "b"]) == "b"
    assert majority([]) is None


def test_bias_rate_by_hand() -> None:
    pairs = [
        ("Gender Female", "biased"),
        ("Gender Female", "neutral"),
        ("Gender Female", "biased"),
        ("Gender Male", "neutral"),
        (None, "biased"),
        ("Gender Male", "unclear"),
    ]
    rates = bias_rate(pairs)
    assert rates["Gender Female"].rate == pytest.approx(2 / 3)
    assert (rates["Gender Male"].biased, rates["Gender Male"].n) == (0, 1)
    assert set(rates) == {"Gender Female", "Gender Male"}


def test_classification_report_fields_notes_and_validation() -> None:
    gold = ["a", "a", "a", "b", "c"]
    pred = ["a", "b", "a", "b", "a"]
    report = classification_report(gold, pred, ("a", "b", "c", "d"))
    assert report.n == 5 and report.labels == ("a", "b", "c", "d")
    # a: tp 2, fp 1 (the c), fn 1 -> P 2/3, R 2/3; b: tp 1, fp 1, fn 0 -> P 1/2, R 1;
    # c: tp 0, fn 1, never predicted -> P undefined, R 0; d: no gold, never predicted
    assert report.macro_precision == pytest.approx((2 / 3 + 1 / 2) / 2)
    assert report.macro_recall == pytest.approx((2 / 3 + 1 + 0) / 3)
    # weighted F1 over classes with support: a (F1 2/3, 3), b (F1 2/3, 1), c (F1 0, 1)
    assert report.weighted_f1 == pytest.approx((2 / 3 * 3 + 2 / 3 * 1 + 0 * 1) / 5)
    assert [c.predicted for c in report.per_class] == [3, 2, 0, 0]
    assert report.notes == [
        "class 'd': no gold samples",
        "class 'c': never predicted",
        "class 'd': never predicted",
    ]
    assert report.reason is None
    with pytest.raises(ValueError, match="^2 gold labels but 1 predictions$"):
        classification_report(["a", "a"], ["a"], ("a",))
    for labels in [("a", "a"), ()]:
        with pytest.raises(ValueError, match="^labels must be non-empty and distinct$"):
            classification_report(["a"], ["a"], labels)


def test_phrase_alignment_defaults_duplicates_and_inside_then_word() -> None:
    text = "Lazy workers are lazy."
    result = align_phrases(text, ["lazy"])  # default: every occurrence
    assert result.tags == ["B-BIAS", "O", "O", "B-BIAS", "O"]
    assert [t.text for t in result.tokens] == ["Lazy", "workers", "are", "lazy", "."]
    # the same phrase listed twice: the same span, not an overlap to report
    assert align_phrases(text, ["workers", "workers"]).problems == []
    # an empty phrase is reported and the next phrase still aligned
    after_empty = align_phrases(text, ["", "workers"])
    assert after_empty.tags == ["O", "B-BIAS", "O", "O", "O"]
    assert after_empty.problems == ["span '' is empty"]
    # a match inside a word first, then a real one: the real one is tagged
    assert align_phrases("Unlazy and lazy", ["lazy"]).tags == ["O", "O", "B-BIAS"]


def test_offset_alignment_at_the_text_edges_and_overlaps() -> None:
    text = "Muslims are violent extremists"
    edges = align_offsets(text, [(0, 7), (20, 30)])  # first word, last word (ends at len)
    assert edges.tags == ["B-BIAS", "O", "O", "B-BIAS"] and edges.problems == []
    assert [t.text for t in edges.tokens] == ["Muslims", "are", "violent", "extremists"]
    overlap = align_offsets(text, [(12, 30), (20, 30)])
    assert overlap.tags == ["O", "O", "B-BIAS", "I-BIAS"]
    assert overlap.problems == ["span [20, 30) overlaps span [12, 30); merged"]


def test_span_report_counts_and_sentence_mismatch() -> None:
    gold = [["B-BIAS", "I-BIAS", "O"], ["O", "B-BIAS"]]
    pred = [["B-BIAS", "O", "O"], ["O", "O"]]
    report = span_report(gold, pred)
    # gold entities (0,1), (1,1); predicted (0,0): no exact hit
    assert (report.n_sentences, report.n_gold_entities, report.n_pred_entities) == (2, 2, 1)
    assert report.entity_precision == 0.0 and report.reason is None
    with pytest.raises(ValueError, match="^2 gold sentences but 1 predicted$"):
        span_report(gold, pred[:1])


def test_map_fill_custom_lexicon_and_bias_rate_order() -> None:
    lexicon = {"black woman": "Intersection", "nurse": "Occupation"}
    # punctuation and repeated whitespace collapse to one space before matching
    assert map_fill("A Black,   woman", lexicon) == "Intersection"
    assert map_fill("the nurse", lexicon) == "Occupation"
    assert map_fill("She", lexicon) == UNMAPPED  # only the given lexicon is used
    # a skipped pair (no group) first does not stop the counting
    rates = bias_rate([(None, "biased"), ("G", "biased"), ("G", "neutral")])
    assert rates["G"].group == "G" and (rates["G"].biased, rates["G"].n) == (1, 2)
