"""Statements and their context-added versions.

Statements use the authors' CSV layout: columns ``id, sentence, target_term, context_points``
(``target_term`` and ``context_points`` may be missing or empty; extra columns are ignored).

Context-added versions are read from either
- a JSON-lines file, one statement per line: ``{"id": "12", "versions": ["...", ...]}``
  (extra keys such as ``template`` or ``settings`` are allowed and ignored; ids are compared
  as strings), which is the layout of the released ``cobias/context_added_*.jsonl`` and of
  what ``biasaudit cobias generate-contexts`` writes; or
- a directory of the authors' ``{id}.pkl`` files, read only through `safe_pickle`.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from biasaudit.benchmarks.cobias.safe_pickle import load_string_list
from biasaudit.data import DataStore
from biasaudit.datasets.crows_pairs import CROWS_PAIRS_KEY as CROWS_PAIRS_KEY
from biasaudit.datasets.files import check_row_width, read_csv
from biasaudit.datasets.files import iter_json_lines as iter_json_lines
from biasaudit.datasets.stereoset import STEREOSET_KEY as STEREOSET_KEY
from biasaudit.errors import DataError

DATASET_KEY = "cobias/datasets/COBIAS.csv"
CONTEXTS_KEY = "cobias/context_added_cobias.jsonl"
OTHER_DATASETS_KEY = "cobias/eval_data/processed_combined.csv"
OTHER_CONTEXTS_KEY = "cobias/context_added_other_datasets.jsonl"
PAIRS_KEY = "cobias/datasets/DATASET.csv"
RATINGS_KEY = "cobias/annotations/annotations_metric_validation.csv"
RELEASED_SCORES_KEY = "cobias/annotations/cobias_scores_metric_validations.csv"

Selection = Literal["reference", "first"]


@dataclass(frozen=True)
class Statement:
    id: str
    sentence: str
    target_term: str = ""
    context_points: str = ""


def resolve(name: str, store: DataStore) -> Path:
    """A pinned key through the verified store, anything else as a local path."""
    if store.is_pinned(name):
        return store.path(name)
    path = Path(name).expanduser()
    if not path.exists():
        raise DataError(f"{name}: no such file and not a pinned data source key")
    return path


def read_statements(path: Path) -> list[Statement]:
    """Statements from a CSV in the authors' layout; ids must be unique and non-empty, and
    every row must have as many fields as the header."""
    columns, rows = read_csv(path)
    missing = [c for c in ("id", "sentence") if c not in columns]
    if missing:
        raise DataError(
            f"{path}: missing column(s) {', '.join(missing)} "
            f"(expected id, sentence, target_term, context_points)"
        )
    statements: list[Statement] = []
    seen: dict[str, int] = {}
    for line_no, row in rows:
        check_row_width(path, line_no, row, columns)
        sid = (row.get("id") or "").strip()
        if not sid:
            raise DataError(f"{path}: row {line_no}: empty id")
        if sid in seen:
            raise DataError(
                f"{path}: row {line_no}: duplicate id {sid!r} (first at row {seen[sid]})"
            )
        seen[sid] = line_no
        sentence = (row.get("sentence") or "").strip()
        if not sentence:  # nothing to add context to: every sample would be excluded
            raise DataError(f"{path}: row {line_no}: empty sentence (statement {sid!r})")
        statements.append(
            Statement(
                id=sid,
                sentence=sentence,
                target_term=(row.get("target_term") or "").strip(),
                context_points=(row.get("context_points") or "").strip(),
            )
        )
    if not statements:
        raise DataError(f"{path}: no statements (only a header, or an empty file)")
    return statements


def write_statements(
    path: Path, statements: Iterable[Statement], extra: Sequence[dict[str, str]] | None = None
) -> None:
    """Write statements in the authors' layout, with optional extra columns per row."""
    rows = list(statements)
    extra_rows = list(extra) if extra is not None else [{} for _ in rows]
    extra_columns = list(dict.fromkeys(k for e in extra_rows for k in e))
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "sentence", "target_term", "context_points", *extra_columns])
        for statement, more in zip(rows, extra_rows, strict=True):
            writer.writerow(
                [
                    statement.id,
                    statement.sentence,
                    statement.target_term,
                    statement.context_points,
                    *(more.get(c, "") for c in extra_columns),
                ]
            )


def read_contexts_jsonl(path: Path) -> dict[str, list[str]]:
    versions: dict[str, list[str]] = {}
    for line_no, record in iter_json_lines(path):
        if not isinstance(record, dict) or "id" not in record:
            raise DataError(f"{path}: line {line_no}: expected an object with 'id'")
        raw_id = record["id"]
        if isinstance(raw_id, bool) or not isinstance(raw_id, str | int) or not str(raw_id):
            raise DataError(f"{path}: line {line_no}: 'id' must be a non-empty string or integer")
        items = record.get("versions")
        if not isinstance(items, list) or not all(isinstance(v, str) for v in items):
            raise DataError(f"{path}: line {line_no}: 'versions' must be a list of strings")
        sid = str(raw_id)
        if not items or not any(v.strip() for v in items):
            raise DataError(f"{path}: line {line_no}: no versions for id {sid!r} (an empty list)")
        if sid in versions:
            raise DataError(f"{path}: line {line_no}: duplicate id {sid!r}")
        versions[sid] = items
    if not versions:
        raise DataError(f"{path}: no context-added versions (an empty file)")
    return versions


def write_contexts_jsonl(path: Path, versions: dict[str, list[str]]) -> None:
    """Write ``{"id": ..., "versions": [...]}`` lines, the layout `read_contexts` reads."""
    with path.open("w", encoding="utf-8") as handle:
        for sid, items in versions.items():
            handle.write(json.dumps({"id": sid, "versions": items}, ensure_ascii=False) + "\n")


def read_contexts_pickles(folder: Path) -> dict[str, list[str]]:
    """The authors' layout: one ``{id}.pkl`` (a list of strings) per statement."""
    files = sorted(folder.glob("*.pkl"))
    if not files:
        raise DataError(f"{folder}: no .pkl files (expected one {{id}}.pkl per statement)")
    return {path.stem: load_string_list(path) for path in files}


def read_contexts(path: Path) -> dict[str, list[str]]:
    """Context-added versions by statement id, from a JSONL file or a folder of pickles."""
    if path.is_dir():
        return read_contexts_pickles(path)
    return read_contexts_jsonl(path)


def select_versions(
    order: Sequence[str],
    versions: dict[str, list[str]],
    n: int | None,
    mode: Selection,
    seed: int,
) -> dict[str, list[str]]:
    """Pick at most `n` versions per statement.

    ``reference`` reproduces the authors' scorer: one NumPy RNG seeded once (42 in the repo),
    shuffling each statement's list in dataset order, then keeping the first n. Which
    versions a statement gets therefore depends on the dataset order, as in the repo.
    ``first`` keeps the first n as stored.
    """
    rng = np.random.RandomState(seed)
    chosen: dict[str, list[str]] = {}
    for sid in order:
        if sid not in versions:
            continue
        items = list(versions[sid])
        if mode == "reference":
            rng.shuffle(items)
        chosen[sid] = items if n is None else items[:n]
    return chosen
