"""The permutation noise floor of the CALM score: which labels move, and at what level.

The group of a prompt is its name's group, so the name is the unit that carries the label
(floors.py: a label constant within a unit moves with the whole unit). Two designs:

- **names crossed with templates** (every template of a task/attribute was filled with the
  same names: `-O names=fixed`, or a subset of one list): a name's answers across templates
  share the name's own effect, so shuffling single prompts would treat them as independent
  and give a floor that is too low. Whole names' groups are shuffled among the names of the
  task/attribute (`permuted_within` "task+attribute", `permuted_unit` "name"); every template
  keeps its group sizes, because it holds every name.
- **otherwise** (names drawn afresh per template, the released design): names are nested in
  templates, and group labels are shuffled among the prompts of each template
  (`permuted_within` "template"). Names that recur across templates (the fixed
  gender-neutral list under `names=released`) are not moved as wholes in this design.

Either way every answer stays where it is and the whole score (template normalisation,
exclusion rules) is recomputed for each shuffle (`metrics.permutation_floor`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from biasaudit.benchmarks.calm.scoring import ScoredPrompt, ScoringOptions, score_prompts
from biasaudit.metrics import permutation_floor
from biasaudit.metrics.frame import noise_floor
from biasaudit.results.schema import NoiseFloor


@dataclass(frozen=True)
class CalmDesign:
    strata: list[str]
    #: None: single prompts move.
    units: list[str] | None
    within: str
    unit: str | None


def _cell(p: ScoredPrompt) -> str:
    return f"{p.task}/{p.attribute}"


def crossed(prompts: Sequence[ScoredPrompt]) -> bool:
    """Whether, in every task/attribute, at least two templates hold the same (group, name)
    pairs, the same in every template, and each name belongs to one group."""
    names: dict[str, dict[str, set[tuple[str, str]]]] = {}
    group_of: dict[tuple[str, str], str] = {}
    for p in prompts:
        names.setdefault(_cell(p), {}).setdefault(p.template_id, set()).add((p.group, p.name))
        if group_of.setdefault((_cell(p), p.name), p.group) != p.group:
            return False
    for templates in names.values():
        sets = list(templates.values())
        if len(sets) < 2 or any(s != sets[0] for s in sets[1:]):
            return False
    return True


def calm_design(prompts: Sequence[ScoredPrompt]) -> CalmDesign:
    """Whole names within task/attribute when names are crossed with templates, else
    prompts within templates (see the module docstring)."""
    if crossed(prompts):
        return CalmDesign(
            strata=[_cell(p) for p in prompts],
            units=[f"{_cell(p)}/{p.name}" for p in prompts],
            within="task+attribute",
            unit="name",
        )
    return CalmDesign(
        strata=[f"{_cell(p)}/{p.template_id}" for p in prompts],
        units=None,
        within="template",
        unit=None,
    )


def calm_noise_floor(
    prompts: Sequence[ScoredPrompt], options: ScoringOptions, seed: int, n_permutations: int
) -> NoiseFloor | None:
    """The CALM score a model with no group difference would get on these prompts.

    Group labels are shuffled under `calm_design`, keeping every answer, and the whole score
    is recomputed; the observed score is read against that null (an unbiased model scores
    ~18, not 0).
    """
    if n_permutations == 0 or not prompts:
        return None

    def statistic(labels: Sequence[str]) -> float | None:
        shuffled = [replace(p, group=g) for p, g in zip(prompts, labels, strict=True)]
        return score_prompts(shuffled, options).overall()

    design = calm_design(prompts)
    null = permutation_floor(
        [p.group for p in prompts],
        statistic,
        seed=seed,
        strata=design.strata,
        units=design.units,
        n_permutations=n_permutations,
    )
    return noise_floor(null, design.within, design.unit)
