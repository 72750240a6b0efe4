"""BEADs released files: where each split lives in the hub repository, and its columns.

Layout (spec §2.5, external): ``<config>/<split>`` -> file path in the hub repository. The
configs and split names are those of the 2024 card revision; names changed over time, so
`beads.BeadsData` also takes explicit ``files`` and column mappings. Parts of the layout the
spec marks unverified (the gated files were never inspected): the columns of the instruction
CSVs, ``multi-label.csv``, ``conll.csv`` and ``Demographic-variation.csv``. Their schemas
below are inferred from the paper's task formats; map other column names with ``columns``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from biasaudit.benchmarks.beads import dataset_labels as lab

REPO_ID = "shainar/BEAD"

#: (config, split) -> (path in the repository, schema name)
LAYOUT: dict[str, dict[str, tuple[str, str]]] = {
    "Full_Annotations": {"full": ("0-Full Annotations/Full.csv", "full")},
    "1-Text_Classification": {
        "bias_train": ("1-Text-Classification/bias-train.csv", "bias"),
        "bias_valid": ("1-Text-Classification/bias-valid.csv", "bias"),
        "bias_train_instruction": (
            "1-Text-Classification/bias-train_10k-instruction-data.csv",
            "instruction",
        ),
        "bias_valid_instruction": (
            "1-Text-Classification/bias-valid_1k-instruction-data.csv",
            "instruction",
        ),
        "sentiment_train": ("1-Text-Classification/sentiment-train.csv", "sentiment"),
        "sentiment_valid": ("1-Text-Classification/sentiment-valid.csv", "sentiment"),
        "toxic_train": ("1-Text-Classification/toxic-train.csv", "toxicity"),
        "toxic_valid": ("1-Text-Classification/toxic-valid.csv", "toxicity"),
        "multi_label": ("1-Text-Classification/multi-label.csv", "multi_label"),
    },
    "2-Token_Classification": {
        "bias_tokens": ("2-Token-Classification/Bias_tokens.csv", "bias_tokens"),
        "conll": ("2-Token-Classification/conll.csv", "conll"),
    },
    "3-Aspects": {"aspects": ("3-Aspects/aspects.csv", "aspects")},
    "4-Bias-Quantification-Demographics": {
        "demographic_template": (
            "4-Bias-Quantification-Demographics/demographic-template.csv",
            "demographic_template",
        ),
        "stereotype_prompts": (
            "4-Bias-Quantification-Demographics/stereotype_prompts.csv",
            "stereotypes",
        ),
        "demographic_variation": (
            "4-Bias-Quantification-Demographics/Demographic-variation.csv",
            "demographic_variation",
        ),
    },
    "5-Language-Generation": {
        "bias_debias": ("5-Language-Generation/bias-debias.csv", "debias"),
    },
}

Normaliser = Callable[[Any, lab.LabelPolicy], Any]


def _text(value: Any, policy: lab.LabelPolicy) -> str:
    text = "" if value is None else str(value).strip()
    if not text or text.lower() == "nan":
        raise lab.LabelError("empty text")
    return text


def _optional(value: Any, policy: lab.LabelPolicy) -> str | None:
    text = "" if value is None else str(value).strip()
    return text or None


@dataclass(frozen=True)
class Column:
    """One canonical field: accepted header names, requiredness, value normaliser."""

    name: str
    aliases: tuple[str, ...] = ()
    required: bool = True
    normalise: Normaliser = _text


_BIAS = Column("label", ("bias", "bias_label", "labels"), normalise=lab.bias_label)
_TEXT = Column("text", ("biased_text", "sentence", "content"))

SCHEMAS: dict[str, tuple[Column, ...]] = {
    "full": (
        _TEXT,
        _BIAS,
        Column("dimension", required=False, normalise=_optional),
        Column("biased_words", required=False, normalise=lambda v, p: lab.string_list(v)),
        Column("aspect", required=False, normalise=_optional),
        Column("sentiment", required=False, normalise=lab.sentiment_label),
        Column(
            "toxic", ("toxicity",), required=False, normalise=lambda v, p: lab.toxicity_label(v)
        ),
        Column("identity_mention", required=False, normalise=_optional),
    ),
    "bias": (_TEXT, _BIAS, Column("dimension", required=False, normalise=_optional)),
    "toxicity": (
        _TEXT,
        Column("label", ("toxic", "toxicity"), normalise=lambda v, p: lab.toxicity_label(v)),
    ),
    "sentiment": (_TEXT, Column("label", ("sentiment",), normalise=lab.sentiment_label)),
    # unverified (spec §2.5): Alpaca-style columns assumed
    "instruction": (
        Column("instruction", ("prompt",), required=False, normalise=_optional),
        Column("input", ("text",)),
        Column("output", ("response", "label")),
    ),
    # unverified: one text column and any of the three label columns
    "multi_label": (
        _TEXT,
        Column("bias", ("label", "bias_label"), required=False, normalise=lab.bias_label),
        Column(
            "toxic", ("toxicity",), required=False, normalise=lambda v, p: lab.toxicity_label(v)
        ),
        Column("sentiment", required=False, normalise=lab.sentiment_label),
    ),
    "bias_tokens": (
        Column("text", ("sentence", "biased_text")),
        Column(
            "biased_words",
            ("biased_tokens", "tokens", "entities", "spans"),
            normalise=lambda v, p: lab.string_list(v),
        ),
    ),
    # unverified: one token per row, sentences identified by a sentence id column
    "conll": (
        Column("sentence_id", ("sentence #", "sentence", "sentence_idx", "sent_id", "id")),
        Column("token", ("word", "tokens")),
        Column("tag", ("label", "ner_tag", "bio", "tags"), normalise=lambda v, p: lab.bio_tag(v)),
    ),
    "aspects": (_TEXT, Column("aspect", ("aspects", "label"))),
    "demographic_template": (
        Column("text", ("template", "sentence")),
        _BIAS,
        Column("sentiment", required=False, normalise=lab.sentiment_label),
        Column(
            "identity",
            ("identity_mention", "target_group", "group"),
            required=False,
            normalise=_optional,
        ),
    ),
    "stereotypes": (
        Column("topic"),
        Column("target_group", ("group", "target")),
        Column("template", ("text", "statement")),
    ),
    # unverified: a varied sentence, its demographic group and (optionally) dimension and id
    "demographic_variation": (
        _TEXT,
        Column("group", ("variation", "demographic", "target_group", "demographic_group")),
        Column(
            "dimension", ("category", "demographic_dimension"), required=False, normalise=_optional
        ),
        Column(
            "base_id", ("sentence_id", "id", "original_id"), required=False, normalise=_optional
        ),
    ),
    "debias": (
        Column("biased_text", ("text", "original", "biased")),
        Column("debiased_text", ("benign_text", "debiased", "benign", "neutral_text")),
    ),
}
