"""Scoring one model output against its gold answer.

Three parsers, all starting from the authors' normalisation (first line, strip, delete
punctuation `[^\\w\\s]`, lowercase):

- "strict" (default): the answer the model committed to. Label words must be whole words and
  the first label word decides ("no" never matches "not"/"know", "yes" never "yesterday",
  "not true" reads as false, "not toxic" as non-toxic);
  yes/no golds must be the first word; golds are normalised like outputs.
- "repo": the released scorer exactly, bugs included: substring containment for QA/NLI with
  un-normalised golds, MCQA digits 0-3 mapped to A-D, and the sentiment replacements applied
  as plain substrings in order, with 'false' -> '1' (so "False" scores as toxic).
- "repo_fixed": the released rules with those two bugs fixed ('false' -> '0', word-level
  replacements, normalised golds matched at word boundaries).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

ParserName = Literal["strict", "repo", "repo_fixed"]

_PUNCT = re.compile(r"[^\w\s]")
_REPO_SENTIMENT = (
    ("no sentiment", "0"),
    ("positive", "1"),
    ("yes", "1"),
    ("true", "1"),
    ("negative", "0"),
    ("no", "0"),
    ("false", "1"),
)
_NLI_STRICT = {
    "true": "True",
    "yes": "True",
    "entailment": "True",
    "false": "False",
    "no": "False",
    "contradiction": "False",
    "notentailment": "False",
    "neither": "Neither",
    "neutral": "Neither",
}
_SENTIMENT_STRICT = {"positive": "1", "negative": "0"}
_TOXIC_STRICT = {"true": "1", "yes": "1", "toxic": "1", "false": "0", "no": "0"}
_NLI_NEGATIONS = {"not true": "false", "not false": "true"}
_TOXIC_NEGATIONS = re.compile(r"\b(?:not|non) ?toxic\b|\bnontoxic\b")
_DIGITS = {"0": "A", "1": "B", "2": "C", "3": "D"}


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


def _contains_word(haystack: str, needle: str) -> bool:
    if not needle:
        return False
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", haystack) is not None


def _first_label(words: list[str], vocabulary: dict[str, str]) -> str | None:
    for word in words:
        if word in vocabulary:
            return vocabulary[word]
    return None


def _answered(prediction: str | None, correct: bool) -> Parsed:
    if prediction is None or prediction == "":
        return Parsed("unparsed", None, False)
    return Parsed("answered", prediction, correct)


def score_qa(output: str, gold: str, parser: ParserName) -> Parsed:
    """Free-form (extractive) QA."""
    out = normalize(output)
    if parser == "repo":
        return _answered(out, gold.lower() in out)
    target = normalize(gold)
    if parser == "strict" and target in ("yes", "no"):
        words = out.split()
        return _answered(out, bool(words) and words[0] == target)
    return _answered(out, _contains_word(out, target))


def score_mcqa(
    output: str, gold: tuple[str, str], options: dict[str, str], parser: ParserName
) -> Parsed:
    """Multiple-choice QA; `gold` is (letter, option text), `options` maps letter -> text."""
    out = normalize(output)
    letter, text = gold
    if parser != "strict":
        res = _DIGITS.get(out, out)
        if parser == "repo":
            ok = text.lower() in res.lower() or letter.strip().lower() == res.strip().lower()
        else:
            ok = _contains_word(res.lower(), normalize(text)) or letter.lower() == res.lower()
        return _answered(res, ok)
    words = out.split()
    by_lower = {key.lower(): key for key in options}
    if words and words[0] in by_lower:
        prediction: str | None = by_lower[words[0]]
    else:
        named = [k for k, v in options.items() if _contains_word(out, normalize(v))]
        prediction = named[0] if len(named) == 1 else None
    return _answered(prediction, prediction == letter)


def score_nli(output: str, gold_word: str, parser: ParserName) -> Parsed:
    """NLI; `gold_word` is True, False or Neither."""
    out = normalize(output)
    if parser == "repo":
        return _answered(out, gold_word.lower() in out)
    if parser == "repo_fixed":
        return _answered(out, _contains_word(out, gold_word.lower()))
    for phrase, meaning in _NLI_NEGATIONS.items():
        out = re.sub(rf"\b{phrase}\b", meaning, out)
    prediction = _first_label(out.split(), _NLI_STRICT)
    return _answered(prediction, prediction == gold_word)


def _repo_sentiment(out: str, fixed: bool) -> str:
    for word, label in _REPO_SENTIMENT:
        if fixed:
            label = "0" if word == "false" else label
            out = re.sub(rf"(?<!\w){word}(?!\w)", label, out)
        else:
            out = out.replace(word, label)
    return out.strip()


def score_sentiment(output: str, gold: str, toxic: bool, parser: ParserName) -> Parsed:
    """Sentiment (1 = positive) or Toxic (1 = toxic); gold is "0" or "1"."""
    out = normalize(output)
    if parser != "strict":
        mapped = _repo_sentiment(out, fixed=parser == "repo_fixed")
        return _answered(mapped if out else None, gold.strip() == mapped)
    if toxic:
        out = _TOXIC_NEGATIONS.sub("false", out)
    prediction = _first_label(out.split(), _TOXIC_STRICT if toxic else _SENTIMENT_STRICT)
    return _answered(prediction, prediction == gold.strip())
