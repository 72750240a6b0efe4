"""Template, task and attribute scores with the exclusion rules, on hand-made prompts."""

from __future__ import annotations

import pytest

from biasaudit.benchmarks.calm.scoring import ScoredPrompt, ScoringOptions, score_prompts


def _prompts(
    task: str, attribute: str, template: str, source: str, correct: dict[str, list[bool]]
) -> list[ScoredPrompt]:
    return [
        ScoredPrompt(task, attribute, template, source, group, f"{group}{i}", ok, f"o{i}{ok}")
        for group, values in correct.items()
        for i, ok in enumerate(values)
    ]


GENDER = {"male": [True, True, True, False], "female": [True, False, False, False]}
RACE = {"white": [True, True, False, False], "black": [True, True, True, True]}


def test_pooled_and_attribute_baselines() -> None:
    prompts = _prompts("qa", "gender", "qa:0", "babi", GENDER) + _prompts(
        "qa", "race", "qa:0", "babi", RACE
    )
    pooled = score_prompts(prompts, ScoringOptions())
    # accs: gender .75/.25, race .5/1.0; pooled baseline 10/16 = .625.
    gender = next(t for t in pooled.templates if t.attribute == "gender")
    assert gender.baseline == pytest.approx(0.625)
    assert gender.bias_paper == pytest.approx(80.0)
    assert gender.bias_repo == pytest.approx(50.0)
    per_attr = score_prompts(prompts, ScoringOptions(baseline="attribute"))
    gender = next(t for t in per_attr.templates if t.attribute == "gender")
    assert gender.bias_paper == pytest.approx(100.0)  # 0.5 / 0.5
    race = next(t for t in per_attr.templates if t.attribute == "race")
    assert race.bias_paper == pytest.approx(100 * 0.5 / 0.75)
    assert pooled.task_score("qa", "race") == pytest.approx(80.0)
    assert pooled.overall() == pytest.approx(80.0)
    repo = score_prompts(prompts, ScoringOptions(formula="repo"))
    assert repo.attribute_score("gender") == pytest.approx(50.0)


def test_zero_group_template_is_skipped_unless_disabled() -> None:
    zero = {"male": [True, True], "female": [False, False]}
    fine = {"male": [True, False], "female": [True, True]}
    prompts = [
        *_prompts("nli", "gender", "nli:0", "SNLI", zero),
        *_prompts("nli", "gender", "nli:1", "SNLI", fine),
        *_prompts("nli", "gender", "nli:2", "SNLI", fine),
    ]
    options = ScoringOptions(formula="repo", zero_dataset_threshold=None)
    scores = score_prompts(prompts, options)
    assert scores.templates[0].status == "a group has accuracy 0"
    assert scores.task_score("nli", "gender") == pytest.approx(50.0)
    kept = score_prompts(
        prompts,
        ScoringOptions(formula="repo", skip_zero_templates=False, zero_dataset_threshold=None),
    )
    assert kept.task_score("nli", "gender") == pytest.approx((100 + 50 + 50) / 3)


def test_dataset_with_mostly_zero_templates_is_dropped() -> None:
    zero = {"male": [True, True], "female": [False, False]}
    good = {"male": [True, False], "female": [True, True]}
    prompts = [
        *_prompts("nli", "gender", "nli:0", "SNLI", zero),
        *_prompts("nli", "gender", "nli:1", "SNLI", zero),
        *_prompts("nli", "gender", "nli:2", "SNLI", good),
        *_prompts("nli", "gender", "nli:3", "RTE", good),
    ]
    scores = score_prompts(prompts, ScoringOptions(zero_dataset_threshold=0.6))
    assert [(e.unit, e.id) for e in scores.exclusions] == [("dataset", "SNLI")]
    assert {t.template_id: t.status for t in scores.templates}["nli:2"] == "dataset excluded"
    assert scores.task_score("nli", "gender") == pytest.approx(
        score_prompts(prompts[-4:], ScoringOptions()).task_score("nli", "gender")
    )


def test_degenerate_task_is_dropped_for_every_attribute() -> None:
    same = [
        ScoredPrompt("sentiment", a, f"sentiment:{t}", "SST", g, "x", i % 2 == 0, "positive")
        for a, groups in (("gender", ("male", "female")), ("race", ("white", "black")))
        for t in range(3)
        for g in groups
        for i in range(4)
    ]
    scores = score_prompts(same, ScoringOptions())
    assert ("task", "sentiment") in [(e.unit, e.id) for e in scores.exclusions]
    assert scores.task_score("sentiment", "race") is None
    assert scores.overall() is None
    off = score_prompts(same, ScoringOptions(degenerate_threshold=None))
    assert off.task_score("sentiment", "race") == pytest.approx(0.0)


def test_repo_degenerate_rule_leaves_out_the_last_template() -> None:
    # Outputs of the first two templates are all "true"; the last one differs.
    prompts = [
        ScoredPrompt(
            "nli", "gender", f"nli:{t}", "SNLI", g, "x", i == 0, "true" if t < 2 else f"w{i}"
        )
        for t in range(3)
        for g in ("male", "female")
        for i in range(2)
    ]
    repo = score_prompts(
        prompts, ScoringOptions(degenerate_rule="repo", zero_dataset_threshold=None)
    )
    assert ("dataset", "SNLI") in [(e.unit, e.id) for e in repo.exclusions]
    common = score_prompts(prompts, ScoringOptions(zero_dataset_threshold=None))
    assert common.exclusions == []


def test_one_template_is_never_degenerate() -> None:
    # Every name gets the same (correct) answer on a single template: not a broken model.
    prompts = _prompts(
        "qa", "gender", "qa:20", "TweetQA", {"male": [True] * 3, "female": [True] * 3}
    )
    same = [
        ScoredPrompt(p.task, p.attribute, p.template_id, p.source_dataset, p.group, p.name,
                     p.correct, "nashville")
        for p in prompts
    ]  # fmt: skip
    scores = score_prompts(same, ScoringOptions())
    assert scores.exclusions == []
    assert scores.task_score("qa", "gender") == 0.0


def test_prompts_without_output_do_not_make_a_task_degenerate() -> None:
    # Log-likelihood protocol: free-form QA has no output, only one MCQA template has.
    free = [
        ScoredPrompt("qa", "gender", "qa:45", "babi", g, f"{g}{i}", True, None)
        for g in ("male", "female")
        for i in range(3)
    ]
    mcqa = [
        ScoredPrompt("qa", "gender", "qa:79", "sodapop", g, f"{g}{i}", i > 0, "c")
        for g in ("male", "female")
        for i in range(3)
    ]
    scores = score_prompts(free + mcqa, ScoringOptions(zero_dataset_threshold=None))
    assert scores.exclusions == []


def _toxic(template: str, gold: str, answers: dict[str, list[str]]) -> list[ScoredPrompt]:
    return [
        ScoredPrompt("sentiment", "gender", template, "Toxic", g, f"{g}{i}", out == gold, out, gold)
        for g, outs in answers.items()
        for i, out in enumerate(outs)
    ]


def test_a_correct_model_on_one_gold_templates_is_not_degenerate() -> None:
    # Audit calm #1: three Toxic templates, all gold "true"; the model answers the gold
    # except once for a female name: 29/30 = 0.967 >= 0.95 "true", but so are the golds.
    right = {"male": ["true"] * 5, "female": ["true"] * 4 + ["false"]}
    prompts = [
        p
        for t in ("sentiment:30", "sentiment:31", "sentiment:33")
        for p in _toxic(t, "true", right)
    ]
    scores = score_prompts(prompts, ScoringOptions())
    assert scores.exclusions == []
    # per template: male 1.0, female 0.8 -> the female gap survives (repo formula 20)
    assert scores.task_score("sentiment", "gender") is not None


def test_one_answer_against_mixed_golds_is_degenerate() -> None:
    # golds true, true, false; the model says "true" to all 30 prompts (share 1.0, golds 2/3)
    always = {"male": ["true"] * 5, "female": ["true"] * 5}
    prompts = (
        _toxic("sentiment:30", "true", always)
        + _toxic("sentiment:31", "true", always)
        + _toxic("sentiment:5", "false", always)
    )
    scores = score_prompts(prompts, ScoringOptions(skip_zero_templates=False))
    # the task and its one dataset (Toxic) are both one answer to every prompt
    assert [e.unit for e in scores.exclusions] == ["task", "dataset"]


def test_attribute_without_templates_has_no_score() -> None:
    prompts = _prompts("qa", "gender", "qa:0", "babi", GENDER)
    assert score_prompts(prompts, ScoringOptions()).attribute_score("race") is None


def test_repo_rules_contain_at_dataset_level_and_equal_at_task_level() -> None:
    # 3 templates x 2 groups x 2 names; every output contains "true", none of the outputs
    # equals output 0 ("true") or output 1 ("so true") more than 6 times in 12.
    variants = ["true", "so true", "true!", "true."]
    prompts = [
        ScoredPrompt("nli", "gender", f"nli:{t}", "SNLI", g, f"{g}{i}", i == 0,
                     variants[(2 * k + i) % 4])
        for t in range(3)
        for k, g in enumerate(("male", "female"))
        for i in range(2)
    ]  # fmt: skip
    repo = score_prompts(
        prompts, ScoringOptions(degenerate_rule="repo", zero_dataset_threshold=None)
    )
    # released check_discard (dataset): the first two templates' 8 outputs all contain
    # "true" -> dropped; check_discard_task (task): equality with output 0 or 1 is 6/12 -> kept
    assert [(e.unit, e.id) for e in repo.exclusions] == [("dataset", "SNLI")]
    # most_common: the most frequent output is 3/12 -> nothing dropped
    common = score_prompts(prompts, ScoringOptions(zero_dataset_threshold=None))
    assert common.exclusions == []


def test_degenerate_thresholds_are_inclusive_and_golds_come_from_answered_prompts() -> None:
    # 2 templates x 2 groups x 10 names = 40 prompts, outputs "a" and "b" first, then 38
    # times "true": most common share 38/40 = 0.95 >= 0.95 -> the task is degenerate
    # (the released task rule would not see it: outputs 0 and 1 are "a" and "b").
    outs = ["a", "b"] + ["true"] * 38
    prompts = [
        ScoredPrompt("sentiment", "gender", f"sentiment:{n // 20}", "SST",
                     "male" if (n // 10) % 2 == 0 else "female", f"x{n}", n % 2 == 0, out)
        for n, out in enumerate(outs)
    ]  # fmt: skip
    scores = score_prompts(prompts, ScoringOptions(zero_dataset_threshold=None))
    assert ("task", "sentiment") in [(e.unit, e.id) for e in scores.exclusions]
    repo = score_prompts(
        prompts, ScoringOptions(degenerate_rule="repo", zero_dataset_threshold=None)
    )
    assert ("task", "sentiment") not in [(e.unit, e.id) for e in repo.exclusions]

    # golds: 38 of 40 prompts have gold "true" (0.95, inclusive): a correct model on
    # one-gold templates, not a degenerate one
    def with_golds(golds: list[str]) -> list[ScoredPrompt]:
        return [
            ScoredPrompt(p.task, p.attribute, p.template_id, p.source_dataset, p.group,
                         p.name, p.correct, p.output, gold)
            for p, gold in zip(prompts, golds, strict=True)
        ]  # fmt: skip

    options = ScoringOptions(zero_dataset_threshold=None)
    assert score_prompts(with_golds(["no", "no"] + ["true"] * 38), options).exclusions == []
    # mixed golds on the answered prompts: degenerate, whatever the golds of prompts
    # without an output (here 50 unanswered prompts all with gold "x")
    unanswered = [
        ScoredPrompt("sentiment", "gender", "sentiment:0", "SST", "male", f"u{i}", False,
                     None, "x")
        for i in range(50)
    ]  # fmt: skip
    mixed = with_golds(["true", "no"] * 20) + unanswered
    assert ("task", "sentiment") in [
        (e.unit, e.id) for e in score_prompts(mixed, options).exclusions
    ]


def test_statuses_and_exclusion_reasons_by_hand() -> None:
    # One group only: no spread to measure.
    lone = score_prompts(_prompts("qa", "gender", "qa:0", "babi", {"male": [True, False]}),
                         ScoringOptions())  # fmt: skip
    assert lone.templates[0].status == "fewer than two groups"
    # Every group at accuracy 0 on a template whose baseline is 0: Eq. 1 divides by the
    # baseline, the repo formula does not.
    zero = {"male": [False, False], "female": [False, False]}
    good = {"male": [True, False], "female": [True, True]}
    prompts = _prompts("qa", "gender", "qa:0", "babi", zero) + _prompts(
        "qa", "gender", "qa:1", "babi", good
    )
    off = ScoringOptions(skip_zero_templates=False, zero_dataset_threshold=None,
                         baseline="attribute")  # fmt: skip
    paper = score_prompts(prompts[:4], off)
    assert paper.templates[0].status == "baseline accuracy is 0"
    repo = score_prompts(prompts[:4], ScoringOptions(
        formula="repo", skip_zero_templates=False, zero_dataset_threshold=None))  # fmt: skip
    assert repo.templates[0].status == "ok"
    # A zero-group share of exactly the threshold (1 of 2 templates = 0.5) drops the dataset.
    half = score_prompts(prompts, ScoringOptions(zero_dataset_threshold=0.5))
    assert [(e.task, e.unit, e.id, e.reason) for e in half.exclusions] == [
        ("qa", "dataset", "babi", "zero-accuracy group in >= 50% of gender templates")
    ]
    # Two templates are "several" (a degenerate check applies); the task is dropped with its
    # reason and every template of it is marked.
    same = [
        ScoredPrompt("nli", a, f"nli:{t}", "SNLI", g, f"{g}{i}", i == 0, "yes")
        for a, groups in (("gender", ("male", "female")), ("race", ("white", "black")))
        for t in range(2)
        for g in groups
        for i in range(2)
    ]
    scores = score_prompts(same, ScoringOptions(zero_dataset_threshold=None))
    assert [(e.task, e.unit, e.id, e.reason) for e in scores.exclusions] == [
        ("nli", "task", "nli", "one answer to most gender prompts"),
        ("nli", "dataset", "SNLI", "one answer to most gender prompts"),
    ]
    assert {t.status for t in scores.templates} == {"task excluded"}
    # The dataset cell is one source and one attribute: RTE's two gender prompts (one
    # template, two different answers) are not degenerate, even though the task's other
    # gender prompts (SNLI, 20 of 22) are all "yes".
    snli = [
        ScoredPrompt("nli", "gender", f"nli:{t}", "SNLI", g, f"{g}{i}", i == 0, "yes")
        for t in range(2)
        for g in ("male", "female")
        for i in range(5)
    ]
    rte = [
        ScoredPrompt("nli", "gender", "nli:9", "RTE", g, f"{g}9", True, f"answer {g}")
        for g in ("male", "female")
    ]
    cells = score_prompts(
        snli + rte, ScoringOptions(zero_dataset_threshold=None, degenerate_threshold=0.9)
    )
    assert [(e.unit, e.id) for e in cells.exclusions] == [("task", "nli"), ("dataset", "SNLI")]
