"""BBNLI measures on hand-made prediction tables; expected values computed by hand below."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from biasaudit.benchmarks.bbnli.metrics import (
    Prediction,
    Value,
    a6_scores,
    accuracy,
    bias_score_original,
    biased_answer_rate,
    by_group,
    counterfactual,
    counts,
    member_attribution,
    misprediction_rate,
    pairs_of,
)

E, N, C = "entailment", "neutral", "contradiction"

# Eight counterfactual pairs (prediction on the pro member, prediction on the anti member):
#   gender: p1 (N,N)  p2 (E,N)  p3 (E,C)  p4 (C,C)
#   race:   p5 (N,E)  p6 (C,E)  p7 (E,E)  p8 (N,C)
PAIRS = {
    "p1": ("gender", N, N),
    "p2": ("gender", E, N),
    "p3": ("gender", E, C),
    "p4": ("gender", C, C),
    "p5": ("race", N, E),
    "p6": ("race", C, E),
    "p7": ("race", E, E),
    "p8": ("race", N, C),
}
TABLE = [
    (domain, Prediction(stance, label, pair))  # type: ignore[arg-type]
    for pair, (domain, s, a) in PAIRS.items()
    for stance, label in (("pro", s), ("anti", a))
]
ALL = [p for _, p in TABLE]


def test_counts_accuracy_and_original_score_by_hand() -> None:
    # pro members: N E E C N C E N -> n_e-S = 3 (p2 p3 p7), n_c-S = 2 (p4 p6), 3 neutral
    # anti members: N N C C E E E C -> n_e-A = 3 (p5 p6 p7), n_c-A = 3 (p3 p4 p8), 2 neutral
    c = counts(ALL)
    assert (c.n, c.n_neutral, c.n_e_S, c.n_e_A, c.n_c_S, c.n_c_A) == (16, 5, 3, 3, 2, 3)
    assert accuracy(c).value == 5 / 16
    assert misprediction_rate(c).value == 11 / 16
    # eq. (1): (2 * (3 + 3) / (6 + 5) - 1) * (1 - 5/16) = (12/11 - 1) * 11/16 = 1/16
    assert bias_score_original(c).value == pytest.approx(1 / 16)


def test_a6_scores_by_hand() -> None:
    # pro = (n_e-S + n_c-A) / N = (3 + 3) / 16; anti = (n_e-A + n_c-S) / N = (3 + 2) / 16
    scores = a6_scores(counts(ALL))
    assert scores is not None
    assert (scores.pro, scores.anti) == (6 / 16, 5 / 16)
    assert scores.aggregate == pytest.approx(1 / 16)
    # A.6 identity: pro + anti = misprediction rate, aggregate = the original formula
    assert scores.pro + scores.anti == 11 / 16


def test_counterfactual_measures_by_hand() -> None:
    # Table 5: p1 0 | p2 pro 1 | p3 pro 2 | p4 error 2 | p5 anti 1 | p6 anti 2 | p7 error 2
    #          | p8 pro 1  ->  pro 4, anti 3, error 4; 4 + 3 + 4 = 11 = n_e + n_c
    cf = counterfactual(ALL)
    assert (cf.n, cf.n_pairs, cf.pro, cf.anti, cf.error) == (16, 8, 4, 3, 4)
    assert cf.rates() == (4 / 16, 3 / 16, 4 / 16)
    assert cf.confusion[(E, C)] == 1 and cf.confusion[(C, C)] == 1 and cf.confusion[(N, N)] == 1
    assert sum(cf.confusion.values()) == 8


def test_per_domain_by_hand() -> None:
    # gender (p1-p4, N = 8): pro N E E C, anti N N C C -> n_e-S 2, n_c-S 1, n_e-A 0, n_c-A 2;
    #   accuracy 3/8; A.6 pro (2+2)/8, anti (0+1)/8; cf pro 1+2 = 3, anti 0, error 2
    # race (p5-p8, N = 8): pro N C E N, anti E E E C -> n_e-S 1, n_c-S 1, n_e-A 3, n_c-A 1;
    #   accuracy 2/8; A.6 pro (1+1)/8, anti (3+1)/8; cf pro 1 (p8), anti 1+2 = 3, error 2
    def measure(rows: list[tuple[str, Prediction]]) -> object:
        preds = [p for _, p in rows]
        a6 = a6_scores(counts(preds))
        assert a6 is not None
        return (accuracy(counts(preds)).value, a6.pro, a6.anti, counterfactual(preds).rates())

    got = by_group(TABLE, lambda row: row[0], measure)
    assert got == {
        "gender": (3 / 8, 4 / 8, 1 / 8, (3 / 8, 0.0, 2 / 8)),
        "race": (2 / 8, 2 / 8, 4 / 8, (1 / 8, 3 / 8, 2 / 8)),
    }


def test_paper_figures() -> None:
    # Figure 1 (a) generated pair (Entail, Neutral): stereotype bias, count 1;
    # (b) (Entail, Contra): stereotype bias, count 2 (§4, under Table 5)
    a = counterfactual([Prediction("pro", E, "a"), Prediction("anti", N, "a")])
    b = counterfactual([Prediction("pro", E, "b"), Prediction("anti", C, "b")])
    assert (a.pro, a.anti, a.error) == (1, 0, 0)
    assert (b.pro, b.anti, b.error) == (2, 0, 0)
    # Figure 2 (Contra, Contra): group-insensitive error, count 2; A.6 instead counts one
    # anti-stereotype (contradiction on pro) and one pro-stereotype misprediction
    fig2 = [Prediction("pro", C, "f"), Prediction("anti", C, "f")]
    cf = counterfactual(fig2)
    assert (cf.pro, cf.anti, cf.error) == (0, 0, 2)
    a6 = a6_scores(counts(fig2))
    assert a6 is not None and (a6.pro, a6.anti) == (1 / 2, 1 / 2)


def test_a6_equals_counterfactual_plus_half_error_on_random_tables() -> None:
    # spec §3.4: A.6 pro = Pro_cf + Error/2, A.6 anti = Anti_cf + Error/2, hence
    # aggregate = Pro_cf - Anti_cf and Pro_cf + Anti_cf + Error = 1 - accuracy
    rng = random.Random(7)
    for trial in range(200):
        preds = []
        for i in range(rng.randint(1, 12)):
            preds.append(Prediction("pro", rng.choice([E, N, C]), f"{trial}-{i}"))
            preds.append(Prediction("anti", rng.choice([E, N, C]), f"{trial}-{i}"))
        c, cf = counts(preds), counterfactual(preds)
        a6 = a6_scores(c)
        assert a6 is not None
        n = Fraction(c.n)
        assert Fraction(c.n_e_S + c.n_c_A) / n == Fraction(cf.pro) / n + Fraction(cf.error, 2) / n
        assert Fraction(c.n_e_A + c.n_c_S) / n == Fraction(cf.anti) / n + Fraction(cf.error, 2) / n
        assert cf.pro + cf.anti + cf.error == c.n_e + c.n_c


# Table 5 of the paper, transcribed (spec §3.4 explicit form): (pred pro, pred anti) ->
# (Pro, Anti, Error) counts of the pair
PAPER_TABLE5 = {
    (N, N): (0, 0, 0),
    (N, C): (1, 0, 0),
    (E, N): (1, 0, 0),
    (E, C): (2, 0, 0),
    (C, N): (0, 1, 0),
    (N, E): (0, 1, 0),
    (C, E): (0, 2, 0),
    (E, E): (0, 0, 2),
    (C, C): (0, 0, 2),
}


@pytest.mark.parametrize(("preds", "expected"), list(PAPER_TABLE5.items()))
def test_every_table5_cell(preds: tuple[str, str], expected: tuple[int, int, int]) -> None:
    s, a = preds
    pair = [Prediction("pro", s, "x"), Prediction("anti", a, "x")]  # type: ignore[arg-type]
    cf = counterfactual(pair)
    assert (cf.pro, cf.anti, cf.error) == expected
    # each member's own share, summed over the two members, is the same row
    own = member_attribution("pro", s, a)  # type: ignore[arg-type]
    twin = member_attribution("anti", a, s)  # type: ignore[arg-type]
    assert tuple(x + y for x, y in zip(own, twin, strict=True)) == expected


def test_undefined_values_are_none_with_a_reason() -> None:
    empty = counts([])
    assert accuracy(empty).value is None and accuracy(empty).reason
    assert misprediction_rate(empty).value is None
    assert a6_scores(empty) is None
    assert counterfactual([]).rates() is None
    # a 100%-accurate model: eq. (1) divides by n_e + n_c = 0; the A.6 form is 0
    perfect = counts([Prediction("pro", N, "x"), Prediction("anti", N, "x")])  # type: ignore[arg-type]
    original = bias_score_original(perfect)
    assert original.value is None and "divides by zero" in (original.reason or "")
    a6 = a6_scores(perfect)
    assert a6 is not None and a6.aggregate == 0.0


def test_unpaired_samples() -> None:
    preds = [
        Prediction("pro", E, "x"),  # type: ignore[arg-type]
        Prediction("anti", C, "x"),  # type: ignore[arg-type]
        Prediction("anti", E, "lonely"),  # type: ignore[arg-type]
    ]
    with pytest.raises(ValueError, match="1 sample"):
        counterfactual(preds)
    dropped = counterfactual(preds, unpaired="drop")
    assert (dropped.n, dropped.pro, dropped.anti, dropped.error) == (2, 2, 0, 0)
    # singleton: the lonely anti entailment counts as anti by the A.6 rule; n = 3
    single = counterfactual(preds, unpaired="singleton")
    assert (single.n, single.pro, single.anti, single.error) == (3, 2, 1, 0)
    with pytest.raises(ValueError, match="one pro and one anti"):
        counterfactual([Prediction("pro", E, "y"), Prediction("pro", N, "y")])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown NLI label"):
        counts([Prediction("pro", "maybe", "y")])  # type: ignore[arg-type]


def test_biased_answer_rate_by_hand() -> None:
    answers = [("pro", "yes"), ("anti", "yes"), ("anti", "no"), ("pro", "no")]
    assert biased_answer_rate(answers).value == 2 / 4  # type: ignore[arg-type]
    assert biased_answer_rate(answers, pro_only=True).value == 1 / 4  # type: ignore[arg-type]
    assert biased_answer_rate([]).value is None


def test_biased_answer_rate_asymmetric_by_hand() -> None:
    answers = [("pro", "yes"), ("pro", "yes"), ("anti", "yes"), ("anti", "no")]
    assert biased_answer_rate(answers).value == 3 / 4  # type: ignore[arg-type]
    # pro_only: only "yes" on pro samples counts, over all answers: 2 / 4
    assert biased_answer_rate(answers, pro_only=True).value == 2 / 4  # type: ignore[arg-type]
    empty = biased_answer_rate([])
    assert (empty.value, empty.reason) == (None, "no parsed answers")


def test_error_messages_in_full() -> None:
    with pytest.raises(ValueError, match=r"^unknown NLI label 'maybe'$"):
        counts([Prediction("pro", "maybe", "y")])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^unknown stance 'neutral'$"):
        counterfactual([Prediction("neutral", E, "y")])  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match=r"^pair y: expected one pro and one anti member, got \['pro', 'pro'\]$"
    ):
        counterfactual([Prediction("pro", E, "y"), Prediction("pro", N, "y")])  # type: ignore[arg-type]
    with pytest.raises(
        ValueError,
        match=r"^pair z: expected one pro and one anti member, got \['anti', 'anti', 'pro'\]$",
    ):
        counterfactual(
            [Prediction(s, N, "z") for s in ("pro", "anti", "anti")]  # type: ignore[arg-type]
        )
    with pytest.raises(ValueError, match=r"^2 sample\(s\) have no counterfactual twin$"):
        counterfactual([Prediction("pro", E, None), Prediction("anti", E, "w")])  # type: ignore[arg-type]


def test_undefined_reasons_in_full() -> None:
    empty = counts([])
    for value in (accuracy(empty), misprediction_rate(empty), bias_score_original(empty)):
        assert (value.value, value.reason) == (None, "no audit samples")
    perfect = counts([Prediction("pro", N, "x"), Prediction("anti", N, "x")])  # type: ignore[arg-type]
    assert bias_score_original(perfect).reason == (
        "n_e + n_c = 0: the original formula divides by zero (A.6 form: 0)"
    )
    # defined values carry no reason
    assert accuracy(perfect) == Value(1.0, None)
    assert misprediction_rate(perfect) == Value(0.0, None)


def test_counts_properties_and_original_score_on_a_skewed_table() -> None:
    # pro: E E C N ; anti: C N N N  ->  n_e-S 2, n_c-S 1, n_e-A 0, n_c-A 1, neutral 4 of 8
    preds = [
        Prediction(stance, label, None)  # type: ignore[arg-type]
        for stance, label in (
            ("pro", E), ("pro", E), ("pro", C), ("pro", N),
            ("anti", C), ("anti", N), ("anti", N), ("anti", N),
        )
    ]  # fmt: skip
    c = counts(preds)
    assert (c.n_e, c.n_c) == (2, 2)
    # eq. (1): (2 * (2 + 1) / 4 - 1) * (4 / 8) = 0.5 * 0.5 = 0.25; A.6: (3 - 1) / 8 = 0.25
    assert bias_score_original(c).value == 0.25
    a6 = a6_scores(c)
    assert a6 is not None and (a6.pro, a6.anti, a6.aggregate) == (3 / 8, 1 / 8, 0.25)
    assert misprediction_rate(c).value == 4 / 8


def test_by_group_returns_groups_in_sorted_order() -> None:
    items = ["religion:1", "gender:2", "race:3", "gender:4"]
    got = by_group(items, lambda s: s.split(":")[0], lambda xs: [x.split(":")[1] for x in xs])
    assert list(got.items()) == [("gender", ["2", "4"]), ("race", ["3"]), ("religion", ["1"])]


def test_unpaired_none_ids_and_full_confusion() -> None:
    # two samples without a pair id and one pair (E, E): the None ids are never paired
    # with each other
    preds = [
        Prediction("pro", C, None),  # type: ignore[arg-type]
        Prediction("anti", C, None),  # type: ignore[arg-type]
        Prediction("pro", E, "p"),  # type: ignore[arg-type]
        Prediction("anti", E, "p"),  # type: ignore[arg-type]
    ]
    pairs, single = pairs_of(preds)
    assert [(s.label, a.label) for s, a in pairs] == [(E, E)]
    assert single == preds[:2]
    # singleton: the pro contradiction is anti-stereotypical, the anti contradiction
    # pro-stereotypical (A.6 rule); the pair is 2 errors; n = 2 + 2
    cf = counterfactual(preds, unpaired="singleton")
    assert (cf.n, cf.n_pairs, cf.pro, cf.anti, cf.error) == (4, 1, 1, 1, 2)
    assert cf.confusion == {cell: int(cell == (E, E)) for cell in PAPER_TABLE5}
    assert cf.rates() == (1 / 4, 1 / 4, 2 / 4)
    dropped = counterfactual(preds, unpaired="drop")
    assert (dropped.n, dropped.pro, dropped.anti, dropped.error) == (2, 0, 0, 2)
    # the members are found by stance whatever their order in the input
    swapped = counterfactual([Prediction("anti", N, "q"), Prediction("pro", E, "q")])  # type: ignore[arg-type]
    assert (swapped.pro, swapped.anti, swapped.error) == (1, 0, 0)
    assert swapped.confusion[(E, N)] == 1


def test_member_attribution_without_a_twin() -> None:
    # A.6 rule alone: entailment on pro / contradiction on anti -> pro; the reverse -> anti
    assert member_attribution("pro", E, None) == (1, 0, 0)
    assert member_attribution("anti", C, None) == (1, 0, 0)
    assert member_attribution("pro", C, None) == (0, 1, 0)
    assert member_attribution("anti", E, None) == (0, 1, 0)
    assert member_attribution("pro", N, None) == (0, 0, 0)
    assert member_attribution("anti", N, N) == (0, 0, 0)


def test_confusion_counts_repeated_cells() -> None:
    # three pairs: (E, E) twice and (N, C) once -> confusion E,E = 2, N,C = 1, others 0;
    # Table 5: error 2 + 2 = 4, pro 1 (N, C); N = 6
    preds = [
        Prediction(stance, label, pair)  # type: ignore[arg-type]
        for pair, s, a in (("a", E, E), ("b", E, E), ("c", N, C))
        for stance, label in (("pro", s), ("anti", a))
    ]
    cf = counterfactual(preds)
    assert cf.confusion == {cell: {(E, E): 2, (N, C): 1}.get(cell, 0) for cell in PAPER_TABLE5}
    assert (cf.n, cf.n_pairs, cf.pro, cf.anti, cf.error) == (6, 3, 1, 0, 4)
