"""Shared statistics against independent implementations (statsmodels, scipy, hand)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

from biasaudit.metrics.agreement import cohen_kappa, fleiss_kappa, landis_koch
from biasaudit.metrics.effect import hedges_g, mean_sd, relative_change, spearman
from biasaudit.metrics.similarity import mean_pairwise_cosine
from biasaudit.metrics.undefined import Undefined, or_none


def test_fleiss_kappa_matches_statsmodels() -> None:
    rng = np.random.default_rng(0)
    # 30 items, 4 raters each, 3 categories
    table = np.array([rng.multinomial(4, [0.5, 0.3, 0.2]) for _ in range(30)])
    assert fleiss_kappa(table.tolist()) == pytest.approx(sm_fleiss(table, method="fleiss"))
    # Fleiss (1971) worked example is in statsmodels' test-suite; one category only -> undefined
    with pytest.raises(Undefined):
        fleiss_kappa([[3, 0], [2, 0]])
    with pytest.raises(Undefined):
        fleiss_kappa([[1, 0]])  # no item with two ratings


def test_cohen_kappa_by_hand() -> None:
    a = ["y", "y", "n", "n", "y", "n"]
    b = ["y", "n", "n", "n", "y", "y"]
    # p_o = 4/6; p_e = (3*3 + 3*3) / 36 = 0.5; kappa = (2/3 - 1/2) / (1/2) = 1/3
    assert cohen_kappa(a, b) == pytest.approx(1 / 3)
    with pytest.raises(Undefined):
        cohen_kappa(["y", "y"], ["y", "y"])
    assert or_none(cohen_kappa)(["y", "y"], ["y", "y"]) is None


def test_landis_koch_boundaries() -> None:
    cases = {-0.1: "poor", 0.0: "poor", 0.2: "slight", 0.21: "fair", 0.4: "fair",
             0.41: "moderate", 0.6: "moderate", 0.61: "substantial", 0.8: "substantial",
             0.81: "almost perfect"}  # fmt: skip
    assert {k: landis_koch(k) for k in cases} == cases
    assert landis_koch(None) is None


def test_hedges_g_by_hand() -> None:
    a, b = [1.0, 2.0, 3.0], [2.0, 3.0, 4.0, 5.0]
    # s_pooled = sqrt((2*1 + 3*(5/3)) / 5) = sqrt(7/5); d = (2 - 3.5) / s; J = 1 - 3/19
    expected = (1 - 3 / 19) * (2 - 3.5) / np.sqrt(7 / 5)
    assert hedges_g(a, b) == pytest.approx(expected)
    with pytest.raises(Undefined):
        hedges_g([1.0], [1.0, 2.0])
    with pytest.raises(Undefined):
        hedges_g([1.0, 1.0], [1.0, 1.0])


def test_spearman_relative_change_mean_sd() -> None:
    x, y = [1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 6.0, 7.0, 8.0, 7.0]
    ref = stats.spearmanr(x, y)
    got = spearman(x, y)
    assert (got.rho, got.p, got.n) == (pytest.approx(ref.statistic), pytest.approx(ref.pvalue), 5)
    assert np.isnan(spearman([1.0, 2.0], [2.0, 1.0]).rho)
    assert relative_change(20.0, 25.0) == 0.25 and relative_change(20.0, 15.0) == 0.25
    with pytest.raises(Undefined):
        relative_change(0.0, 1.0)
    assert mean_sd([1.0, 2.0, 6.0]) == (3.0, pytest.approx(np.std([1, 2, 6], ddof=1)))
    assert mean_sd([4.0]) == (4.0, None)


def test_mean_pairwise_cosine_by_hand() -> None:
    vectors = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    # pairs: 0, 1/sqrt2, 1/sqrt2 -> mean sqrt2/3; with the diagonal: (3 + sqrt2) / 6
    assert mean_pairwise_cosine(vectors) == pytest.approx(np.sqrt(2) / 3)
    assert mean_pairwise_cosine(vectors, include_diagonal=True) == pytest.approx(
        (3 + np.sqrt(2)) / 6
    )
    with pytest.raises(Undefined):
        mean_pairwise_cosine([[1.0, 0.0]])
    with pytest.raises(Undefined):
        mean_pairwise_cosine([[1.0, 0.0], [0.0, 0.0]])


def test_fleiss_kappa_unequal_raters_by_hand() -> None:
    # Items with 2, 2 and 3 ratings over 2 categories:
    # P_1 = 2*1/(2*1) = 1, P_2 = 0, P_3 = 3*2/(3*2) = 1 -> P̄ = 2/3
    # p = (3/7, 4/7) -> P̄_e = 25/49; kappa = (2/3 - 25/49) / (24/49) = 23/72
    counts = [[2, 0], [1, 1], [0, 3]]
    assert fleiss_kappa(counts) == pytest.approx(23 / 72)
    # an item with a single rating carries no agreement information: dropped
    assert fleiss_kappa([*counts, [1, 0], [0, 0]]) == pytest.approx(23 / 72)
    with pytest.raises(Undefined, match="^Fleiss' kappa needs an item with at least two ratings$"):
        fleiss_kappa([[1, 0], [0, 1]])
    with pytest.raises(
        Undefined, match="^Fleiss' kappa is undefined when every rating is in one category$"
    ):
        fleiss_kappa([[0, 4], [0, 2]])


def test_cohen_kappa_rejects_unequal_or_empty() -> None:
    message = "^Cohen's kappa needs two equally long, non-empty label lists$"
    with pytest.raises(ValueError, match=message):
        cohen_kappa(["y"], ["y", "n"])
    with pytest.raises(ValueError, match=message):
        cohen_kappa([], [])
    with pytest.raises(Undefined, match="^Cohen's kappa is undefined when chance agreement is 1$"):
        cohen_kappa(["y"], ["y"])
    # three categories, one of them used by one annotator only:
    # p_o = 2/4; p_e = (2*1 + 1*2 + 1*0 + 0*1) / 16 = 4/16; kappa = (1/2 - 1/4) / (3/4) = 1/3
    assert cohen_kappa(["a", "a", "b", "c"], ["a", "b", "b", "d"]) == pytest.approx(1 / 3)


def _naive_interval_alpha(ratings: list[list[float | None]]) -> float:
    """Krippendorff's alpha, interval metric, from its definition (Krippendorff 2011):
    alpha = 1 - D_o / D_e over pairable values (units with at least two ratings)."""
    units = [[row[u] for row in ratings if row[u] is not None] for u in range(len(ratings[0]))]
    units = [[float(v) for v in unit if v is not None] for unit in units if len(unit) >= 2]
    pooled = [v for unit in units for v in unit]
    n = len(pooled)
    d_o = (
        sum(
            sum((a - b) ** 2 for i, a in enumerate(unit) for j, b in enumerate(unit) if i != j)
            / (len(unit) - 1)
            for unit in units
        )
        / n
    )
    d_e = sum(
        (a - b) ** 2 for i, a in enumerate(pooled) for j, b in enumerate(pooled) if i != j
    ) / (n * (n - 1))
    return 1 - d_o / d_e


def test_krippendorff_alpha_interval_from_the_definition() -> None:
    pytest.importorskip("krippendorff")
    from biasaudit.metrics.agreement import krippendorff_alpha

    ratings: list[list[float | None]] = [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, None],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5],
        [None, 3, 3, 3, 2, 3, 4, 2, 2, 5],
    ]
    assert krippendorff_alpha(ratings) == pytest.approx(_naive_interval_alpha(ratings))
    # the ordinal level is really passed on: it differs from the interval one here
    ordinal = krippendorff_alpha(ratings, level="ordinal")
    assert ordinal != pytest.approx(krippendorff_alpha(ratings), abs=1e-6)


def test_effect_size_edges() -> None:
    with pytest.raises(Undefined, match="^Hedges' g needs at least two values in each sample$"):
        hedges_g([1.0, 2.0], [3.0])
    with pytest.raises(
        Undefined, match="^Hedges' g is undefined when the pooled standard deviation is 0$"
    ):
        hedges_g([2.0, 2.0], [5.0, 5.0])
    # equal sizes 2 and 2: s_pooled = sqrt((0.5 + 2) / 2); J = 1 - 3/7
    a, b = [1.0, 2.0], [3.0, 5.0]
    assert hedges_g(a, b) == pytest.approx((1 - 3 / 7) * (1.5 - 4.0) / np.sqrt(1.25))
    with pytest.raises(ValueError, match="^spearman needs two sequences of equal length$"):
        spearman([1.0, 2.0, 3.0], [1.0, 2.0])
    # three pairs are enough for a value: rho of (1, 2, 3) vs (1, 3, 2) = 1 - 6*2/(3*8) = 0.5
    three = spearman([1.0, 2.0, 3.0], [1.0, 3.0, 2.0])
    assert three.rho == pytest.approx(0.5) and three.n == 3
    assert three.p == pytest.approx(stats.spearmanr([1, 2, 3], [1, 3, 2]).pvalue)
    two = spearman([1.0, 2.0], [2.0, 1.0])
    assert np.isnan(two.p) and two.n == 2
    with pytest.raises(Undefined, match="^relative change from 0 is undefined$"):
        relative_change(0.0, 1.0)
    with pytest.raises(Undefined, match="^mean of no values$"):
        mean_sd([])
    # two values 1, 4: mean 2.5, sd sqrt(((1.5)^2 * 2) / 1)
    assert mean_sd([1.0, 4.0]) == (2.5, pytest.approx(np.sqrt(4.5)))


def test_mean_pairwise_cosine_shapes() -> None:
    with pytest.raises(Undefined, match="^mean pairwise cosine needs at least two vectors$"):
        mean_pairwise_cosine([1.0, 0.0, 1.0])  # one vector given flat: not a matrix
    with pytest.raises(Undefined, match="^cosine similarity of a zero vector is undefined$"):
        mean_pairwise_cosine([[0.0, 0.0], [1.0, 1.0]])
    # two vectors are enough: cos((1, 0), (1, 1)) = 1 / sqrt(2)
    assert mean_pairwise_cosine([[1.0, 0.0], [1.0, 1.0]]) == pytest.approx(1 / np.sqrt(2))
    # four vectors: scale does not matter (cosine); pairs (0,1)=1, (0,2)=0, (0,3)=-1,
    # (1,2)=0, (1,3)=-1, (2,3)=0 -> mean -1/6
    vectors = [[1.0, 0.0], [3.0, 0.0], [0.0, 2.0], [-1.0, 0.0]]
    assert mean_pairwise_cosine(vectors) == pytest.approx(-1 / 6)
    # with the diagonal: (4 * 1 - 1) / 10
    assert mean_pairwise_cosine(vectors, include_diagonal=True) == pytest.approx(3 / 10)


def test_krippendorff_alpha_without_the_package_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from biasaudit.errors import DataError
    from biasaudit.metrics.agreement import krippendorff_alpha

    monkeypatch.setitem(sys.modules, "krippendorff", None)  # the package is not installed
    message = (
        "^Krippendorff's alpha needs the package krippendorff: "
        r"pip install 'biasaudit\[stats\]'$"
    )
    with pytest.raises(DataError, match=message):
        krippendorff_alpha([[1.0, 2.0], [1.0, 2.0]])


def test_effect_size_and_cosine_in_double_precision_for_float32_inputs() -> None:
    a32 = (np.arange(1, 9, dtype=np.float32) / np.float32(7.0)).astype(np.float32)
    b32 = (np.arange(3, 12, dtype=np.float32) / np.float32(3.0)).astype(np.float32)
    a, b = a32.astype(np.float64), b32.astype(np.float64)  # exact upcast
    n1, n2 = len(a), len(b)
    s1 = sum((x - a.sum() / n1) ** 2 for x in a) / (n1 - 1)
    s2 = sum((x - b.sum() / n2) ** 2 for x in b) / (n2 - 1)
    pooled = np.sqrt(((n1 - 1) * s1 + (n2 - 1) * s2) / (n1 + n2 - 2))
    want = (1 - 3 / (4 * (n1 + n2) - 9)) * (a.sum() / n1 - b.sum() / n2) / pooled
    assert hedges_g(a32, b32) == pytest.approx(want, abs=1e-13)  # type: ignore[arg-type]
    vectors32 = np.array([[1, 2, 3], [2, 1, 7], [5, 1, 1]], dtype=np.float32) / np.float32(3)
    v = vectors32.astype(np.float64)
    cos = [
        float(v[i] @ v[j] / np.sqrt((v[i] @ v[i]) * (v[j] @ v[j])))
        for i, j in ((0, 1), (0, 2), (1, 2))
    ]
    assert mean_pairwise_cosine(vectors32) == pytest.approx(sum(cos) / 3, abs=1e-15)
