"""COBIAS metrics at their edges: boundaries, undefined inputs and their messages.

Expected values are computed by hand next to each assertion; the SS_rep curve is checked
against a loop written here from its documented draw order (one `default_rng(seed)`,
`runs` draws of n distinct versions per size, in the order the sizes are given).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from biasaudit.benchmarks.cobias import metrics as m


def test_tau_boundaries_and_messages() -> None:
    assert m.tau(-3.0, 1) == 3.0
    assert m.tau(2.0, 4) == 0.5  # |2 / 4|
    with pytest.raises(ValueError, match=r"^tau is undefined for a text with no scored units$"):
        m.tau(-1.0, 0)
    with pytest.raises(ValueError, match=r"^tau is undefined for a text with no scored units$"):
        m.tau(-1.0, -2)
    message = r"^tau is undefined for a non-finite log-probability \(-inf\)$"
    with pytest.raises(ValueError, match=message):
        m.tau(float("-inf"), 3)


def test_ensemble_tau_message_and_single_model() -> None:
    assert m.ensemble_tau([2.5]) == 2.5
    assert m.ensemble_tau((1.0, 2.0)) == 1.5
    with pytest.raises(ValueError, match=r"^no model scores to average$"):
        m.ensemble_tau([])


def test_context_variance_messages() -> None:
    with pytest.raises(ValueError, match=r"^cv is undefined without context-added versions$"):
        m.context_variance(2.0, [])
    for original, versions in ((1.0, [2.0, float("inf")]), (float("nan"), [1.0])):
        with pytest.raises(ValueError, match=r"^cv is undefined for non-finite scores$"):
            m.context_variance(original, versions)
    with pytest.raises(ValueError, match=r"^cv is undefined when tau\(x\) is 0$"):
        m.context_variance(0.0, [1.0])
    # integer inputs: (9 - 3)^2 = 36 and 0 -> mean 18, / 3 * 100 = 600
    assert m.context_variance(3, [9, 3]) == 600.0


def test_context_variance_of_float32_scores_is_computed_in_float64() -> None:
    versions = [np.float32(3.1), np.float32(1.3), np.float32(2.7)]
    x = [float(v) for v in versions]  # the float32 values, exactly
    expected = sum((v - 2.2) ** 2 for v in x) / 3 / 2.2 * 100
    assert m.context_variance(2.2, versions) == pytest.approx(expected, abs=1e-12)  # type: ignore[arg-type]


def test_cobias_rejects_non_finite_and_negative_cv_with_the_value() -> None:
    for cv, shown in ((-0.1, "-0.1"), (float("inf"), "inf"), (float("nan"), "nan")):
        with pytest.raises(ValueError, match=rf"^cv must be finite and non-negative, got {shown}$"):
            m.cobias(cv)


def test_cv_from_cobias_range() -> None:
    assert m.cv_from_cobias(0.0) == 0.0
    assert m.cv_from_cobias(0.5) == pytest.approx(math.e - 1)  # exp(0.5 / 0.5) - 1
    for score in (1.0, -0.01, 1.5):
        with pytest.raises(ValueError, match=rf"^a COBIAS score lies in \[0, 1\), got {score}$"):
            m.cv_from_cobias(score)


LABELS = ["0", *(f"({i / 10:.1f}, {(i + 1) / 10:.1f}]" for i in range(10))]


def test_summarize_labels_empty_and_single() -> None:
    empty = m.summarize([])
    assert (empty.n, empty.mean, empty.sd) == (0, None, None)
    assert empty.histogram == [(label, 0) for label in LABELS]
    one = m.summarize([0.35])
    assert (one.n, one.mean, one.sd) == (1, 0.35, None)
    assert dict(one.histogram)["(0.3, 0.4]"] == 1
    two = m.summarize([0.1, 0.3])
    assert two.sd == pytest.approx(math.sqrt(0.02))  # (0.01 + 0.01) / (2 - 1)
    assert two.mean == pytest.approx(0.2)
    # right-closed bins: 0.1 in the first, 0.9 in the ninth, 1.0 in the last; 0 alone
    edges = m.summarize([0.0, 0.1, 0.1000001, 0.9, 1.0])
    assert edges.histogram == [
        ("0", 1),
        ("(0.0, 0.1]", 1),
        ("(0.1, 0.2]", 1),
        *((label, 0) for label in LABELS[3:9]),
        ("(0.8, 0.9]", 1),
        ("(0.9, 1.0]", 1),
    ]


def test_summary_of_float32_scores_is_computed_in_float64() -> None:
    scores = [np.float32(v) for v in (0.11, 0.52, 0.37, 0.93)]
    x = [float(v) for v in scores]  # the float32 values, exactly
    mean = sum(x) / 4
    summary = m.summarize(scores)  # type: ignore[arg-type]
    assert summary.mean == pytest.approx(mean, abs=1e-15)
    assert summary.sd == pytest.approx(math.sqrt(sum((v - mean) ** 2 for v in x) / 3), abs=1e-15)


def test_reference_ed_removes_newlines_before_splitting() -> None:
    # "b\nc" becomes "bc": the same words as the template, ED 0
    assert m.edit_distance("A bc", "A b\nc", "reference") == 0
    # the dp mode keeps the newline inside the single-space token: "b\nc" is not "bc";
    # hand count: delete "bc" (1) and insert "b\nc" into a gap without a blank (1)
    assert m.edit_distance("A bc", "A b\nc", "dp") == 2


def test_reference_is_the_default_mode_and_splits_on_single_spaces() -> None:
    template = "The ___ women at the ___ office are arrogant."
    appended = (
        "The senior women at the corporate office are arrogant. Note: this sentence was "
        "rewritten to add context without changing its meaning, as requested by the user."
    )
    # the 17 appended words count in the authors' algorithm (test_cobias_ed_reference.py)
    assert m.edit_distance(template, appended) == 17
    # "A  b" holds an empty token between the two spaces, in both texts: LCS A, "", b;
    # "___." (punctuation attached: not a blank) and "c." are left over: 1 + 1
    assert m.edit_distance("A  b ___.", "A  b c.", "reference") == 2
    # one double space only in the generation: LCS A, b; the empty token and the two
    # leftovers: 1 + 1 + 1
    assert m.edit_distance("A b ___.", "A  b c.", "reference") == 3
    assert m.edit_distance("A  b ___.", "A b c.", "reference") == 3


def test_an_insertion_never_raises_a_cheaper_cell() -> None:
    # "x" fills the blank for free, "a" is deleted: 1
    assert m.edit_distance("___ a", "x", "dp") == 1
    assert m.edit_distance("___ a", "x", "improved") == 1


def test_blank_tokens_per_mode() -> None:
    # improved: any run of two or more underscores is a blank, also glued to punctuation
    assert m.edit_distance("He is __ here.", "He is very much here.", "improved") == 0
    assert m.edit_distance("He is ____ here.", "He is very here.", "improved") == 0
    # a single underscore is not a blank: inserting a word next to it costs 1; deleting "_"
    # costs 1 more
    assert m.edit_distance("He is _ here.", "He is very here.", "improved") == 2
    # dp: only the exact token "___" is a blank; "____" is a word to delete (1) and "very"
    # is inserted into a gap without a blank (1)
    assert m.edit_distance("He is ___ here.", "He is very here.", "dp") == 0
    assert m.edit_distance("He is ____ here.", "He is very here.", "dp") == 2


def test_dp_edit_distance_hand_counts() -> None:
    # nothing generated: every template word is deleted (the blank costs nothing)
    assert m.edit_distance("a b ___ c", "", "improved") == 3
    # empty template (no words): generated words go into the gap before the first word,
    # which holds no blank: 1 each
    assert m.edit_distance("", "x y", "improved") == 2
    # a blank at the start and the end absorbs any number of words
    assert m.edit_distance("___ a ___", "x y a z", "dp") == 0
    # reordered words: keep one, delete and re-insert the other
    assert m.edit_distance("a b", "b a", "dp") == 2


def test_ed_threshold_fraction_and_message() -> None:
    assert m.ed_threshold([10, 20], fraction=0.5) == 7.5
    with pytest.raises(ValueError, match=r"^no templates to take the mean length of$"):
        m.ed_threshold([])


def test_cosine_inputs_and_messages() -> None:
    with pytest.raises(ValueError, match=r"^SS_con needs at least one version$"):
        m.ss_con([1.0, 0.0], [])
    with pytest.raises(ValueError, match=r"^embeddings must be a list of equal-length vectors$"):
        m.ss_con([1.0, 0.0], [1.0, 0.0])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"^cosine similarity is undefined for a zero embedding$"):
        m.ss_con([0.0, 0.0], [[1.0, 0.0]])
    with pytest.raises(ValueError, match=r"^cosine similarity of a zero vector is undefined$"):
        m.ss_rep([[1.0, 0.0], [0.0, 0.0]])
    # two versions at 60 degrees: cos = 0.5; integer vectors are scaled to unit length
    assert m.ss_rep([[1.0, 0.0], [0.5, math.sqrt(3) / 2]]) == pytest.approx(0.5)
    assert m.ss_con([2, 0], [[3, 4], [0, 5]]) == pytest.approx((0.6 + 0.0) / 2)


def _pairwise(vectors: list[list[float]]) -> float:
    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True)) / math.hypot(*a) / math.hypot(*b)

    pairs = list(itertools.combinations(vectors, 2))
    return sum(cos(a, b) for a, b in pairs) / len(pairs)


def test_ss_rep_curve_against_a_naive_loop() -> None:
    versions = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, -1.0], [-1.0, 3.0]]
    sizes = [5, 2, 1, 3, 6, 4]
    rng = np.random.default_rng(11)
    expected = {}
    for n in sizes:
        if n < 2 or n > len(versions):
            continue
        draws = [
            _pairwise([versions[i] for i in rng.choice(len(versions), size=n, replace=False)])
            for _ in range(3)
        ]
        expected[n] = sum(draws) / len(draws)
    got = m.ss_rep_curve(versions, sizes, runs=3, seed=11)
    assert list(got) == [5, 2, 3, 4]
    assert got == pytest.approx(expected, abs=1e-12)
    # the whole set: every draw is the same set, mean of the 10 pairwise cosines
    assert got[5] == pytest.approx(_pairwise(versions), abs=1e-12)


def test_float32_embeddings_are_computed_in_float64() -> None:
    # a list of float32 vectors (as a local encoder returns them): the cosine is taken in
    # float64 of those values
    reference = np.array([0.1, 0.7, 0.3], dtype=np.float32)
    versions = np.array([[0.3, 0.2, 0.9], [0.6, 0.1, 0.1]], dtype=np.float32)
    ref = [float(v) for v in reference]
    rows = [[float(v) for v in row] for row in versions]

    def cos(a: list[float], b: list[float]) -> float:
        return sum(x * y for x, y in zip(a, b, strict=True)) / math.hypot(*a) / math.hypot(*b)

    expected = (cos(rows[0], ref) + cos(rows[1], ref)) / 2
    got = m.ss_con(reference, list(versions))  # type: ignore[arg-type]
    assert got == pytest.approx(expected, abs=1e-13)
