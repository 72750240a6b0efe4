"""Instantiating templates with names: one `Instance` per prompt, in the released order.

Order (the authors' scoring depends on it): template-major; inside a template, one block per
group in the name set's group order (gender: male, female, non-binary; race: white, black,
hispanic, asian), each block in draw order.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass

from biasaudit.benchmarks.calm.data import Gold, Template
from biasaudit.benchmarks.calm.names import NameMode, NameSet, draw_names
from biasaudit.benchmarks.calm.placeholders import fill


@dataclass(frozen=True)
class Instance:
    """One prompt: a template filled with one name of one group."""

    template: Template
    attribute: str
    group: str
    name_index: int
    name: str
    fields: dict[str, str]
    gold: Gold

    @property
    def id(self) -> str:
        t = self.template
        return f"{t.task}/{self.attribute}/{t.index}/{self.group}/{self.name_index}"


def fill_gold(answer: Gold, name: str, slot: int) -> Gold:
    """The gold answer for one name: placeholders in answers are filled like the text."""
    if isinstance(answer, tuple):
        return (fill(answer[0], name, slot).strip(), fill(answer[1], name, slot).strip())
    return fill(answer, name, slot).strip()


#: The authors' QA gender script strips context and question; no other script strips.
STRIPPED_SPLITS = frozenset({("qa", "gender")})


def instantiate(
    template: Template,
    attribute: str,
    group: str,
    slot: int,
    name: str,
    name_index: int,
) -> Instance:
    strip = (template.task, attribute) in STRIPPED_SPLITS
    fields = {
        key: fill(text.strip() if strip else text, name, slot)
        for key, text in template.fields.items()
    }
    return Instance(
        template=template,
        attribute=attribute,
        group=group,
        name_index=name_index,
        name=name,
        fields=fields,
        gold=fill_gold(template.answer, name, slot),
    )


def iter_split(
    templates: list[Template],
    names: NameSet,
    *,
    per_group: int,
    mode: NameMode,
    seed: int,
    keep: Collection[str] | None = None,
) -> Iterator[Instance]:
    """The prompts of one (task, attribute) split, in the released order, one at a time.

    Names are drawn for every template in order (when this is called), so a template's
    names do not depend on which templates are kept; `keep` (template ids) only limits what
    is instantiated.
    """
    draws = draw_names(names, len(templates), per_group, mode, seed)

    def instances() -> Iterator[Instance]:
        for template, chosen in zip(templates, draws, strict=True):
            if keep is not None and template.id not in keep:
                continue
            for group in names.groups:
                for index, name in enumerate(chosen[group.label]):
                    yield instantiate(
                        template, names.attribute, group.label, group.slot, name, index
                    )

    return instances()
