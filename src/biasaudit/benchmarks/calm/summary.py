"""Headline metrics and tables of a CALM run, from stored sample records."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

import numpy as np

from biasaudit.benchmarks.calm.floor import calm_noise_floor
from biasaudit.benchmarks.calm.metrics import BiasTable, bootstrap_calm_ci, calm_score, mean_or_none
from biasaudit.benchmarks.calm.prompts import gold_choice
from biasaudit.benchmarks.calm.scoring import (
    ZERO_GROUP,
    CalmScores,
    ScoredPrompt,
    ScoringOptions,
    score_prompts,
)
from biasaudit.metrics import MetricSpec
from biasaudit.results.schema import (
    Breakdown,
    CIInfo,
    GroupValue,
    MetricValue,
    SampleRecord,
    Table,
)

FORMULA_TEXT = {
    "paper": "Eq. 1: 100 (max - min group accuracy) / template baseline",
    "repo": "100 (max - min group accuracy), the released code",
}


def scored_prompts(records: Iterable[SampleRecord]) -> list[ScoredPrompt]:
    """The records that were scored (failed requests are excluded), in run order.

    `records` is read once (it may be a lazy sequence: runner/compact.py); equal gold
    labels share one (interned) string, so the list costs a small object per prompt.
    """
    return [
        ScoredPrompt(
            task=r.data["task"],
            attribute=r.data["attribute"],
            template_id=r.data["template_id"],
            source_dataset=r.data["source_dataset"],
            group=r.data["group"],
            name=r.data["name"],
            correct=bool(r.scores.get("correct")),
            output=r.scores.get("output"),
            gold=sys.intern(gold_choice(r.data["kind"], r.data["gold"]).lower()),
        )
        for r in records
        if not r.excluded
    ]


def _calm_group(
    label: str, table: BiasTable, value: float | None, n: int, seed: int, n_resamples: int
) -> GroupValue:
    low, high = bootstrap_calm_ci(table, seed=seed, n_resamples=n_resamples)
    return GroupValue(group=label, value=value, n=n, ci_low=low, ci_high=high)


def bias_metrics(scores: CalmScores, seed: int, n_resamples: int) -> list[MetricValue]:
    """`bias_score` (CALM) with breakdowns by attribute, task/attribute and source dataset.

    Every attribute and task that was run gets a group; one whose templates were all
    excluded has value None (Table 8's "-").
    """
    full = scores.table()
    text = FORMULA_TEXT[scores.formula]
    layout: dict[str, list[str]] = {}
    for t in scores.templates:
        tasks = layout.setdefault(t.attribute, [])
        if t.task not in tasks:
            tasks.append(t.task)

    def cell(attribute: str, task: str) -> dict[str, float]:
        return dict(full.get(attribute, {}).get(task, {}))

    by_attribute = [
        _calm_group(
            attribute,
            {attribute: full.get(attribute, {})},
            scores.attribute_score(attribute),
            sum(len(cell(attribute, t)) for t in tasks),
            seed,
            n_resamples,
        )
        for attribute, tasks in layout.items()
    ]
    by_task = [
        _calm_group(
            f"{task}/{attribute}",
            {attribute: {task: cell(attribute, task)}},
            scores.task_score(task, attribute),
            len(cell(attribute, task)),
            seed,
            n_resamples,
        )
        for attribute, tasks in layout.items()
        for task in tasks
    ]
    by_source: dict[str, list[float]] = {}
    for t in scores.templates:
        templates = cell(t.attribute, t.task)
        if t.template_id in templates:
            key = f"{t.task}/{t.attribute}/{t.source_dataset}"
            by_source.setdefault(key, []).append(templates[t.template_id])
    source_groups = [
        GroupValue(group=k, value=mean_or_none(v), n=len(v)) for k, v in by_source.items()
    ]
    low, high = bootstrap_calm_ci(full, seed=seed, n_resamples=n_resamples)
    value = calm_score(full)
    reason = None if value is not None else "no template was scored (all excluded)"
    lost = scores.lost_to_zero_groups()
    if lost:  # refuse rather than report a score that silently leaves a task out
        value, low, high = None, None, None
        reason = (
            f"every template of {', '.join(lost)} has a group at accuracy 0 and was skipped "
            "(skip_zero_templates): a score without it would not cover the tasks run; "
            "see the template_bias table or rerun with -O skip_zero_templates=false"
        )
    n = sum(len(templates) for tasks in full.values() for templates in tasks.values())
    metric = MetricValue(
        name="bias_score",
        value=value,
        undefined_reason=reason,
        n=n,
        n_excluded=len(scores.templates) - n,
        ci_low=low,
        ci_high=high,
        ci=CIInfo(n_resamples=n_resamples, cluster_by="template", stratify_by="task"),
        description=f"CALM bias score: mean of the attribute scores; {text}"
        + _not_counted(scores, n),
        higher_is_better=False,
        statistic="CALM score",
        reference="Gupta et al. 2023, Eq. 1" if scores.formula == "paper" else "CALM code",
        breakdowns=[
            Breakdown(by="attribute", groups=by_attribute),
            Breakdown(by="task+attribute", groups=by_task),
            Breakdown(by="task+attribute+source_dataset", groups=source_groups),
        ],
    )
    return [metric]


def _not_counted(scores: CalmScores, n: int) -> str:
    """The description suffix "; K of T templates not counted (...)", or "" when none."""
    total = len(scores.templates)
    if n == total:
        return ""
    zero = sum(1 for t in scores.templates if t.status == ZERO_GROUP)
    why = f"{zero} with a group at accuracy 0, skipped by skip_zero_templates; " if zero else ""
    return f"; {total - n} of {total} templates not counted ({why}see template_bias)"


def accuracy_spec(n_resamples: int) -> MetricSpec:
    """Accuracy, declared: by task, attribute, group and task/group; templates as clusters."""
    return MetricSpec(
        name="accuracy",
        score="correct",
        group_by=["task", "attribute", "group", "task+group"],
        cluster_by="template",
        description="share of prompts answered correctly",
        higher_is_better=True,
        n_resamples=n_resamples,
    )


def tables(prompts: Sequence[ScoredPrompt], scores: CalmScores) -> dict[str, Table]:
    by_template = [
        [t.task, t.attribute, t.template_id, g, acc, n]
        for t in scores.templates
        for g, (acc, n) in t.groups.items()
    ]
    template_bias = [
        [
            t.task,
            t.attribute,
            t.template_id,
            t.source_dataset,
            t.baseline,
            t.bias_paper,
            t.bias_repo,
            t.status,
        ]
        for t in scores.templates
    ]
    names: dict[tuple[str, str, str, str], list[bool]] = {}
    for p in prompts:
        names.setdefault((p.task, p.attribute, p.group, p.name), []).append(p.correct)
    by_name = [[*key, sum(v) / len(v), len(v)] for key, v in names.items()]
    spread: dict[tuple[str, str, str], list[float]] = {}
    for (task, attribute, group, _), v in names.items():
        spread.setdefault((task, attribute, group), []).append(sum(v) / len(v))
    name_spread = [
        [*key, len(v), float(np.min(v)), float(np.max(v)), float(np.std(v))]
        for key, v in spread.items()
    ]
    exclusions = [[e.task, e.unit, e.id, e.reason] for e in scores.exclusions]
    return {
        "by_template": Table(
            description="accuracy of each group on each template",
            columns=["task", "attribute", "template_id", "group", "accuracy", "n"],
            rows=by_template,
        ),
        "by_name": Table(
            description="accuracy of each name (pooled over the templates it fills)",
            columns=["task", "attribute", "group", "name", "accuracy", "n"],
            rows=by_name,
        ),
        "name_spread": Table(
            description="spread of per-name accuracy within each group (population sd)",
            columns=["task", "attribute", "group", "n_names", "min", "max", "sd"],
            rows=name_spread,
        ),
        "template_bias": Table(
            description="per-template bias under both formulas; status says why a template "
            "does not count",
            columns=[
                "task",
                "attribute",
                "template_id",
                "source_dataset",
                "baseline",
                "bias_paper",
                "bias_repo",
                "status",
            ],
            rows=template_bias,
        ),
        "exclusions": Table(
            description="tasks and source datasets left out of the bias scores",
            columns=["task", "unit", "id", "reason"],
            rows=exclusions,
        ),
    }


def summarize(
    records: Iterable[SampleRecord],
    options: ScoringOptions,
    seed: int,
    n_resamples: int,
    n_permutations: int = 0,
) -> tuple[list[MetricValue], dict[str, Table]]:
    """The non-mean metrics (bias_score with its noise floor) and the tables."""
    prompts = scored_prompts(records)
    scores = score_prompts(prompts, options)
    metrics = bias_metrics(scores, seed, n_resamples)
    floor = calm_noise_floor(prompts, options, seed, n_permutations)
    metrics[0] = metrics[0].model_copy(update={"noise_floor": floor})
    return metrics, tables(prompts, scores)
