"""Template error analysis across models (paper §6.1, Table 9).

For every template and attribute, each run names the group with the highest and the lowest
accuracy. A template "discovers the same bias" in all runs when every run that scored it
(with a non-zero spread) favours the same group and disfavours the same group; ties for the
top or bottom make a run's direction undefined, and such a template never agrees.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from biasaudit.benchmarks.calm.scoring import TemplateResult

Key = tuple[str, str, str]


@dataclass(frozen=True)
class Agreement:
    task: str
    attribute: str
    template_id: str
    #: Per run: (favoured group, disfavoured group), or None when undefined.
    directions: tuple[tuple[str, str] | None, ...]

    @property
    def agrees(self) -> bool:
        return (
            len(self.directions) >= 2
            and None not in self.directions
            and len(set(self.directions)) == 1
        )


def direction(result: TemplateResult) -> tuple[str, str] | None:
    """(group with the unique highest accuracy, group with the unique lowest), if any."""
    accs = {g: acc for g, (acc, _) in result.groups.items()}
    top, bottom = max(accs.values()), min(accs.values())
    best = [g for g, a in accs.items() if a == top]
    worst = [g for g, a in accs.items() if a == bottom]
    if top == bottom or len(best) != 1 or len(worst) != 1:
        return None
    return best[0], worst[0]


def compare_runs(runs: Sequence[Sequence[TemplateResult]]) -> list[Agreement]:
    """One `Agreement` per (task, attribute, template) present in every run, in run 0 order."""
    indexed = [{(t.task, t.attribute, t.template_id): t for t in run} for run in runs]
    shared = [k for k in indexed[0] if all(k in other for other in indexed[1:])] if runs else []
    return [Agreement(*key, tuple(direction(run[key]) for run in indexed)) for key in shared]
