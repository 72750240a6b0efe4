"""BEADs label vocabularies and their normalisation (spec §2.4, §7.2 "Labels").

The released files spell labels many ways: ``0``/``1``/``1.0``, ``Biased``/``Non-Biased``,
``Neutral``/``Slightly Biased``/``Highly Biased`` (Full_Annotations, external), ``Bias``
(demographic templates), ``toxic`` floats. Each normaliser returns one canonical string or
raises `LabelError` with a message that the reader turns into a file/row/column error.

The sentiment ids 0/1/2 are not named in the paper (spec §2.4), so they stay as the strings
``"0"``, ``"1"``, ``"2"`` unless `LabelPolicy.sentiment_names` maps them.
"""

from __future__ import annotations

import ast
import json
import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

BIASED, NEUTRAL, UNCLEAR = "biased", "neutral", "unclear"
TOXIC, NON_TOXIC = "toxic", "non-toxic"
SENTIMENTS = ("negative", "neutral", "positive")
BIO_TAGS = ("O", "B-BIAS", "I-BIAS")


class LabelError(ValueError):
    """A value that is not in a label vocabulary."""


class LabelPolicy(BaseModel):
    """Choices the paper leaves open (spec §2.4)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: what "Slightly Biased" (ternary Full_Annotations label) becomes; the conventional
    #: binarisation (spec §2.4, inferred) is Neutral -> neutral, otherwise -> biased
    slightly_biased: Literal["biased", "neutral"] = "biased"
    #: names for numeric sentiment ids, e.g. {"0": "negative", "1": "neutral", "2": "positive"}
    sentiment_names: dict[str, str] | None = None


def _key(value: Any) -> str:
    """Lower-case, single-spaced, hyphens and underscores as spaces; numbers as integers."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int | float):
        if isinstance(value, float) and (math.isnan(value) or not value.is_integer()):
            return str(value)
        return str(int(value))
    text = re.sub(r"[\s_\-]+", " ", str(value)).strip().lower()
    if re.fullmatch(r"[+-]?\d+\.0+", text):
        return text.split(".")[0]
    return text


_BIAS = {
    "1": BIASED,
    "biased": BIASED,
    "bias": BIASED,
    "highly biased": BIASED,
    "moderately biased": BIASED,
    "0": NEUTRAL,
    "neutral": NEUTRAL,
    "non biased": NEUTRAL,
    "nonbiased": NEUTRAL,
    "not biased": NEUTRAL,
    "unbiased": NEUTRAL,
    "non bias": NEUTRAL,
    "unclear": UNCLEAR,
}


def bias_label(value: Any, policy: LabelPolicy | None = None) -> str:
    """``biased`` / ``neutral`` / ``unclear`` from any released spelling."""
    key = _key(value)
    if key == "slightly biased":
        return (policy or LabelPolicy()).slightly_biased
    if key in _BIAS:
        return _BIAS[key]
    raise LabelError(f"unknown bias label {value!r} (expected 0/1, Biased, Neutral, ...)")


_TOXIC = {
    "1": TOXIC,
    "toxic": TOXIC,
    "0": NON_TOXIC,
    "non toxic": NON_TOXIC,
    "nontoxic": NON_TOXIC,
    "not toxic": NON_TOXIC,
}


def toxicity_label(value: Any) -> str:
    """``toxic`` / ``non-toxic`` from 0/1, 0.0/1.0 or the label names."""
    key = _key(value)
    if key in _TOXIC:
        return _TOXIC[key]
    raise LabelError(f"unknown toxicity label {value!r} (expected 0/1, Toxic, Non-toxic)")


def sentiment_label(value: Any, policy: LabelPolicy | None = None) -> str:
    """``negative`` / ``neutral`` / ``positive``, or a numeric id kept as its string."""
    key = _key(value)
    if key in SENTIMENTS:
        return key
    if key in {"0", "1", "2"}:
        names = (policy or LabelPolicy()).sentiment_names
        return names[key] if names and key in names else key
    raise LabelError(f"unknown sentiment label {value!r} (expected Positive/Neutral/Negative/0-2)")


#: The order an auditor most often means; shown in the hint, never applied silently.
SENTIMENT_HINT = '{"0": "negative", "1": "neutral", "2": "positive"}'


def check_sentiment_names(names: dict[str, str] | None) -> dict[str, str] | None:
    """Validate a `sentiment_names` map: ids 0/1/2 onto distinct sentiment names."""
    if names is None:
        return None
    bad_keys = sorted(set(names) - {"0", "1", "2"})
    if bad_keys:
        raise ValueError(f"sentiment_names: id {bad_keys[0]!r} is not 0, 1 or 2")
    for key, value in names.items():
        if value not in SENTIMENTS:
            raise ValueError(f"sentiment_names: {key!r} -> {value!r} is not one of {SENTIMENTS}")
    if len(set(names.values())) != len(names):
        raise ValueError("sentiment_names: two ids map onto the same sentiment")
    return names


def unnamed_sentiment_ids(labels: set[str]) -> str | None:
    """The one-line reason a sentiment file cannot be scored (numeric ids without names)."""
    ids = sorted(label for label in labels if label in {"0", "1", "2"})
    if not ids:
        return None
    return (
        f"sentiment labels {'/'.join(ids)} are numeric ids the paper never names; say which "
        f"is which with sentiment_names, e.g. sentiment_names='{SENTIMENT_HINT}' (check the "
        "order against the data)"
    )


_EMPTY_LIST = {"", "[]", "none", "n/a", "na", "no", "nan", "null"}


def string_list(value: Any) -> list[str]:
    """A Python-literal or JSON list of strings (``"['a', 'b']"``); empty markers give []."""
    if isinstance(value, list | tuple):
        items: Any = list(value)
    else:
        text = str(value).strip()
        if text.lower() in _EMPTY_LIST:
            return []
        if not text.startswith("["):
            raise LabelError(f"expected a list like ['a', 'b'], got {text[:60]!r}")
        try:
            items = json.loads(text)
        except json.JSONDecodeError:
            try:
                items = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                raise LabelError(f"malformed list {text[:60]!r}") from None
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise LabelError(f"expected a list of strings, got {str(value)[:60]!r}")
    return [i.strip() for i in items if i.strip()]


def bio_tag(value: Any) -> str:
    """``O`` / ``B-BIAS`` / ``I-BIAS`` (case-insensitive)."""
    key = str(value).strip().upper()
    if key in BIO_TAGS:
        return key
    raise LabelError(f"unknown BIO tag {value!r} (expected O, B-BIAS, I-BIAS)")
