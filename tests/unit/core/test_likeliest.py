"""The log-likelihood choice primitive (biasaudit.likeliest): scores by hand, ties by rule,
`first` against numpy's argmax (lm-evaluation-harness's rule)."""

from __future__ import annotations

import numpy as np
import pytest

from biasaudit.likeliest import likeliest, option_score


@pytest.mark.parametrize(
    ("normalisation", "expected"),
    [("sum", -6.0), ("per_token", -2.0), ("per_char", -1.5)],  # -6 / 3 tokens, -6 / 4 chars
)
def test_option_score_by_hand(normalisation: str, expected: float) -> None:
    assert option_score(-6.0, 3, " cat", normalisation) == expected  # type: ignore[arg-type]


def test_a_missing_number_is_no_score() -> None:
    assert option_score(None, 3, "x", "sum") is None
    assert option_score(-1.0, None, "x", "per_token") is None
    assert option_score(-1.0, 0, "x", "per_token") is None
    assert option_score(-1.0, 2, "", "per_char") is None
    assert option_score(-1.0, None, "", "sum") == -1.0  # sum needs no divisor


def test_the_highest_score_wins() -> None:
    assert likeliest([-3.0, -1.0, -2.0]) == 1
    assert likeliest([-0.5]) == 0


def test_a_tie_for_the_best_abstains_but_a_tie_below_it_does_not() -> None:
    assert likeliest([-1.0, -1.0, -2.0]) is None
    assert likeliest([-2.0, -1.0, -2.0]) == 1


@pytest.mark.parametrize("scores", [[-1.0, -1.0, -2.0], [-2.0, -1.0, -1.0], [-4.0, -4.0, -4.0]])
def test_first_is_numpys_argmax(scores: list[float]) -> None:
    assert likeliest(scores, "first") == int(np.argmax(scores))


def test_no_options_is_an_error() -> None:
    with pytest.raises(ValueError, match="^no options to choose from$"):
        likeliest([])
