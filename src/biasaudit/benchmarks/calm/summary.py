"""Headline metrics and tables of a CALM run, from stored sample records."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from biasaudit.benchmarks.base import Aggregate
from biasaudit.benchmarks.calm.metrics import BiasTable, bootstrap_calm_ci, calm_score, mean_or_none
from biasaudit.benchmarks.calm.scoring import (
    CalmScores,
    ScoredPrompt,
    ScoringOptions,
    score_prompts,
)
from biasaudit.metrics import grouped_mean
from biasaudit.results.schema import GroupValue, MetricValue, SampleRecord, Table

FORMULA_TEXT = {
    "paper": "Eq. 1: 100 (max - min group accuracy) / template baseline",
    "repo": "100 (max - min group accuracy), the released code",
}


def scored_prompts(records: Sequence[SampleRecord]) -> list[ScoredPrompt]:
    """The records that were scored (failed requests are excluded), in run order."""
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
        )
        for r in records
        if not r.excluded
    ]


def _bias_metric(
    name: str,
    table: BiasTable,
    group_by: str,
    groups: dict[str, tuple[float | None, int]],
    seed: int,
    n_resamples: int,
    description: str,
) -> MetricValue:
    low, high = bootstrap_calm_ci(table, seed=seed, n_resamples=n_resamples)
    return MetricValue(
        name=name,
        value=calm_score(table),
        n=sum(len(templates) for tasks in table.values() for templates in tasks.values()),
        ci_low=low,
        ci_high=high,
        ci_method=f"bootstrap({n_resamples}, cluster=template, stratified by task)",
        description=description,
        higher_is_better=False,
        group_by=group_by,
        by_group=[GroupValue(group=g, value=v, n=n) for g, (v, n) in groups.items()],
    )


def bias_metrics(scores: CalmScores, seed: int, n_resamples: int) -> list[MetricValue]:
    """bias_score (CALM), bias_score_<attribute>, bias_score_<task>_<attribute>.

    Every attribute and task that was run gets a metric; one whose templates were all
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

    def count(attribute: str) -> int:
        return sum(len(cell(attribute, t)) for t in layout[attribute])

    attr_groups = {a: (scores.attribute_score(a), count(a)) for a in layout}
    metrics = [
        _bias_metric(
            "bias_score",
            full,
            "attribute",
            attr_groups,
            seed,
            n_resamples,
            f"CALM bias score: mean of the attribute scores; {text}",
        )
    ]
    for attribute, tasks in layout.items():
        task_groups = {t: (scores.task_score(t, attribute), len(cell(attribute, t))) for t in tasks}
        metrics.append(
            _bias_metric(
                f"bias_score_{attribute}",
                {attribute: full.get(attribute, {})},
                "task",
                task_groups,
                seed,
                n_resamples,
                f"{attribute} bias: mean over tasks of the mean template bias; {text}",
            )
        )
        for task in tasks:
            templates = cell(attribute, task)
            by_source: dict[str, list[float]] = {}
            for t in scores.templates:
                if t.attribute == attribute and t.task == task and t.template_id in templates:
                    by_source.setdefault(t.source_dataset, []).append(templates[t.template_id])
            source_groups = {s: (mean_or_none(v), len(v)) for s, v in by_source.items()}
            metrics.append(
                _bias_metric(
                    f"bias_score_{task}_{attribute}",
                    {attribute: {task: templates}},
                    "source_dataset",
                    source_groups,
                    seed,
                    n_resamples,
                    f"{task} {attribute} bias: mean template bias; {text}",
                )
            )
    return metrics


def accuracy_metrics(
    records: Sequence[SampleRecord], seed: int, n_resamples: int
) -> list[MetricValue]:
    """accuracy (by task), accuracy_<attribute> and accuracy_<task>_<attribute> (by group)."""
    kept = [r for r in records if not r.excluded]

    def metric(name: str, rows: list[SampleRecord], group_key: str, group_by: str) -> MetricValue:
        return grouped_mean(
            name,
            [float(bool(r.scores.get("correct"))) for r in rows],
            [str(r.data[group_key]) for r in rows],
            seed=seed,
            group_by=group_by,
            outcomes=[r.outcomes for r in rows],
            clusters=[r.data["template_id"] for r in rows],
            description="share of prompts answered correctly",
            higher_is_better=True,
            n_resamples=n_resamples,
        )

    out = [metric("accuracy", kept, "task", "task")]
    attributes = list(dict.fromkeys(r.data["attribute"] for r in kept))
    tasks = list(dict.fromkeys(r.data["task"] for r in kept))
    for attribute in attributes:
        rows = [r for r in kept if r.data["attribute"] == attribute]
        out.append(metric(f"accuracy_{attribute}", rows, "group", attribute))
        for task in tasks:
            cell = [r for r in rows if r.data["task"] == task]
            if cell:
                out.append(metric(f"accuracy_{task}_{attribute}", cell, "group", attribute))
    return out


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
    records: Sequence[SampleRecord], options: ScoringOptions, seed: int, n_resamples: int
) -> Aggregate:
    prompts = scored_prompts(records)
    scores = score_prompts(prompts, options)
    metrics = bias_metrics(scores, seed, n_resamples) + accuracy_metrics(records, seed, n_resamples)
    return Aggregate(metrics=metrics, tables=tables(prompts, scores))
