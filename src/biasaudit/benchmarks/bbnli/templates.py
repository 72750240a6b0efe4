"""BBNLI-next Steps 1-2: masked hypothesis templates and their expansion (§3.2, A.4.1-A.4.2).

Step 1 (manual in the paper) derives masked variants of BBNLI's bias-hypothesis templates by
three strategies (Table 1): mask a content word (`mask_word`), replace a word-list placeholder
by the mask (`replace_placeholder`), or keep the placeholder and add a mask beside it
(`add_mask`). `derive_templates` applies the last two to every placeholder automatically;
word masks need a person's choice and come from a templates file (`read_templates_file`).
Every template holds exactly one ``<MASK>`` and BBNLI's ``{{GROUP1}}``/``{{GROUP2}}``/
``{{VAR}}`` placeholders.

Step 2 expands a template with its subtopic's premises, groups and word lists, as BBNLI's
json2csv does: the "pro" rendering (groups as written) and the "anti" one (GROUP1 <-> GROUP2
in premise and hypothesis). Only the mask stays open. ``crossed=True`` instead pairs every
premise rendering with both hypothesis renderings (the paper's "all the meaningful
premise/hypothesis samples" is not specific; spec §2.3 Step 2).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.benchmarks.bbnli.dataset import normalise_subtopic, placeholders, render
from biasaudit.datasets.files import iter_json_lines
from biasaudit.errors import DataError
from biasaudit.hashing import text_sha256
from biasaudit.requests import MASK

GROUPS = ("GROUP1", "GROUP2")
STRATEGIES = ("mask_word", "replace_placeholder", "add_mask", "custom")


@dataclass(frozen=True)
class MaskedTemplate:
    template_id: str
    subtopic: str
    template: str
    strategy: str
    source: str = ""


@dataclass(frozen=True)
class MaskedSample:
    """A premise and a hypothesis with one open mask (Step 2 output)."""

    id: str
    template_id: str
    domain: str
    subtopic: str
    premise_id: str
    premise: str
    rendering: str  # of the hypothesis: "pro" (groups as written) or "anti" (swapped)
    masked: str
    values: dict[str, str] = field(default_factory=dict)  # word-list values used


def digest(*parts: str) -> str:
    """Stable short id of a tuple of texts."""
    return text_sha256(*parts, sep="\x1f")[:16]


def mask_word(template: str, word: str) -> str:
    """Strategy 1: the first whole-word occurrence of `word` becomes the mask."""
    pattern = re.compile(rf"(?<![\w{{}}]){re.escape(word)}(?![\w}}])")
    if not pattern.search(template):
        raise DataError(f"mask_word: '{word}' does not occur in {template!r}")
    return pattern.sub(MASK, template, count=1)


def replace_placeholder(template: str, var: str) -> str:
    """Strategy 2: the placeholder ``{{var}}`` becomes the mask."""
    token = "{{" + var + "}}"
    if token not in template:
        raise DataError(f"replace_placeholder: {token} does not occur in {template!r}")
    return template.replace(token, MASK, 1)


def add_mask(template: str, var: str, joiner: str = "and") -> str:
    """Strategy 3: keep ``{{var}}`` and add "<joiner> <MASK>" right after it."""
    token = "{{" + var + "}}"
    if token not in template:
        raise DataError(f"add_mask: {token} does not occur in {template!r}")
    return template.replace(token, f"{token} {joiner} {MASK}", 1)


def derive_templates(raw: dict[str, Any]) -> list[MaskedTemplate]:
    """Strategies 2 and 3 on every word-list placeholder of every bias hypothesis."""
    subtopic = normalise_subtopic(str(raw["name"]))
    out = []
    for index, (template, *_labels) in enumerate(raw["bias_hypothesis_stereotypical"]):
        for var in placeholders(template):
            if var in GROUPS:
                continue
            for strategy, masked in (
                ("replace_placeholder", replace_placeholder(template, var)),
                ("add_mask", add_mask(template, var)),
            ):
                tid = f"{subtopic}:{index:02d}:{strategy}:{var}"
                out.append(MaskedTemplate(tid, subtopic, masked, strategy, template))
    return out


def check_template(template: str, where: str) -> None:
    if template.count(MASK) != 1:
        raise DataError(f"{where}: a masked template needs exactly one {MASK}: {template!r}")


def read_templates_file(path: str | Path, subtopics: set[str]) -> list[MaskedTemplate]:
    """Masked templates from JSONL: {"subtopic", "template", "strategy"?, "source"?, "id"?}."""
    file = Path(path)
    out = []
    for line, record in iter_json_lines(file):
        where = f"{file}: line {line}"
        if not isinstance(record, dict):
            raise DataError(f"{where}: expected a JSON object")
        for key in ("subtopic", "template"):
            if not isinstance(record.get(key), str) or not record[key].strip():
                raise DataError(f"{where}: field '{key}' missing or not a string")
        subtopic = normalise_subtopic(record["subtopic"])
        if subtopic not in subtopics:
            raise DataError(f"{where}: field 'subtopic': unknown subtopic '{record['subtopic']}'")
        check_template(record["template"], where)
        strategy = record.get("strategy", "custom")
        if strategy not in STRATEGIES:
            raise DataError(f"{where}: field 'strategy' must be one of {', '.join(STRATEGIES)}")
        tid = str(record.get("id") or f"{subtopic}:{digest(record['template'])}")
        out.append(
            MaskedTemplate(tid, subtopic, record["template"], strategy, record.get("source", ""))
        )
    return out


def _renderings(raw: dict[str, Any]) -> dict[str, dict[str, str]]:
    g1, g2 = raw["GROUP1"], raw["GROUP2"]
    return {"pro": {"GROUP1": g1, "GROUP2": g2}, "anti": {"GROUP1": g2, "GROUP2": g1}}


def expand_masked(
    template: MaskedTemplate, raw: dict[str, Any], crossed: bool = False
) -> list[MaskedSample]:
    """Step 2 for one template (see the module doc); duplicates dropped, order stable."""
    check_template(template.template, template.template_id)
    data: dict[str, list[str]] = raw["data"]
    groups = _renderings(raw)
    out: list[MaskedSample] = []
    seen: set[tuple[str, str]] = set()
    for pid, premise in enumerate(raw["premise"]):
        used = [v for v in placeholders(premise + " " + template.template) if v not in GROUPS]
        missing = [v for v in used if v not in data]
        if missing and any(v in placeholders(template.template) for v in missing):
            raise DataError(f"{template.template_id}: placeholders {missing} have no word list")
        used = [v for v in used if v in data]
        for combo in itertools.product(*(data[v] for v in used)):
            values = dict(zip(used, combo, strict=True))
            for premise_side in ("pro", "anti"):
                sides = ("pro", "anti") if crossed else (premise_side,)
                text = render(premise, {**values, **groups[premise_side]})
                for side in sides:
                    masked = render(template.template, {**values, **groups[side]})
                    if (text, masked) in seen:
                        continue
                    seen.add((text, masked))
                    out.append(
                        MaskedSample(
                            id=digest(template.template_id, text, masked),
                            template_id=template.template_id,
                            domain=str(raw["domain"]),
                            subtopic=template.subtopic,
                            premise_id=f"{pid:02d}",
                            premise=text,
                            rendering=side,
                            masked=masked,
                            values=values,
                        )
                    )
    return out


def twin_masked(sample: MaskedSample, template: MaskedTemplate, raw: dict[str, Any]) -> str:
    """The masked hypothesis with the other group assignment (slot-tracked swap)."""
    other = "anti" if sample.rendering == "pro" else "pro"
    return render(template.template, {**sample.values, **_renderings(raw)[other]})


def fill(masked: str, word: str) -> str:
    """The hypothesis with the mask filled and its first letter capitalised (Figure 1 shows
    generated hypotheses capitalised while BBNLI's own start lower case; spec Step 3)."""
    text = masked.replace(MASK, word, 1)
    return text[:1].upper() + text[1:]
