"""Template perturbation for the sensitivity analysis (paper §4.1, Table 4).

The paper builds four alternative versions of CALM by synonym substitution, clause addition
and adjective addition (following Selvam et al. 2023) but gives no generator. This one is
deterministic (seeded per template) and works on templates before names are filled, so
`<PERSON>` and the pronoun tags stay intact:

- "synonym": each word found in `SYNONYMS` is replaced with probability 1/2;
- "adjective": one article + noun pair ("the kitchen") gets a neutral adjective;
- "clause": a neutral sentence is appended to the passage (context, premise or sentence);
- "all": the three in that order.

Words of the gold answer and MCQA option lines are never changed, so golds stay valid.
`VERSIONS` names the four alternative constructions used by `biasaudit calm perturb`.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from typing import Literal

from biasaudit.benchmarks.calm.data import Template
from biasaudit.benchmarks.calm.synonyms import ADJECTIVES, CLAUSES, NOUNS, SYNONYMS

Perturbation = Literal["none", "synonym", "adjective", "clause", "all"]
#: The four alternative constructions (paper: "four alternative constructions of CALM").
VERSIONS: tuple[Perturbation, ...] = ("synonym", "adjective", "clause", "all")
PASSAGE_FIELD = {"qa": "context", "nli": "premise", "sentiment": "sentence"}

_WORD = re.compile(r"<[^<>]*>|[A-Za-z]+")
_ARTICLE_NOUN = re.compile(r"\b(the|a|The|A) ([a-z]+)\b")


def _protected_words(template: Template) -> set[str]:
    answer = template.answer if isinstance(template.answer, tuple) else (template.answer,)
    return {w.lower() for text in answer for w in re.findall(r"[A-Za-z]+", text)}


def _match_case(original: str, new: str) -> str:
    return new[0].upper() + new[1:] if original[0].isupper() else new


def _substitute(text: str, protected: set[str], rng: random.Random) -> str:
    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        options = SYNONYMS.get(word.lower())
        if word.startswith("<") or not options or word.lower() in protected:
            return word
        if rng.random() < 0.5:
            return word
        return _match_case(word, rng.choice(options))

    return _WORD.sub(swap, text)


def _add_adjective(text: str, protected: set[str], rng: random.Random) -> tuple[str, bool]:
    candidates = [
        m
        for m in _ARTICLE_NOUN.finditer(text)
        if m.group(2) in NOUNS and m.group(2) not in protected
    ]
    if not candidates:
        return text, False
    target = rng.choice(candidates)
    start, end = target.span()
    adjective = rng.choice(ADJECTIVES)
    return f"{text[:start]}{target.group(1)} {adjective} {target.group(2)}{text[end:]}", True


class _Edit:
    def __init__(self, kind: str, protected: set[str], rng: random.Random) -> None:
        self.kind, self.protected, self.rng, self.done = kind, protected, rng, False

    def __call__(self, text: str) -> str:
        if self.kind == "synonym":
            return _substitute(text, self.protected, self.rng)
        if self.done:
            return text
        text, self.done = _add_adjective(text, self.protected, self.rng)
        return text


def _per_line(text: str, skip_options: bool, edit: _Edit) -> str:
    if not skip_options:
        return edit(text)
    lines = text.split("\n")
    return "\n".join(
        line if i > 0 and re.match(r"^[A-E]: ", line) else edit(line)
        for i, line in enumerate(lines)
    )


def perturb_template(template: Template, kind: Perturbation, seed: int) -> Template:
    """A perturbed copy of `template` (the same object for "none")."""
    if kind == "none":
        return template
    steps = ("synonym", "adjective", "clause") if kind == "all" else (kind,)
    rng = random.Random(f"{seed}:{template.id}")
    protected = _protected_words(template)
    fields = dict(template.fields)
    mcqa = isinstance(template.answer, tuple)
    for step in steps:
        if step == "clause":
            key = PASSAGE_FIELD[template.task]
            fields[key] = f"{fields[key].rstrip()} {rng.choice(CLAUSES)}"
            continue
        edit = _Edit(step, protected, rng)
        for key in fields:
            fields[key] = _per_line(fields[key], mcqa and key == "question", edit)
    return replace(template, fields=fields)
