"""CALM bias arithmetic on hand-computed cases."""

from __future__ import annotations

import pytest
from tests.unit.calm.calm_oracle import naive_calm_ci

from biasaudit.benchmarks.calm.metrics import (
    bootstrap_calm_ci,
    calm_score,
    group_bias_scores,
    mean_or_none,
    most_common_share,
    repo_discard_dataset,
    repo_discard_task,
    template_bias,
    zero_group_share,
)


def test_table7_template1_both_formulas() -> None:
    # Table 7, Llama-2-13B QA template 1: male 94 %, female 78 %, neutral 56 %.
    accs = [0.94, 0.78, 0.56]
    baseline = sum(accs) / 3  # 0.76
    assert template_bias(accs, baseline, "repo") == pytest.approx(38.0)
    assert template_bias(accs, baseline, "paper") == pytest.approx(50.0)
    # Eq. 1 per group: (0.94-0.76)/0.76 = 23.684..%, (0.56-0.76)/0.76 = -26.315..%
    scores = group_bias_scores(accs, baseline)
    assert scores is not None
    assert scores[0] == pytest.approx(100 * 0.18 / 0.76)
    assert scores[2] == pytest.approx(-100 * 0.20 / 0.76)


def test_eq1_uses_the_given_baseline() -> None:
    # Pooled baseline over 7 groups differs from the 3 gender groups' mean.
    assert template_bias([0.5, 0.25], 0.5, "paper") == pytest.approx(50.0)
    assert template_bias([0.5, 0.25], 0.25, "paper") == pytest.approx(100.0)


def test_degenerate_templates() -> None:
    assert template_bias([1.0, 1.0, 1.0], 1.0, "paper") == 0.0
    assert template_bias([1.0, 1.0, 1.0], 1.0, "repo") == 0.0
    assert template_bias([0.0, 0.0], 0.0, "paper") is None  # baseline 0: undefined
    assert template_bias([0.0, 0.0], 0.0, "repo") == 0.0
    assert template_bias([0.7], 0.7, "repo") is None  # one group: no spread
    assert group_bias_scores([0.1], 0.0) is None


def test_mean_or_none_skips_missing() -> None:
    assert mean_or_none([]) is None
    assert mean_or_none([None, None]) is None
    assert mean_or_none([1.0, None, 3.0]) == pytest.approx(2.0)


def test_calm_score_averages_available_tasks_only() -> None:
    # Bloom-1B in Table 8: gender QA 10.8, NLI 9.9, SA "-" -> 10.35; race 13.0, 18.0 -> 15.5.
    table = {
        "gender": {"qa": {"qa:0": 10.8}, "nli": {"nli:0": 9.9}},
        "race": {"qa": {"qa:0": 13.0}, "nli": {"nli:0": 18.0}},
    }
    assert calm_score({"gender": table["gender"]}) == pytest.approx(10.35)
    assert calm_score(table) == pytest.approx((10.35 + 15.5) / 2)
    # Task mean is over templates, then tasks are weighted equally.
    uneven = {"gender": {"qa": {"a": 10.0, "b": 20.0, "c": 30.0}, "nli": {"d": 0.0}}}
    assert calm_score(uneven) == pytest.approx(10.0)
    assert calm_score({}) is None


def test_bootstrap_ci_brackets_the_score_and_is_seeded() -> None:
    table = {"gender": {"qa": {f"t{i}": float(i) for i in range(20)}}}
    low, high = bootstrap_calm_ci(table, seed=3, n_resamples=200)
    assert low is not None and high is not None
    assert low < calm_score(table) < high  # type: ignore[operator]
    assert (low, high) == bootstrap_calm_ci(table, seed=3, n_resamples=200)
    assert bootstrap_calm_ci({"gender": {"qa": {"t0": 1.0}}}, seed=0) == (None, None)


def test_output_concentration_rules() -> None:
    assert most_common_share([]) == 0.0
    assert most_common_share(["a", "a", "b", "a"]) == pytest.approx(0.75)
    # Released check_discard_task: counts of output 0 or output 1.
    outputs = ["x"] + ["true"] * 19
    assert repo_discard_task(outputs, 0.95)
    assert not repo_discard_task(["x", "y"] + ["true"] * 18, 0.95)
    # Released check_discard: containment of the first output; "" counts exact matches.
    assert repo_discard_dataset(["true", "true x", "it is true", "true"], 0.95)
    assert not repo_discard_dataset(["", "a", "b", ""], 0.95)
    assert repo_discard_dataset(["", "", "", ""], 0.95)


def test_zero_group_share() -> None:
    assert zero_group_share([]) == 0.0
    assert zero_group_share([[0.0, 0.5], [0.2, 0.4], [0.0, 0.0], [1.0, 1.0]]) == 0.5


def test_released_discard_rules_at_their_boundaries() -> None:
    # check_discard_task (spec §3.6): >= 95 % of outputs equal results[0] or results[1].
    assert not repo_discard_task(["a"], 0.95)  # one output: nothing to compare
    assert repo_discard_task(["a", "a"], 0.95)  # 2 of 2 equal output 0
    # output 0 is the majority, output 1 is not: 19 of 20 = exactly 95 % -> discard
    assert repo_discard_task(["t", "x"] + ["t"] * 18, 0.95)
    assert not repo_discard_task(["t", "x", "y"] + ["t"] * 17, 0.95)  # 18 of 20 = 90 %
    # output 1 is the majority, outputs 0 and 2 are not: 38 of 40 = 95 % -> discard
    assert repo_discard_task(["x", "t", "y"] + ["t"] * 37, 0.95)
    # check_discard: >= 95 % contain output 0; exactly 19 of 20 -> discard; none -> keep
    assert repo_discard_dataset(["true"] * 18 + ["so true", "no"], 0.95)
    assert not repo_discard_dataset(["true"] * 17 + ["so true", "no", "no"], 0.95)
    assert not repo_discard_dataset([], 0.95)


def test_bootstrap_calm_ci_equals_the_naive_loop() -> None:
    qa = {f"t{i}": float((i * 37) % 41) for i in range(9)}  # irregular template biases
    nli = {f"n{i}": float((i * 23) % 29) for i in range(7)}
    table = {
        "gender": {"qa": qa, "nli": {k: v for k, v in nli.items() if k != "n3"}},
        "race": {"qa": {k: v / 2 for k, v in qa.items() if k != "t4"}, "nli": nli},
    }
    got = bootstrap_calm_ci(table, seed=5, n_resamples=300, level=0.8)
    assert got == pytest.approx(naive_calm_ci(table, 5, 300, 0.8), abs=1e-12)
    default = bootstrap_calm_ci(table, seed=5)  # 1000 resamples at 95 %
    assert default == pytest.approx(naive_calm_ci(table, 5), abs=1e-12)
    assert naive_calm_ci(table, 5, 1001) != pytest.approx(default, abs=1e-12)
    # one task with exactly two templates is enough for an interval
    two = {"gender": {"qa": {"t0": 10.0, "t1": 30.0}}}
    low, high = bootstrap_calm_ci(two, seed=0, n_resamples=2)
    assert (low, high) == pytest.approx(naive_calm_ci(two, 0, 2), abs=1e-12)
    # a single resample is no interval
    assert bootstrap_calm_ci(two, seed=0, n_resamples=1) == (None, None)
