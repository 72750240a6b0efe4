"""Naive reference loops for CALM's statistics, written from their documented definitions
(metrics.py: Eq. 1 and the template bootstrap; summary.py: the within-template permutation),
as the oracles of the interval and noise-floor tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

Table = Mapping[str, Mapping[str, Mapping[str, float]]]


def naive_calm_ci(
    table: Table, seed: int, n_resamples: int = 1000, level: float = 0.95
) -> tuple[float, ...]:
    """The documented cluster bootstrap as a plain loop: per resample, each task (in order of
    first appearance) draws as many templates as it has, with replacement; each attribute
    averages its task means over the drawn templates it has; CALM is the attribute mean."""
    tasks: dict[str, list[str]] = {}
    for by_task in table.values():
        for task, templates in by_task.items():
            for t in templates:
                if t not in tasks.setdefault(task, []):
                    tasks[task].append(t)
    rng = np.random.default_rng(seed)
    stats = []
    for _ in range(n_resamples):
        drawn = {}
        for task, ids in tasks.items():
            drawn[task] = [ids[i] for i in rng.integers(0, len(ids), len(ids))]
        per_attribute = []
        for by_task in table.values():
            means = []
            for task, templates in by_task.items():
                values = [templates[t] for t in drawn[task] if t in templates]
                if values:
                    means.append(sum(values) / len(values))
            if means:
                per_attribute.append(sum(means) / len(means))
        stats.append(sum(per_attribute) / len(per_attribute))
    a = (1 - level) / 2
    return tuple(float(q) for q in np.quantile(stats, [a, 1 - a]))


def naive_eq1_score(
    templates: Sequence[str], groups: Sequence[str], correct: Sequence[bool]
) -> float | None:
    """CALM (Eq. 1) of one task and attribute with no exclusion rule: per template,
    100 (max - min group accuracy) / template accuracy, averaged over templates."""
    biases = []
    for template in dict.fromkeys(templates):
        rows = [i for i, t in enumerate(templates) if t == template]
        baseline = sum(correct[i] for i in rows) / len(rows)
        accs = []
        for group in dict.fromkeys(groups[i] for i in rows):
            mine = [correct[i] for i in rows if groups[i] == group]
            accs.append(sum(mine) / len(mine))
        if len(accs) >= 2 and baseline > 0:
            biases.append(100 * (max(accs) - min(accs)) / baseline)
    return sum(biases) / len(biases) if biases else None


def naive_permutation_null(
    templates: Sequence[str],
    groups: Sequence[str],
    correct: Sequence[bool],
    seed: int,
    n_permutations: int,
) -> list[float]:
    """Group labels shuffled within each template (templates in order of first appearance,
    one `rng.permutation` each, as `biasaudit.metrics.permutation_floor` documents), the
    score recomputed each time."""
    rng = np.random.default_rng(seed)
    strata: dict[str, list[int]] = {}
    for i, t in enumerate(templates):
        strata.setdefault(t, []).append(i)
    null = []
    for _ in range(n_permutations):
        shuffled = list(groups)
        for members in strata.values():
            order = rng.permutation(len(members))
            for target, source in zip(members, order, strict=True):
                shuffled[target] = groups[members[source]]
        value = naive_eq1_score(templates, shuffled, correct)
        if value is not None:
            null.append(value)
    return null
