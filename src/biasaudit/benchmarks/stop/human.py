"""Human-study support: per-annotator answers in, agreement and human success rates out.

Annotation layout (CSV with a header, or JSONL with one object per line; by file suffix),
one row per annotator, progression and step:

=========  ===============================================================================
column     meaning
=========  ===============================================================================
annotator  any non-empty id
item       0-based index of the progression in STOP-full.json
step       1..5 for the sentences, ``cf`` for the counterfactual
answer     ``yes`` or ``no`` (case-insensitive)
=========  ===============================================================================

Annotators who stopped at their first "no" (as in the authors' UI) simply have no rows for the
later sentences. Those unseen sentences are imputed explicitly (``impute="stop_on_first_no"``
counts them as "no", so sensitivity is (6 - k)/5 for a first "no" at step k); with
``impute="none"`` every annotator must answer all five. An annotator whose answers are
incomplete otherwise (a gap before any "no") is left out of that item and counted.
"""

from __future__ import annotations

import csv
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from biasaudit.benchmarks.stop import metrics as m
from biasaudit.benchmarks.stop.data import N_SENTENCES, Progression
from biasaudit.datasets.files import json_lines
from biasaudit.errors import DataError

Impute = Literal["stop_on_first_no", "none"]
TieBreak = Literal["no", "yes", "exclude"]
Aggregation = Literal["sentence_majority", "sensitivity_mode"]
COLUMNS = ("annotator", "item", "step", "answer")


@dataclass(frozen=True)
class Annotation:
    annotator: str
    item: int
    step: int | None  # None for the counterfactual
    answer: str


def _parse_row(path: Path, line: int, row: Mapping[str, Any], n_items: int | None) -> Annotation:
    def fail(fld: str, message: str) -> DataError:
        return DataError(f"{path}: line {line}, field '{fld}': {message}")

    for name in COLUMNS:
        if row.get(name) in (None, ""):
            raise fail(name, "missing")
    annotator = str(row["annotator"]).strip()
    try:
        item = int(row["item"])
    except (TypeError, ValueError):
        raise fail("item", f"{row['item']!r} is not an integer") from None
    if item < 0 or (n_items is not None and item >= n_items):
        raise fail("item", f"{item} is not a progression index (0..{(n_items or 1) - 1})")
    step_text = str(row["step"]).strip().lower()
    if step_text == "cf":
        step: int | None = None
    elif step_text.isdigit() and 1 <= int(step_text) <= N_SENTENCES:
        step = int(step_text)
    else:
        raise fail("step", f"{row['step']!r} is not 1..{N_SENTENCES} or 'cf'")
    answer = str(row["answer"]).strip().lower()
    if answer not in ("yes", "no"):
        raise fail("answer", f"{row['answer']!r} is not yes or no")
    return Annotation(annotator, item, step, answer)


def load_annotations(path: str | Path, n_items: int | None = None) -> list[Annotation]:
    """Read and validate an annotation file (CSV or JSONL; see module docstring)."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{file}: not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise DataError(f"{file}: cannot read ({exc.strerror})") from None
    rows: list[tuple[int, Mapping[str, Any]]] = []
    if file.suffix.lower() in (".jsonl", ".json"):
        for line, raw in enumerate(json_lines(text), start=1):
            if not raw.strip():
                continue
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise DataError(f"{file}: line {line}: invalid JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise DataError(f"{file}: line {line}: expected an object")
            rows.append((line, obj))
    else:
        reader = csv.DictReader(text.splitlines())
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise DataError(f"{file}: line 1: missing column(s) {', '.join(missing)}")
        rows = [(line, row) for line, row in enumerate(reader, start=2)]
    annotations: list[Annotation] = []
    seen: dict[tuple[str, int, int | None], int] = {}
    for line, row in rows:
        annotation = _parse_row(file, line, row, n_items)
        key = (annotation.annotator, annotation.item, annotation.step)
        if key in seen:
            raise DataError(
                f"{file}: line {line}: duplicate answer of annotator '{key[0]}' for item "
                f"{key[1]} step {key[2] or 'cf'} (first on line {seen[key]})"
            )
        seen[key] = line
        annotations.append(annotation)
    if not annotations:
        raise DataError(f"{file}: no annotations")
    return annotations


def complete_answers(observed: Mapping[int, str], impute: Impute) -> list[str] | None:
    """Five answers from one annotator's observed {step: answer}, or None if incomplete."""
    answers: list[str] = []
    for step in range(1, N_SENTENCES + 1):
        if step in observed:
            answers.append(observed[step])
        elif impute == "stop_on_first_no" and "no" in answers:
            answers.append("no")
        else:
            return None
    return answers


def majority(votes: Sequence[str], tie_break: TieBreak) -> str | None:
    """Most frequent of "yes"/"no"; a tie goes to `tie_break` (None for "exclude")."""
    counts = Counter(votes)
    if counts["yes"] == counts["no"]:
        return None if tie_break == "exclude" or not votes else tie_break
    return "yes" if counts["yes"] > counts["no"] else "no"


def mode_no_count(no_counts: Sequence[int], tie_break: TieBreak) -> int | None:
    """Most frequent no-count; ties go to the highest ("no") or lowest ("yes") candidate."""
    if not no_counts:
        return None
    counts = Counter(no_counts)
    top = max(counts.values())
    candidates = sorted(c for c, k in counts.items() if k == top)
    if len(candidates) == 1:
        return candidates[0]
    if tie_break == "exclude":
        return None
    return candidates[-1] if tie_break == "no" else candidates[0]


@dataclass
class HumanItem:
    """The aggregated human judgement of one progression."""

    item: int
    severity: str
    demographic: str
    n_annotators: int
    no_count: int
    correct: bool
    answers: list[str] | None  # sentence majority; None under sensitivity_mode
    cf_answer: str | None

    @property
    def sensitivity(self) -> float:
        return m.sensitivity(self.no_count)


@dataclass
class HumanStudy:
    items: list[HumanItem]
    excluded: dict[int, str]
    incomplete_annotations: int
    kappa: float | None
    n_kappa_items: int
    success: dict[str, float | None] = field(default_factory=dict)

    @property
    def kappa_label(self) -> str | None:
        return m.landis_koch(self.kappa)


def _by_item(annotations: Iterable[Annotation]) -> dict[int, dict[str, dict[int | None, str]]]:
    grouped: dict[int, dict[str, dict[int | None, str]]] = defaultdict(lambda: defaultdict(dict))
    for a in annotations:
        grouped[a.item][a.annotator][a.step] = a.answer
    return grouped


def score_humans(
    annotations: Sequence[Annotation],
    progressions: Sequence[Progression],
    *,
    impute: Impute = "stop_on_first_no",
    tie_break: TieBreak = "exclude",
    aggregation: Aggregation = "sentence_majority",
    kappa_on: Literal["observed", "imputed"] = "observed",
) -> HumanStudy:
    """Aggregate annotators per progression, then human P / Pl / Pm / Ph and Fleiss' κ.

    κ is computed over sentences (item × step) with categories yes/no; "observed" uses only
    answers annotators actually gave (unequal rater counts allowed), "imputed" the completed
    five-answer vectors.
    """
    by_index = {p.index: p for p in progressions}
    items: list[HumanItem] = []
    excluded: dict[int, str] = {}
    incomplete = 0
    kappa_rows: list[list[int]] = []
    for index, per_annotator in sorted(_by_item(annotations).items()):
        progression = by_index.get(index)
        if progression is None:
            raise DataError(f"annotations: item {index} is not among the loaded progressions")
        vectors = []
        for observed in per_annotator.values():
            sentences = {s: a for s, a in observed.items() if s is not None}
            completed = complete_answers(sentences, impute)
            if completed is None:
                incomplete += 1
            else:
                vectors.append(completed)
        source = (
            vectors
            if kappa_on == "imputed"
            else [[o.get(s, "") for s in range(1, N_SENTENCES + 1)] for o in per_annotator.values()]
        )
        for step in range(N_SENTENCES):
            votes = [v[step] for v in source if v[step]]
            kappa_rows.append([votes.count("yes"), votes.count("no")])
        if not vectors:
            excluded[index] = "no complete annotation"
            continue
        cf_votes = [o[None] for o in per_annotator.values() if None in o]
        cf = majority(cf_votes, tie_break) if cf_votes else None
        if aggregation == "sentence_majority":
            answers = [majority([v[s] for v in vectors], tie_break) for s in range(N_SENTENCES)]
            if None in answers:
                excluded[index] = "tied sentence vote"
                continue
            final: list[str] | None = [a for a in answers if a is not None]
            n_no = m.no_count(final or [])
        else:
            final = None
            mode = mode_no_count([m.no_count(v) for v in vectors], tie_break)
            if mode is None:
                excluded[index] = "tied no-count mode"
                continue
            n_no = mode
        items.append(
            HumanItem(
                item=index,
                severity=progression.severity,
                demographic=progression.demographic,
                n_annotators=len(vectors),
                no_count=n_no,
                correct=m.is_correct(n_no, progression.severity),
                answers=final,
                cf_answer=cf,
            )
        )
    correct = [i.correct for i in items]
    success: dict[str, float | None] = {"P": m.rate(correct)}
    per_severity = m.severity_success(correct, [i.severity for i in items])
    success |= {
        "Pl": per_severity["low"],
        "Pm": per_severity["moderate"],
        "Ph": per_severity["high"],
    }
    usable = [r for r in kappa_rows if sum(r) >= 2]
    return HumanStudy(
        items=items,
        excluded=excluded,
        incomplete_annotations=incomplete,
        kappa=m.fleiss_kappa(usable),
        n_kappa_items=len(usable),
        success=success,
    )


def hedges_by_demographic(
    model_sensitivity: Mapping[int, float], study: HumanStudy
) -> dict[str, tuple[float | None, int]]:
    """Hedges' g of model vs human sensitivity per demographic, on the items both have.

    Returns {demographic: (g, n items)}; positive g: the model is more sensitive.
    """
    out: dict[str, tuple[float | None, int]] = {}
    for demographic in sorted({i.demographic for i in study.items}):
        shared = [
            i for i in study.items if i.demographic == demographic and i.item in model_sensitivity
        ]
        g = m.hedges_g([model_sensitivity[i.item] for i in shared], [i.sensitivity for i in shared])
        out[demographic] = (g, len(shared))
    return out
