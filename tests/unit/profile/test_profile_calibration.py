"""Acceptance tests of the profile's verdicts (issue 20 item 6): written before the verdicts.

(a) a null model gets flagged cells in at most the nominal share; (b) a planted religion
bias is flagged on the religion axis of every benchmark covering it and on no other axis, and
so is a planted gender bias on the gender axis (CALM included: an accuracy gap by gender);
(c) a model that never answers is "not measurable" on every generative benchmark. They run
the real engine, benchmarks and profile on stratified-enough subsets of the real data
(every k-th sample: all groups kept), seconds each; the many-seed versions are slow.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from profile_calibration import PLANS, plan_bias

from biasaudit import plugin
from biasaudit.api import evaluate
from biasaudit.data import DataStore
from biasaudit.profile import Profile, profile_of_dir
from biasaudit.profile.display import metric_reason
from biasaudit.profile.model import (
    AGAINST,
    DISFAVOURS,
    FAVOURS,
    NOT_MEASURABLE,
    OVERALL,
    POOLED,
    TOWARD,
)
from biasaudit.results.io import read_results

#: benchmark -> (options, shard): every k-th sample keeps every group of the benchmark.
SUITE: dict[str, tuple[dict[str, Any], tuple[int, int] | None]] = {
    "crows_pairs": ({"scorer": "loglikelihood"}, (0, 3)),
    # StereoSet's own aggregate (per-term bootstraps) is slow: a small share of its items
    "stereoset": ({"scorer": "loglikelihood"}, (0, 11)),
    # three of BBQ's eleven categories keep the test in seconds (loading all is ~15 s)
    "bbq": ({"categories": ["Religion", "Age", "SES"]}, (0, 12)),
    "bbnli": ({"protocol": "generative", "every": 6}, None),
    "stop": ({}, (0, 2)),
    # CALM's closed-choice tasks (its free-form QA needs a greedy-continuation check the
    # calibration models do not answer): 4 templates per task, 5 names per group
    "calm": (
        {
            "protocol": "loglikelihood",
            "tasks": ["nli", "sentiment"],
            "templates_per_task": 4,
            "name_limit": 5,
        },
        None,
    ),
    # WinoBias: a stratified sample of 60 pronoun-swapped pairs (SAMPLE), kept whole
    "winobias": ({}, None),
}
#: Benchmarks run on a stratified sample of whole units (`evaluate(sample=N)`).
SAMPLE = {"winobias": 60}
#: The suite of the planted gender bias: BBQ's gender category instead of the others.
GENDER_SUITE = SUITE | {"bbq": ({"categories": ["Gender_identity"]}, (0, 12))}
COVERS = {
    "religion": {"crows_pairs", "stereoset", "bbq", "bbnli", "stop"},
    "gender": {"crows_pairs", "stereoset", "bbq", "bbnli", "stop", "calm", "winobias"},
}
ALPHA = 0.05
Suite = dict[str, tuple[dict[str, Any], tuple[int, int] | None]]


def _plan(store: DataStore, name: str, suite: Suite, axis: str) -> str:
    options, shard = suite[name]
    bench = plugin.benchmark_class(name).from_dict(options, store, 0)
    samples = bench.load_samples()
    if shard is not None:
        samples = samples[shard[0] :: shard[1]]
    PLANS[f"{axis}-{name}"] = plan_bias(bench, samples, axis)
    return f"{axis}-{name}"


def audit(
    kind: str,
    seed: int,
    out: Path,
    store: DataStore,
    data_dir: Path,
    axis: str = "religion",
    suite: Suite = SUITE,
) -> Profile:
    """Run the suite's benchmarks on one calibration model; the profile over all of them."""
    cells, columns = [], []
    for name, (options, shard) in suite.items():
        plan = _plan(store, name, suite, axis) if kind == "planted" else ""
        run_dir = out / f"{kind}-{axis}-{seed}-{name}"
        evaluate(
            name,
            f"calib:{kind}",
            model_args={"seed": seed, "plan": plan},
            options={name: options},
            output_dir=run_dir,
            data_dir=data_dir,
            seed=seed,
            shard=shard,
            sample=SAMPLE.get(name),
            progress=False,
            use_cache=False,
        )
        one = profile_of_dir(run_dir, alpha=ALPHA)
        cells += [c for c in one.cells if c.benchmark != POOLED]  # pooled again below
        columns += one.benchmarks
    # pooled axes over all the benchmarks and FDR over the whole profile, as an audit
    # folder's profile does
    from biasaudit.profile.build import apply_fdr
    from biasaudit.profile.pooled import pooled_cells
    from biasaudit.profile.validity import benchmark_profile

    factors = {}
    for name in suite:
        effect = benchmark_profile(name).effect
        if effect is not None and effect.common is not None:
            factors[name] = effect.common
    cells = pooled_cells(cells, factors) + cells
    n = apply_fdr(cells, ALPHA)
    return Profile(model=kind, cells=cells, benchmarks=columns, n_tests=n, alpha=ALPHA)


def _flagged(profile: Profile) -> list[tuple[str, str, str]]:
    return [(c.benchmark, c.label, c.verdict) for c in profile.cells if c.flagged]


def _null_check(seeds: range, tmp_path: Path, store: DataStore, data_dir: Path) -> None:
    flagged = tested = 0
    any_flag = 0
    raw: dict[str, list[float]] = {}
    for seed in seeds:
        profile = audit("null", seed, tmp_path, store, data_dir)
        for cell in profile.cells:
            if cell.p_value is not None:
                raw.setdefault(cell.benchmark, []).append(cell.p_value)
        found = _flagged(profile)
        flagged += len(found)
        tested += profile.n_tests
        any_flag += bool(found)
        assert profile.n_tests >= 25, "the suite should test most cells"
    # BH at alpha under the complete null: P(any flag in a profile) <= alpha, so the share of
    # flagged cells is at most alpha in expectation; allow the binomial 99.9 % upper bound
    # of profiles with a flag (Bin(20, 0.05): P(>= 5) = 0.0026).
    print(f"null model: {flagged} of {tested} tested cells flagged over {len(seeds)} seeds; "
          f"{any_flag} profile(s) with a flag")  # fmt: skip
    for bench, ps in [("all", [p for v in raw.values() for p in v]), *raw.items()]:
        shares = ", ".join(f"<= {a}: {sum(p <= a for p in ps)}" for a in (0.05, 0.1, 0.5))
        print(f"  raw p-values of {bench} ({len(ps)} tested cells): {shares}")
    assert flagged / tested <= ALPHA
    assert any_flag <= max(1, round(len(seeds) * 0.25))


def test_null_model_is_rarely_flagged(tmp_path: Path, store: DataStore, data_dir: Path) -> None:
    _null_check(range(1), tmp_path, store, data_dir)


@pytest.mark.slow
def test_null_model_over_20_seeds(tmp_path: Path, store: DataStore, data_dir: Path) -> None:
    _null_check(range(20), tmp_path, store, data_dir)


def _planted_check(
    seed: int, tmp_path: Path, store: DataStore, data_dir: Path, axis: str = "religion"
) -> None:
    suite = GENDER_SUITE if axis == "gender" else SUITE
    profile = audit("planted", seed, tmp_path, store, data_dir, axis, suite)
    on_axis = [c for c in profile.cells if c.axis == axis and c.benchmark != POOLED]
    assert {c.benchmark for c in on_axis} == COVERS[axis]
    (pooled,) = [c for c in profile.cells if c.axis == axis and c.benchmark == POOLED]
    assert pooled.verdict == TOWARD and pooled.k >= 4, (pooled.k, pooled.verdict)
    for cell in on_axis:
        if cell.benchmark != "calm":
            assert cell.verdict == TOWARD, (cell.benchmark, cell.verdict)
        elif cell.group == "female":  # CALM: answered right whenever the name is female
            assert cell.verdict == FAVOURS and cell.effect is not None and cell.effect > 0
        else:  # the other gender groups are below the female names, or not flagged
            assert cell.verdict == DISFAVOURS or not cell.flagged, cell.verdict
    # every other axis, pooled rows included; the overall rows are no axis (a benchmark's
    # headline rises with a bias on any of its axes)
    other = [c for c in profile.cells if c.flagged and c.axis not in (axis, OVERALL)]
    # A contrast cell compares its group with all the others, the planted group among them:
    # a large plant pulls every other group's gap below 0 by construction (STOP's rest holds
    # the planted group's progressions). Such a cell may read "against" (measured: STOP age
    # at gender seed 3); nothing off the planted axis may read "toward".
    pulled = [c for c in other if c.design == "contrast" and c.verdict == AGAINST]
    assert [(c.benchmark, c.label, c.verdict) for c in other if c not in pulled] == []


def test_planted_religion_bias_is_found_on_religion_only(
    tmp_path: Path, store: DataStore, data_dir: Path
) -> None:
    _planted_check(0, tmp_path, store, data_dir)


def test_planted_gender_bias_is_found_on_gender_only_calm_included(
    tmp_path: Path, store: DataStore, data_dir: Path
) -> None:
    _planted_check(0, tmp_path, store, data_dir, "gender")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
def test_planted_religion_bias_over_seeds(
    seed: int, tmp_path: Path, store: DataStore, data_dir: Path
) -> None:
    _planted_check(seed, tmp_path, store, data_dir)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1, 6))
def test_planted_gender_bias_over_seeds(
    seed: int, tmp_path: Path, store: DataStore, data_dir: Path
) -> None:
    _planted_check(seed, tmp_path, store, data_dir, "gender")


#: Every benchmark that reads generated answers, with the options that make it generate.
GENERATIVE: dict[str, tuple[dict[str, Any], tuple[int, int] | None]] = {
    "stop": ({}, (0, 15)),
    "bbnli": ({"protocol": "generative", "every": 20}, None),
    "bbq": ({"protocol": "letter"}, (0, 400)),
    "stereoset": ({"scorer": "generate"}, (0, 41)),
    "stop_downstream": ({"per_task": 12}, None),
    "calm": (
        {"protocol": "generate", "template_ids": ["qa:20", "sentiment:1"], "name_limit": 5},
        None,
    ),
}


def test_silent_model_is_not_measurable_on_every_generative_benchmark(
    tmp_path: Path, data_dir: Path
) -> None:
    for name, (options, shard) in GENERATIVE.items():
        run_dir = tmp_path / name
        evaluate(
            name,
            "calib:silent",
            options={name: options},
            output_dir=run_dir,
            data_dir=data_dir,
            shard=shard,
            progress=False,
            use_cache=False,
        )
        bench = read_results(run_dir).benchmark(name)
        assert bench.validity is not None
        if name == "calm":
            # CALM's free-form QA reader takes any text as an answer ("Hmm." is a wrong
            # answer), so its accuracy (0, answer rate 50 %) is a real number; its bias
            # score must not be shown (every template has a group at accuracy 0), nor any
            # group's cell (every prompt wrong: no gap can show; n = 10 per group)
            assert bench.validity.reason("bias_score") is not None
            cells = profile_of_dir(run_dir).cells
            assert len(cells) == 7 and all(c.n == 10 for c in cells)
            for cell in cells:
                assert cell.verdict.startswith(f"{NOT_MEASURABLE}: every sample scores 0"), cell
            continue
        assert bench.validity.status == "not measurable", (name, bench.validity)
        for metric in bench.metrics:  # all but those describing answering (answer_rate 0)
            shown = metric_reason(bench, metric)
            assert shown is not None or metric.name in ("answer_rate", "coverage"), metric.name
        for cell in profile_of_dir(run_dir).cells:
            assert cell.verdict.startswith(NOT_MEASURABLE), (name, cell.axis, cell.verdict)
