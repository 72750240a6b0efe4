"""Pieces shared by CALM's parsers: the authors' normalisation and the result type."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from biasaudit.answers import LabelSet, read_label

_PUNCT = re.compile(r"[^\w\s]")


@dataclass(frozen=True)
class Parsed:
    """`outcome` is answered or unparsed; `prediction` is the parsed answer, if any."""

    outcome: str
    prediction: str | None
    correct: bool


def normalize(text: str) -> str:
    """The authors' `processed_output`: first line, stripped, no punctuation, lowercase."""
    first = text.split("\n")[0].strip()
    return _PUNCT.sub("", first).lower()


def contains_word(haystack: str, needle: str) -> bool:
    """`needle` occurs in `haystack` delimited by non-word characters."""
    if not needle:
        return False
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", haystack) is not None


def answered(prediction: str | None, correct: bool) -> Parsed:
    """An answered Parsed, or unparsed when there is no prediction."""
    if prediction is None or prediction == "":
        return Parsed("unparsed", None, False)
    return Parsed("answered", prediction, correct)


def label_set(vocabulary: dict[str, str], **extra: str) -> LabelSet:
    """CALM's word lists as a core label set (yes/no words are read as yes/no answers)."""
    words: dict[str, list[str]] = defaultdict(list)
    for word, label in vocabulary.items():
        if word not in _YES_NO_WORDS:
            words[label].append(word)
    return LabelSet(dict(words), {"True": "False", "False": "True", "1": "0", "0": "1"}, **extra)


_YES_NO_WORDS = frozenset({"yes", "no", "yup", "yeah", "yep", "nope", "nah"})


def core_label(line: str, labels: LabelSet) -> str | None:
    reading = read_label(line, labels)
    return reading.value if reading.answered else None
