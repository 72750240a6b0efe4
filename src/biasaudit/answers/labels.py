"""Reading an answer from a closed set of labels (entailment / neutral / contradiction,
positive / negative, biased / non-biased, toxic / non-toxic).

A benchmark declares a :class:`LabelSet`: each label with the words that say it (the label's
own name is always one; Spanish, French, German and Chinese forms of positive/negative,
true/false are added), and optionally what a negated label means.

Rules, in order (on the cleaned reply):

1. No text: ``empty``; a self-correction ("Biased. Actually, no: non-biased.") is read as
   in :mod:`biasaudit.answers.choice` (a bare "no" / "yes" after the marker is the set's
   no / yes label: "Toxic. Actually, no."; where the set has none, the label is taken back:
   ``retracted``, "Positive. Actually, no."; a refusal after the marker is ``refused``); a
   refusal opening is ``refused``.
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

from biasaudit.answers.choice import UNKNOWN_SAYING
from biasaudit.answers.reading import (
    EMPTY,
    REFUSED,
    Reading,
    Reason,
    answer,
    read_corrected,
    unparsed,
)
from biasaudit.answers.text import (
    clean,
    is_question,
    refuses,
    sentences,
    strip_label,
)
from biasaudit.answers.yesno import read_yes_no

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
    #: the labels a plain yes / no answer gives ("Is the passage toxic?" -> "No" is
    #: not_toxic), read by :func:`biasaudit.answers.read_yes_no` when no label word is said
    yes: str | None = None
    no: str | None = None
    #: the label of "the text does not tell" ("Not enough information" -> Neither)
    cannot_tell: str | None = None

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
                    word.lower().replace("_", "-"),
                    word.lower().replace("-", " "),
                }:
                    out.setdefault(form, label)
        return out


_NEGATION = re.compile(
    r"(?:\bnot|\bnon|\bisn't|\bno|\bnever|\bnor|\bneither)[\s-]*"
    r"(?:(?:very|really|quite|entirely|completely|too|so|at all)\s+)?$",
    re.I,
)
#: "The passage doesn't say", "Cannot tell", "Insufficient information".
CANNOT_TELL = re.compile(
    UNKNOWN_SAYING.pattern
    + r"|\b(?:cannot|can't|can not) tell\b|\b(?:does not|doesn't) (?:say|mention|state)\b",
    re.I,
)
_NEITHER_NOR = re.compile(r"\bneither\b.*\bnor\b", re.I)
_SEPARATOR = re.compile(
    r"^\s*(?:,|/|\bor\b|\bo\b|\bou\b|\boder\b|或)?\s*(?:\bor\b)?\s*(?:\d{1,2}[.)])?\s*"
    r"(?:not|non)?[\s-]*$",
    re.I,
)


def _mentions(text: str, vocabulary: dict[str, str]) -> list[tuple[int, int, str, bool]]:
    """(start, end, label, negated) of each label word, longest words first."""
    forms = sorted(vocabulary, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![\w-])(?:" + "|".join(re.escape(f) for f in forms) + r")(?![\w-])", re.I
    )
    found = []
    for m in pattern.finditer(text):
        negated = _NEGATION.search(text, 0, m.start()) is not None  # ends where the word starts
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
    head, colon, tail = text.rpartition(":")
    if colon and tail.strip() and len(_mentions(head, vocabulary)) > 1:
        return _read_part(tail.strip(), labels)  # "True or false: true"
    for s in sentences(text):
        if _NEITHER_NOR.search(s):
            continue  # "neither X nor Y" lists what it is not: no echo
        found = _mentions(s, vocabulary)
        for (_, end, a, neg_a), (start, _, b, neg_b) in itertools.pairwise(found):
            different = _resolve(a, neg_a, labels) != _resolve(b, neg_b, labels)
            if different and _SEPARATOR.match(s[end:start]):
                return unparsed(Reason.ECHO_OF_OPTIONS)
    if not body:
        return unparsed(Reason.QUESTION)
    for sentence in body:
        found = _mentions(sentence, vocabulary)
        if not found:
            continue
        _, _, label, negated = found[0]
        chosen = _resolve(label, negated, labels)
        negated_others = {b for _, _, b, neg in found[1:] if neg and b != label}
        if chosen is None or (negated and negated_others and chosen in negated_others):
            return unparsed(Reason.NEGATED)  # "not entailment" of three; "neither X nor Y"
        later = {_resolve(b, neg, labels) for _, _, b, neg in found[1:] if not neg}
        if later - {chosen, None}:
            return unparsed(Reason.TWO_ANSWERS)
        return answer(chosen)
    return _without_label_words(" ".join(body), labels)


def _without_label_words(text: str, labels: LabelSet) -> Reading:
    """No label word: the "cannot tell" label, or the label of a yes / no answer."""
    if labels.cannot_tell is not None and CANNOT_TELL.search(text):
        return answer(labels.cannot_tell)
    if labels.yes is not None and labels.no is not None:
        reading = read_yes_no(text)
        if reading.answered:
            return answer(labels.yes if reading.value == "yes" else labels.no)
        return reading
    return unparsed(Reason.NO_ANSWER)


def read_label(text: str | None, labels: LabelSet) -> Reading:
    """The label a reply commits to (rules: module docstring)."""
    if text is None:
        return EMPTY
    cleaned = strip_label(clean(text))
    if not cleaned:
        return EMPTY
    # "no: non-biased" reads the label; a bare "no" / "yes" (nothing after it) is the yes /
    # no answer where the set maps one ("Toxic. Actually, no.")
    return read_corrected(cleaned, lambda part: _read_part(part, labels), drop_lead=True)
