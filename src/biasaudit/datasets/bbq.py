"""BBQ (Parrish et al., ACL Findings 2022): pinned files and a typed reader.

The release (github.com/nyu-mll/BBQ, ``data/*.jsonl``) has 58,492 rows in 11 category files.
Each row: ``example_id`` (unique within its category), ``question_index`` (the template id),
``question_polarity`` (``neg``/``nonneg``), ``context_condition`` (``ambig``/``disambig``),
``context``, ``question``, ``ans0..ans2``, ``label`` (the correct option), ``answer_info``
(per option ``[text, group info]``) and ``additional_metadata``.

The biased option (``target_loc``) is not in the rows: `load_bbq` derives it with the port of the
authors' ``BBQ_results_metadata.R`` (`biasaudit.datasets.bbq_targets`) from the rows and the
templates; 16 Gender_identity rows get none (the script's own "is actually 16"), and the
authors' scoring drops them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from biasaudit.data import DataStore
from biasaudit.datasets.bbq_targets import (
    TargetMeta,
    derive_target_metadata,
    targets_by_example,
)
from biasaudit.datasets.bbq_templates import read_template_groups
from biasaudit.datasets.files import json_lines, parse_json, read_text
from biasaudit.errors import DataError

BBQ_CATEGORIES: tuple[str, ...] = (
    "Age",
    "Disability_status",
    "Gender_identity",
    "Nationality",
    "Physical_appearance",
    "Race_ethnicity",
    "Race_x_SES",
    "Race_x_gender",
    "Religion",
    "SES",
    "Sexual_orientation",
)
INTERSECTIONAL = ("Race_x_SES", "Race_x_gender")
_ROOT = "downstream/bbq"
TEMPLATE_KEYS: tuple[str, ...] = (
    *(f"{_ROOT}/templates/new_templates_{c}.csv" for c in (*BBQ_CATEGORIES, "Filler_items")),
    f"{_ROOT}/templates/vocabulary.csv",
    f"{_ROOT}/templates/vocabulary_proper_names.csv",
)
SCRIPT_KEYS: tuple[str, ...] = (
    f"{_ROOT}/analysis_scripts/BBQ_results_metadata.R",
    f"{_ROOT}/analysis_scripts/BBQ_calculate_bias_score.R",
)
LICENSE_KEY = f"{_ROOT}/LICENSE"
CITATION = (
    "Parrish, Chen, Nangia, Padmakumar, Phang, Thompson, Htut, Bowman. BBQ: A Hand-Built Bias "
    "Benchmark for Question Answering. Findings of ACL 2022. arXiv:2110.08193"
)


def data_key(category: str) -> str:
    """Pinned key of one category file."""
    return f"{_ROOT}/{category}.jsonl"


def template_key(category: str) -> str:
    return f"{_ROOT}/templates/new_templates_{category}.csv"


def derivation_template_keys() -> list[str]:
    """Templates the R derivation reads (every category; Filler/vocabulary are skipped)."""
    return [template_key(c) for c in BBQ_CATEGORIES]


class BBQItem(BaseModel):
    """One BBQ row, with the derived biased-answer option."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    example_id: int
    category: str
    question_index: str
    question_polarity: str  # "neg" / "nonneg"
    context_condition: str  # "ambig" / "disambig"
    context: str
    question: str
    answers: tuple[str, str, str]
    label: int
    answer_info: dict[str, Any]
    additional_metadata: dict[str, Any]
    #: Option index of the biased answer (authors' R derivation); None: no target (excluded).
    target_loc: int | None
    #: Extension (not in the rows): "name" for proper-name proxies, "label" otherwise (R script).
    label_type: str | None = None
    #: How many metadata rows the authors' R merge gives this row (2 for the 64 Gender_identity
    #: Q12 rows: two template variants), i.e. how often BBQ_calculate_bias_score.R counts it.
    r_rows: int = 1

    @property
    def unknown_loc(self) -> int:
        """Option index of the "unknown" answer (answer_info says ``unknown``)."""
        for k in range(3):
            if self.answer_info[f"ans{k}"][1] == "unknown":
                return k
        raise DataError(f"BBQ {self.category} example {self.example_id}: no unknown option")

    @property
    def uid(self) -> str:
        return f"{self.category}/{self.example_id}"


class _RawRow(BaseModel):
    """Schema of one released row (validation only)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    example_id: int
    question_index: str
    question_polarity: str
    context_condition: str
    category: str
    answer_info: dict[str, list[str]]
    additional_metadata: dict[str, Any]
    context: str
    question: str
    ans0: str
    ans1: str
    ans2: str
    label: int


_ALLOWED = {
    "question_polarity": ("neg", "nonneg"),
    "context_condition": ("ambig", "disambig"),
}


@dataclass(frozen=True, slots=True)
class RawBBQRow:
    """A validated row before its target is derived (cheaper than a model while deriving)."""

    example_id: int
    category: str
    question_index: str
    question_polarity: str
    context_condition: str
    context: str
    question: str
    answers: tuple[str, str, str]
    label: int
    answer_info: dict[str, Any]
    additional_metadata: dict[str, Any]


def _parse_row(line: str, path: Path, number: int, category: str) -> RawBBQRow:
    where = f"{path}: row {number}"
    obj = parse_json(line, where, one_line=True)
    if not isinstance(obj, dict):
        raise DataError(f"{where}: expected a JSON object")
    try:
        raw = _RawRow.model_validate(obj)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        raise DataError(f"{where}: field {field}: {err['msg']}") from None
    for field, allowed in _ALLOWED.items():
        if getattr(raw, field) not in allowed:
            raise DataError(f"{where}: field {field}: {getattr(raw, field)!r} not in {allowed}")
    if raw.category != category:
        raise DataError(f"{where}: field category: {raw.category!r} in the {category} file")
    if raw.label not in (0, 1, 2):
        raise DataError(f"{where}: field label: {raw.label} is not 0, 1 or 2")
    if sorted(raw.answer_info) != ["ans0", "ans1", "ans2"]:
        raise DataError(f"{where}: field answer_info: keys {sorted(raw.answer_info)}")
    for key, pair in raw.answer_info.items():
        if len(pair) != 2:
            raise DataError(f"{where}: field answer_info.{key}: expected [text, info]")
    if sum(pair[1] == "unknown" for pair in raw.answer_info.values()) != 1:
        raise DataError(f"{where}: field answer_info: expected exactly one 'unknown' option")
    return RawBBQRow(
        example_id=raw.example_id,
        category=raw.category,
        question_index=raw.question_index,
        question_polarity=raw.question_polarity,
        context_condition=raw.context_condition,
        context=raw.context,
        question=raw.question,
        answers=(raw.ans0, raw.ans1, raw.ans2),
        label=raw.label,
        answer_info=raw.answer_info,
        additional_metadata=raw.additional_metadata,
    )


def read_bbq_rows(path: Path, category: str) -> list[RawBBQRow]:
    rows: list[RawBBQRow] = []
    seen: set[int] = set()
    for number, line in enumerate(json_lines(read_text(path)), start=1):
        if not line.strip():
            continue
        row = _parse_row(line, path, number, category)
        if row.example_id in seen:
            raise DataError(f"{path}: row {number}: duplicate example_id {row.example_id}")
        seen.add(row.example_id)
        rows.append(row)
    if not rows:
        raise DataError(f"{path}: no rows")
    return rows


def _with_targets(rows: Sequence[RawBBQRow], metas: Sequence[TargetMeta]) -> list[BBQItem]:
    """Items with target_loc and label_type from the derived metadata.

    A row matched by several template variants (Gender_identity Q12: 64 rows) gets the common
    value; if the variants disagreed the row would get None (never happens in the release).
    """
    by_example = targets_by_example(metas)
    out: list[BBQItem] = []
    for row in rows:
        found = by_example.get((row.category, row.example_id), [])
        targets = {m.target_loc for m in found}
        label_types = {m.label_type for m in found}
        out.append(
            BBQItem.model_construct(  # every field validated in _parse_row
                **{f: getattr(row, f) for f in row.__slots__},
                target_loc=targets.pop() if len(targets) == 1 else None,
                label_type=label_types.pop() if len(label_types) == 1 else None,
                r_rows=len(found),
            )
        )
    return out


def load_bbq_metadata(
    store: DataStore, categories: Sequence[str] | None = None
) -> tuple[list[BBQItem], list[TargetMeta]]:
    """Items (with target_loc) and the R script's metadata rows for `categories`."""
    chosen = _check_categories(categories)
    rows: list[RawBBQRow] = []
    for category in chosen:
        rows.extend(read_bbq_rows(store.path(data_key(category)), category))
    templates = read_template_groups(store.path(k) for k in derivation_template_keys())
    metas = derive_target_metadata(rows, templates)
    return _with_targets(rows, metas), metas


def load_bbq(store: DataStore, categories: Sequence[str] | None = None) -> list[BBQItem]:
    """BBQ rows of `categories` (default all 11), in file order, with derived target_loc."""
    return load_bbq_metadata(store, categories)[0]


def _check_categories(categories: Sequence[str] | None) -> list[str]:
    if categories is None:
        return list(BBQ_CATEGORIES)
    unknown = [c for c in categories if c not in BBQ_CATEGORIES]
    if unknown:
        raise DataError(
            f"unknown BBQ categor{'y' if len(unknown) == 1 else 'ies'} {', '.join(unknown)}; "
            f"choose from {', '.join(BBQ_CATEGORIES)}"
        )
    if not categories:
        raise DataError("no BBQ category selected")
    return list(dict.fromkeys(categories))
