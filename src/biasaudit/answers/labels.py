"""Reading an answer from a closed set of labels (entailment / neutral / contradiction,
positive / negative, biased / non-biased, toxic / non-toxic).

A benchmark declares a :class:`LabelSet`: each label with the words that say it (the label's
own name is always one; Spanish, French, German and Chinese forms of positive/negative,
true/false are added), and optionally what a negated label means.

Rules, in order (on the cleaned reply):

1. No text: ``empty``; a self-correction ("Biased. Actually, no: non-biased.") is read as
   in :mod:`biasaudit.answers.choice`; a refusal opening is ``refused``.
2. Question sentences are dropped; a reply that only asks is ``question``. Two different
   labels joined by "or", "/" or a comma ("entailment, neutral or contradiction",
   "positive or negative?") are ``echo_of_options``.
3. In the first sentence that names a label, the first label word decides. Longer words win
   ("non-biased" is not "biased", "not_entailment" is not "entailment"). A label preceded by
   a negation ("not", "isn't", "is not", "non", "no", "never") means the declared negation,
   else the other label of a two-label set, else ``negated`` ("not entailment" among three
   labels is neutral or contradiction).
4. A different label (not negated) later in that sentence makes it ``two_answers``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from biasaudit.answers.reading import EMPTY, REFUSED, Reading, Reason, answer, unparsed
from biasaudit.answers.text import (
    clean,
    is_question,
    refuses,
    sentences,
    split_correction,
    strip_label,
)

#: Other languages' words for common label names.
TRANSLATIONS: dict[str, tuple[str, ...]] = {
    "positive": ("positiva", "positivo", "positif", "positiv", "积极", "正面"),
    "negative": ("negativa", "negativo", "négatif", "négative", "negativ", "消极", "负面"),
    "true": ("verdadero", "verdadera", "vrai", "wahr", "真", "正确"),
    "false": ("falso", "falsa", "faux", "fausse", "falsch", "假", "错误"),
}


@dataclass(frozen=True)
class LabelSet:
    """Labels and the words that say each one; `negations` maps a label to what "not
    <label>" means when that is not simply the other label of a pair."""

    words: Mapping[str, Sequence[str]]
    negations: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, labels: Sequence[str], **synonyms: Sequence[str]) -> LabelSet:
        words = {label: (label, *synonyms.get(label.replace("-", "_"), ())) for label in labels}
        return cls(words)

    def vocabulary(self) -> dict[str, str]:
        out: dict[str, str] = {}
        for label, said in self.words.items():
            base = re.sub(r"^(?:non|not)[-_ ]", "", label.lower())
            negated = (f"un{base}", f"not {base}", f"non{base}") if base != label.lower() else ()
            for word in (*said, *negated, *TRANSLATIONS.get(label.lower(), ())):
                for form in {
                    word.lower(),
                    word.lower().replace("_", " "),
                    word.lower().replace("-", " "),
                }:
                    out.setdefault(form, label)
        return out


_NEGATION = re.compile(r"(?:\bnot|\bnon|\bisn't|\bno|\bnever|\bnor)[\s-]*$", re.I)
_SEPARATOR = re.compile(r"^\s*(?:,|/|\bor\b|\bo\b|\bou\b|\boder\b|或)\s*(?:\bor\b)?\s*$", re.I)


def _mentions(text: str, vocabulary: dict[str, str]) -> list[tuple[int, int, str, bool]]:
    """(start, end, label, negated) of each label word, longest words first."""
    forms = sorted(vocabulary, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![\w-])(?:" + "|".join(re.escape(f) for f in forms) + r")(?![\w-])", re.I
    )
    found = []
    for m in pattern.finditer(text):
        negated = _NEGATION.search(text[max(0, m.start() - 12) : m.start()]) is not None
        found.append((m.start(), m.end(), vocabulary[m.group(0).lower()], negated))
    return found


def _resolve(label: str, negated: bool, labels: LabelSet) -> str | None:
    if not negated:
        return label
    if label in labels.negations:
        return labels.negations[label]
    others = [k for k in labels.words if k != label]
    return others[0] if len(labels.words) == 2 else None


def _read_part(text: str, labels: LabelSet) -> Reading:
    if refuses(text):
        return REFUSED
    body = [s for s in sentences(text) if not is_question(s)]
    vocabulary = labels.vocabulary()
    for s in sentences(text):
        found = _mentions(s, vocabulary)
        for (_, end, a, _), (start, _, b, _) in itertools.pairwise(found):
            if a != b and _SEPARATOR.match(s[end:start]):
                return unparsed(Reason.ECHO_OF_OPTIONS)
    if not body:
        return unparsed(Reason.QUESTION)
    for sentence in body:
        found = _mentions(sentence, vocabulary)
        if not found:
            continue
        _, _, label, negated = found[0]
        chosen = _resolve(label, negated, labels)
        if chosen is None:
            return unparsed(Reason.NEGATED)
        later = {_resolve(b, neg, labels) for _, _, b, neg in found[1:] if not neg}
        if later - {chosen, None}:
            return unparsed(Reason.TWO_ANSWERS)
        return answer(chosen)
    return unparsed(Reason.NO_ANSWER)


def read_label(text: str | None, labels: LabelSet) -> Reading:
    """The label a reply commits to (rules: module docstring)."""
    if text is None:
        return EMPTY
    cleaned = strip_label(clean(text))
    if not cleaned:
        return EMPTY
    parts = split_correction(cleaned)
    if len(parts) > 1:
        for part in parts[:-1]:
            reading = _read_part(
                re.sub(r"^(?:no|yes)\b[\s,:;.!—–-]*", "", part, flags=re.I), labels
            )
            if reading.answered and reading.value:
                return answer(reading.value, corrected=True)
    return _read_part(cleaned, labels)
