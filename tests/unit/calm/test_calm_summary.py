"""CALM's headline metric, breakdowns, tables and noise floor (summary.py) on hand-made data.

Expected values are hand computation (written next to each assertion) or the naive loops of
calm_oracle.py (the documented template bootstrap and within-template permutation).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from tests.unit.calm.calm_oracle import naive_calm_ci, naive_eq1_score, naive_permutation_null

from biasaudit.benchmarks.calm.scoring import (
    CalmScores,
    Exclusion,
    ScoredPrompt,
    ScoringOptions,
    TemplateResult,
)
from biasaudit.benchmarks.calm.summary import (
    accuracy_spec,
    bias_metrics,
    calm_noise_floor,
    scored_prompts,
    summarize,
    tables,
)
from biasaudit.results.schema import CIInfo, SampleRecord

NO_RULES = ScoringOptions(
    skip_zero_templates=False, zero_dataset_threshold=None, degenerate_threshold=None
)


def _template(
    task: str, attribute: str, tid: str, source: str, paper: float, repo: float, status: str = "ok"
) -> TemplateResult:
    return TemplateResult(task, attribute, tid, source, {}, 0.5, paper, repo, status)


#: gender: qa 10, 30 (babi), 20 (qamr); nli 40 (nli:1 skipped). race: qa 5 (qa:1 dropped
#: with its dataset); sentiment only a skipped template.
TEMPLATES = [
    _template("qa", "gender", "qa:0", "babi", 10.0, 1.0),
    _template("qa", "gender", "qa:1", "babi", 30.0, 3.0),
    _template("qa", "gender", "qa:2", "qamr", 20.0, 2.0),
    _template("nli", "gender", "nli:0", "SNLI", 40.0, 4.0),
    _template("nli", "gender", "nli:1", "SNLI", 99.0, 9.0, "a group has accuracy 0"),
    _template("qa", "race", "qa:0", "babi", 5.0, 0.5),
    _template("qa", "race", "qa:1", "babi", 77.0, 7.0, "dataset excluded"),
    _template("sentiment", "race", "sentiment:0", "SST", 50.0, 5.0, "baseline accuracy is 0"),
]
PAPER_TABLE = {
    "gender": {"qa": {"qa:0": 10.0, "qa:1": 30.0, "qa:2": 20.0}, "nli": {"nli:0": 40.0}},
    "race": {"qa": {"qa:0": 5.0}},
}


def _groups(metric, by):  # type: ignore[no-untyped-def]
    return [(g.group, g.value, g.n, g.ci_low, g.ci_high) for g in metric.breakdown(by).groups]


def test_bias_score_breakdowns_by_hand() -> None:
    (metric,) = bias_metrics(CalmScores(list(TEMPLATES), formula="paper"), seed=4, n_resamples=60)
    # gender: qa (10 + 30 + 20) / 3 = 20, nli 40 -> 30; race: qa 5 -> 5; CALM (30 + 5) / 2.
    assert metric.value == pytest.approx(17.5)
    assert metric.undefined_reason is None
    assert metric.n == 5  # retained templates
    assert (metric.ci_low, metric.ci_high) == pytest.approx(naive_calm_ci(PAPER_TABLE, 4, 60))
    assert metric.ci == CIInfo(n_resamples=60, cluster_by="template", stratify_by="task")
    assert metric.name == "bias_score" and metric.statistic == "CALM score"
    assert metric.higher_is_better is False
    assert metric.reference == "Gupta et al. 2023, Eq. 1"
    # 8 templates, 5 retained; nli:1 is the one skipped for a zero-accuracy group
    assert metric.n_excluded == 3
    assert metric.description == (
        "CALM bias score: mean of the attribute scores; "
        "Eq. 1: 100 (max - min group accuracy) / template baseline; 3 of 8 templates not "
        "counted (1 with a group at accuracy 0, skipped by skip_zero_templates; "
        "see template_bias)"
    )
    assert [b.by for b in metric.breakdowns] == [
        "attribute",
        "task+attribute",
        "task+attribute+source_dataset",
    ]
    gender = {"gender": PAPER_TABLE["gender"]}
    g_low, g_high = naive_calm_ci(gender, 4, 60)
    assert _groups(metric, "attribute") == [
        ("gender", pytest.approx(30.0), 4, pytest.approx(g_low), pytest.approx(g_high)),
        ("race", pytest.approx(5.0), 1, None, None),  # one template: no interval
    ]
    qa_low, qa_high = naive_calm_ci({"gender": {"qa": PAPER_TABLE["gender"]["qa"]}}, 4, 60)
    assert _groups(metric, "task+attribute") == [
        ("qa/gender", pytest.approx(20.0), 3, pytest.approx(qa_low), pytest.approx(qa_high)),
        ("nli/gender", pytest.approx(40.0), 1, None, None),
        ("qa/race", pytest.approx(5.0), 1, None, None),
        ("sentiment/race", None, 0, None, None),  # run, but every template excluded
    ]
    assert _groups(metric, "task+attribute+source_dataset") == [
        ("qa/gender/babi", pytest.approx(20.0), 2, None, None),  # (10 + 30) / 2
        ("qa/gender/qamr", pytest.approx(20.0), 1, None, None),
        ("nli/gender/SNLI", pytest.approx(40.0), 1, None, None),
        ("qa/race/babi", pytest.approx(5.0), 1, None, None),
    ]


def test_bias_score_repo_formula_and_the_group_intervals_use_each_groups_templates() -> None:
    (metric,) = bias_metrics(CalmScores(list(TEMPLATES), formula="repo"), seed=1, n_resamples=40)
    # gender: qa (1 + 3 + 2) / 3 = 2, nli 4 -> 3; race 0.5; CALM 1.75.
    assert metric.value == pytest.approx(1.75)
    assert metric.reference == "CALM code"
    assert metric.description == (
        "CALM bias score: mean of the attribute scores; "
        "100 (max - min group accuracy), the released code; 3 of 8 templates not counted "
        "(1 with a group at accuracy 0, skipped by skip_zero_templates; see template_bias)"
    )
    repo = {
        "gender": {"qa": {"qa:0": 1.0, "qa:1": 3.0, "qa:2": 2.0}, "nli": {"nli:0": 4.0}},
        "race": {"qa": {"qa:0": 0.5}},
    }
    assert (metric.ci_low, metric.ci_high) == pytest.approx(naive_calm_ci(repo, 1, 40))
    gender = metric.breakdown("attribute").groups[0]
    assert (gender.ci_low, gender.ci_high) == pytest.approx(
        naive_calm_ci({"gender": repo["gender"]}, 1, 40)
    )


def test_all_excluded_is_undefined_not_zero() -> None:
    skipped = [_template("qa", "gender", "qa:0", "babi", 10.0, 1.0, "task excluded")]
    (metric,) = bias_metrics(CalmScores(skipped), seed=0, n_resamples=10)
    assert metric.value is None and metric.n == 0
    assert metric.undefined_reason == "no template was scored (all excluded)"
    assert (metric.ci_low, metric.ci_high) == (None, None)
    assert _groups(metric, "attribute") == [("gender", None, 0, None, None)]
    assert _groups(metric, "task+attribute") == [("qa/gender", None, 0, None, None)]
    assert _groups(metric, "task+attribute+source_dataset") == []


def test_a_task_lost_to_skip_zero_templates_refuses_the_score() -> None:
    # the user trial: every NLI template had a group at accuracy 0, so the QA templates alone
    # gave a "CALM score"; by hand the remaining table would give 10, but a task is missing
    lost = [
        _template("qa", "gender", "qa:0", "babi", 10.0, 1.0),
        _template("nli", "gender", "nli:0", "SNLI", 40.0, 4.0, "a group has accuracy 0"),
        _template("nli", "gender", "nli:1", "SNLI", 60.0, 6.0, "a group has accuracy 0"),
    ]
    (metric,) = bias_metrics(CalmScores(lost), seed=0, n_resamples=10)
    assert metric.value is None and (metric.ci_low, metric.ci_high) == (None, None)
    assert metric.undefined_reason is not None
    assert metric.undefined_reason.startswith("every template of nli/gender has a group")
    assert (metric.n, metric.n_excluded) == (1, 2)
    assert "2 of 3 templates not counted (2 with a group at accuracy 0" in metric.description
    # one NLI template left: the task is covered, the score is reported (qa 10, nli 40 -> 25)
    kept = [lost[0], _template("nli", "gender", "nli:0", "SNLI", 40.0, 4.0), lost[2]]
    (metric,) = bias_metrics(CalmScores(kept), seed=0, n_resamples=10)
    assert metric.value == pytest.approx(25.0) and metric.undefined_reason is None


def test_accuracy_spec() -> None:
    spec = accuracy_spec(77)
    assert (spec.name, spec.score, spec.cluster_by, spec.n_resamples) == (
        "accuracy",
        "correct",
        "template",
        77,
    )
    assert spec.group_by == ["task", "attribute", "group", "task+group"]
    assert spec.higher_is_better is True
    assert spec.description == "share of prompts answered correctly"


def _record(i: int, excluded: bool = False, **data: object) -> SampleRecord:
    scores = data.pop("scores", {"correct": True, "output": f"out{i}"})
    base = {
        "task": "qa",
        "attribute": "gender",
        "template_id": "qa:0",
        "source_dataset": "babi",
        "group": "male",
        "name": f"N{i}",
        "kind": "qa",
        "gold": "Kitchen",
    }
    return SampleRecord(
        benchmark="calm",
        sample_id=f"s{i}",
        sample_hash="h",
        data=base | data,
        scores=scores,  # type: ignore[arg-type]
        excluded=excluded,
    )


def test_scored_prompts_reads_records_and_drops_failed_ones() -> None:
    records = [
        _record(0),
        _record(1, excluded=True),
        _record(2, kind="mcqa", gold=["B", "go home"], task="qa", template_id="qa:70"),
        _record(3, kind="nli3", gold="not-entailment", task="nli", scores={"output": "x"}),
        _record(4, kind="toxic", gold="1", task="sentiment", scores={"correct": 0}),
        _record(5, kind="sentiment", gold="0", group="female", source_dataset="SST"),
    ]
    got = scored_prompts(records)
    assert [p.name for p in got] == ["N0", "N2", "N3", "N4", "N5"]
    # golds: the label word of the gold, lowercased (prompts.gold_choice's vocabulary)
    assert [p.gold for p in got] == ["kitchen", "b", "false", "true", "negative"]
    assert [p.correct for p in got] == [True, True, False, False, True]
    assert [p.output for p in got] == ["out0", "out2", "x", None, "out5"]
    first = got[0]
    assert (first.task, first.attribute, first.template_id, first.source_dataset) == (
        "qa",
        "gender",
        "qa:0",
        "babi",
    )
    assert (got[1].template_id, got[2].task, got[4].group, got[4].source_dataset) == (
        "qa:70",
        "nli",
        "female",
        "SST",
    )


def _prompt(template: str, group: str, name: str, correct: bool) -> ScoredPrompt:
    return ScoredPrompt("qa", "gender", template, "babi", group, name, correct, "o")


def test_tables_by_hand() -> None:
    # names: m1 right 2/2, m2 1/2 on qa:0 and qa:1; f1 0/1, f2 1/1; race w1 1/1.
    prompts = [
        _prompt("qa:0", "male", "m1", True),
        _prompt("qa:0", "male", "m2", False),
        _prompt("qa:0", "female", "f1", False),
        _prompt("qa:1", "male", "m1", True),
        _prompt("qa:1", "male", "m2", True),
        _prompt("qa:1", "female", "f2", True),
        ScoredPrompt("nli", "race", "nli:0", "SNLI", "white", "w1", True, "o"),
    ]
    t0 = TemplateResult(
        "qa", "gender", "qa:0", "babi", {"male": (0.5, 2), "female": (0.0, 1)},
        1 / 3, 150.0, 50.0, "a group has accuracy 0",
    )  # fmt: skip
    t1 = TemplateResult(
        "qa", "gender", "qa:1", "babi", {"male": (1.0, 2), "female": (1.0, 1)}, 1.0, 0.0, 0.0
    )
    exclusion = Exclusion("nli", "dataset", "SNLI", "one answer to most race prompts")
    out = tables(prompts, CalmScores([t0, t1], [exclusion]))
    assert list(out) == ["by_template", "by_name", "name_spread", "template_bias", "exclusions"]
    assert out["by_template"].rows == [
        ["qa", "gender", "qa:0", "male", 0.5, 2],
        ["qa", "gender", "qa:0", "female", 0.0, 1],
        ["qa", "gender", "qa:1", "male", 1.0, 2],
        ["qa", "gender", "qa:1", "female", 1.0, 1],
    ]
    assert out["by_template"].columns == [
        "task", "attribute", "template_id", "group", "accuracy", "n",
    ]  # fmt: skip
    assert out["by_name"].rows == [
        ["qa", "gender", "male", "m1", 1.0, 2],
        ["qa", "gender", "male", "m2", 0.5, 2],
        ["qa", "gender", "female", "f1", 0.0, 1],
        ["qa", "gender", "female", "f2", 1.0, 1],
        ["nli", "race", "white", "w1", 1.0, 1],
    ]
    assert out["by_name"].columns == ["task", "attribute", "group", "name", "accuracy", "n"]
    # male names 1.0 and 0.5: population sd 0.25; female 0.0 and 1.0: sd 0.5
    assert out["name_spread"].rows == [
        ["qa", "gender", "male", 2, 0.5, 1.0, pytest.approx(0.25)],
        ["qa", "gender", "female", 2, 0.0, 1.0, pytest.approx(0.5)],
        ["nli", "race", "white", 1, 1.0, 1.0, 0.0],
    ]
    assert all(type(v) is float for row in out["name_spread"].rows for v in row[4:])
    assert out["name_spread"].columns == [
        "task", "attribute", "group", "n_names", "min", "max", "sd",
    ]  # fmt: skip
    assert out["template_bias"].rows == [
        ["qa", "gender", "qa:0", "babi", 1 / 3, 150.0, 50.0, "a group has accuracy 0"],
        ["qa", "gender", "qa:1", "babi", 1.0, 0.0, 0.0, "ok"],
    ]
    assert out["template_bias"].columns == [
        "task", "attribute", "template_id", "source_dataset", "baseline", "bias_paper",
        "bias_repo", "status",
    ]  # fmt: skip
    assert out["exclusions"].rows == [["nli", "dataset", "SNLI", "one answer to most race prompts"]]
    assert out["exclusions"].columns == ["task", "unit", "id", "reason"]
    assert {k: t.description for k, t in out.items()} == {
        "by_template": "accuracy of each group on each template",
        "by_name": "accuracy of each name (pooled over the templates it fills)",
        "name_spread": "spread of per-name accuracy within each group (population sd)",
        "template_bias": "per-template bias under both formulas; status says why a template "
        "does not count",
        "exclusions": "tasks and source datasets left out of the bias scores",
    }


def test_name_spread_sd_is_the_population_sd() -> None:
    prompts = [
        _prompt("qa:0", "male", "a", True),
        _prompt("qa:0", "male", "b", False),
        _prompt("qa:0", "male", "c", True),
        _prompt("qa:1", "male", "c", False),
        _prompt("qa:0", "female", "d", True),
    ]
    rows = tables(prompts, CalmScores([]))["name_spread"].rows
    # a 1.0, b 0.0, c 0.5: mean 0.5, population variance (0.25 + 0.25 + 0) / 3
    assert rows[0] == ["qa", "gender", "male", 3, 0.0, 1.0, pytest.approx(math.sqrt(1 / 6))]


#: One task and attribute, three templates; a model right for most male prompts.
_DESIGN = [
    ("qa:0", ["male", "male", "male", "female", "female", "female"], [1, 1, 1, 0, 1, 0]),
    ("qa:1", ["male", "male", "female", "female", "female"], [1, 1, 1, 0, 0]),
    ("qa:2", ["male", "female", "female", "male"], [1, 0, 1, 1]),
]


def _design() -> list[ScoredPrompt]:
    return [
        _prompt(t, g, f"{t}-{i}", bool(c))
        for t, groups, correct in _DESIGN
        for i, (g, c) in enumerate(zip(groups, correct, strict=True))
    ]


def test_noise_floor_is_the_within_template_permutation_null() -> None:
    prompts = _design()
    templates = [p.template_id for p in prompts]
    groups = [p.group for p in prompts]
    correct = [p.correct for p in prompts]
    floor = calm_noise_floor(prompts, NO_RULES, seed=11, n_permutations=37)
    assert floor is not None
    null = naive_permutation_null(templates, groups, correct, 11, 37)
    observed = naive_eq1_score(templates, groups, correct)
    assert observed is not None
    # qa:0: male 1, female 1/3, baseline 2/3 -> 100; qa:1: 1 vs 1/3, baseline 3/5 -> 111.1;
    # qa:2: 1 vs 1/2, baseline 3/4 -> 66.7
    assert observed == pytest.approx((100 + 100 * (2 / 3) / 0.6 + 100 * 0.5 / 0.75) / 3)
    assert floor.observed == pytest.approx(observed)
    assert floor.n_permutations == 37 and len(null) == 37
    assert floor.permuted_within == "template"
    assert floor.null_mean == pytest.approx(np.mean(null))
    assert floor.null_p95 == pytest.approx(np.quantile(null, 0.95))
    exceed = sum(v >= observed - 1e-12 for v in null)
    assert floor.p_value == pytest.approx((1 + exceed) / 38)
    # the design tells the strata apart: shuffling across templates gives another null
    across = naive_permutation_null(["all"] * len(prompts), groups, correct, 11, 37)
    assert np.mean(across) != pytest.approx(np.mean(null))


def test_no_floor_without_permutations_or_prompts() -> None:
    assert calm_noise_floor(_design(), NO_RULES, seed=0, n_permutations=0) is None
    assert calm_noise_floor([], NO_RULES, seed=0, n_permutations=10) is None
    one = calm_noise_floor(_design(), NO_RULES, seed=0, n_permutations=1)
    assert one is not None and one.n_permutations == 1


def test_summarize_metric_floor_and_tables() -> None:
    records = []
    for t, groups, correct in _DESIGN:
        for i, (g, c) in enumerate(zip(groups, correct, strict=True)):
            records.append(
                _record(
                    len(records), template_id=t, group=g, name=f"{t}-{i}",
                    scores={"correct": bool(c), "output": "o"},
                )
            )  # fmt: skip
    records.append(_record(99, excluded=True, group="female", scores={"correct": False}))
    metrics, out = summarize(records, NO_RULES, seed=11, n_resamples=30, n_permutations=37)
    (metric,) = metrics
    prompts = _design()
    templates = [p.template_id for p in prompts]
    groups = [p.group for p in prompts]
    correct = [p.correct for p in prompts]
    observed = naive_eq1_score(templates, groups, correct)
    assert metric.value == pytest.approx(observed)
    floor = metric.noise_floor
    assert floor is not None and floor.observed == pytest.approx(observed)
    null = naive_permutation_null(templates, groups, correct, 11, 37)
    assert floor.null_mean == pytest.approx(np.mean(null))
    assert floor.n_permutations == 37
    table = {"gender": {"qa": {t: naive_eq1_score([t] * len(g), g, c) for t, g, c in _DESIGN}}}
    assert (metric.ci_low, metric.ci_high) == pytest.approx(naive_calm_ci(table, 11, 30))
    assert metric.ci is not None and metric.ci.n_resamples == 30
    assert list(out) == ["by_template", "by_name", "name_spread", "template_bias", "exclusions"]
    assert len(out["by_name"].rows) == len(prompts)  # the excluded record is not a name row
    plain, _ = summarize(records, NO_RULES, seed=11, n_resamples=30)
    assert plain[0].noise_floor is None  # no permutations unless asked
    assert plain[0].value == pytest.approx(observed)


def test_group_intervals_follow_the_seed_on_many_templates() -> None:
    # Eight distinct gender/qa scores and eight gender/nli: resampled means rarely reach
    # the extremes, so an interval drawn without the run's seed would not match the naive
    # loop's (the 3-template table above can hit min and max whatever the seed).
    values = [3.0, 11.0, 17.0, 24.0, 29.0, 36.0, 41.0, 52.0]
    rows = [
        _template(task, "gender", f"{task}:{i}", "src", v + (5.0 if task == "nli" else 0.0), v)
        for task in ("qa", "nli")
        for i, v in enumerate(values)
    ]
    (metric,) = bias_metrics(CalmScores(rows, formula="paper"), seed=9, n_resamples=200)
    table = {
        "gender": {
            task: {f"{task}:{i}": v + (5.0 if task == "nli" else 0.0) for i, v in enumerate(values)}
            for task in ("qa", "nli")
        }
    }
    gender = metric.breakdown("attribute").groups[0]
    assert (gender.ci_low, gender.ci_high) == pytest.approx(naive_calm_ci(table, 9, 200))
    qa = metric.breakdown("task+attribute").groups[0]
    assert qa.group == "qa/gender"
    assert (qa.ci_low, qa.ci_high) == pytest.approx(
        naive_calm_ci({"gender": {"qa": table["gender"]["qa"]}}, 9, 200)
    )
