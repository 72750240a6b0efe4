"""BEADs (Raza et al., arXiv 2406.04220) released files: readers.

The dataset is gated on the Hugging Face hub (``shainar/BEAD``); `beads_hub.fetch_beads`
downloads it with the user's own token into the layout of `beads_layout` (configs, splits,
file paths and column schemas), or the user points `BeadsData` at a copy they already have.
Files are CSV, parquet, JSON or JSONL (by suffix).

Every problem is a one-line `DataError` naming the file, the 1-based data row (header not
counted) and the column.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.benchmarks.beads import dataset_labels as lab
from biasaudit.benchmarks.beads.dataset_layout import LAYOUT, REPO_ID, SCHEMAS, Column
from biasaudit.datasets.files import iter_json_lines, load_json, read_csv
from biasaudit.errors import DataError

# LAYOUT, REPO_ID, SCHEMAS and Column moved to beads_layout; imported from here elsewhere
__all__ = [
    "LAYOUT",
    "REPO_ID",
    "SCHEMAS",
    "BeadsData",
    "Column",
    "Loaded",
    "Row",
    "Sentence",
    "all_splits",
    "conll_sentences",
    "load_file",
    "split_of",
]


@dataclass(frozen=True)
class Row:
    """One validated row: canonical field -> normalised value, with where it came from."""

    file: str
    row: int
    values: dict[str, Any]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def get(self, name: str, default: Any = None) -> Any:
        value = self.values.get(name)
        return default if value is None else value


@dataclass
class Loaded:
    """Rows of one file, the rows skipped (``on_error="skip"``) and why."""

    file: str
    schema: str
    rows: list[Row]
    skipped: list[str] = field(default_factory=list)


def _records(path: Path) -> Iterator[tuple[list[str], dict[str, Any] | None, str | None]]:
    """(header, record, problem) of a CSV / parquet / JSON / JSONL file, in file order.

    A record that cannot be read as one row comes with ``record=None`` and the problem.
    """
    suffix = path.suffix.lower()
    if suffix in {".csv", ".tsv"}:
        header, rows = read_csv(path, delimiter="\t" if suffix == ".tsv" else ",")
        for _, record in rows:
            if None in record:
                yield header, None, "more fields than the header has"
            else:
                yield header, record, None
    elif suffix == ".parquet":
        try:
            import pyarrow.parquet as pq
        except ImportError:
            raise DataError(
                f"{path}: reading parquet needs pyarrow (pip install pyarrow)"
            ) from None
        try:
            table = pq.read_table(path)
        except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
            raise DataError(f"{path}: not a readable parquet file ({exc})") from None
        for record in table.to_pylist():
            yield table.column_names, record, None
    elif suffix in {".json", ".jsonl"}:
        data: Any = (
            [value for _, value in iter_json_lines(path)] if suffix == ".jsonl" else load_json(path)
        )
        if isinstance(data, dict) and isinstance(data.get("data"), list):
            data = data["data"]
        if not isinstance(data, list):
            raise DataError(f"{path}: expected a JSON list of objects")
        for record in data:
            if isinstance(record, dict):
                yield list(record), record, None
            else:
                yield [], None, "not a JSON object"
    else:
        raise DataError(f"{path}: unsupported file type '{suffix}' (csv, parquet, json, jsonl)")


def _resolve(
    header: list[str], schema: tuple[Column, ...], columns: Mapping[str, str], path: Path
) -> dict[str, str]:
    """Canonical field -> header name; missing required columns are a one-line error."""
    by_lower = {h.strip().lower(): h for h in header}
    found: dict[str, str] = {}
    for column in schema:
        if column.name in columns:
            wanted = columns[column.name]
            if wanted not in header:
                raise DataError(
                    f"{path}: column '{wanted}' (mapped to '{column.name}') not in the file; "
                    f"columns: {', '.join(header)}"
                )
            found[column.name] = wanted
            continue
        for candidate in (column.name, *column.aliases):
            if candidate.lower() in by_lower:
                found[column.name] = by_lower[candidate.lower()]
                break
        else:
            if column.required:
                names = ", ".join((column.name, *column.aliases))
                raise DataError(
                    f"{path}: missing column '{column.name}' (looked for {names}); columns: "
                    f"{', '.join(repr(h)[1:-1] for h in header)}; map it with "
                    f"columns={{'{column.name}': NAME}}"
                )
    return found


def load_file(
    path: str | Path,
    schema: str,
    *,
    columns: Mapping[str, str] | None = None,
    policy: lab.LabelPolicy | None = None,
    on_error: str = "raise",
    limit: int | None = None,
) -> Loaded:
    """Read and validate one file against the named schema (see `SCHEMAS`).

    ``on_error="skip"`` drops bad rows and lists them in `Loaded.skipped`, one message each;
    the default raises the first as a `DataError`.
    """
    if schema not in SCHEMAS:
        raise DataError(f"unknown BEADs schema '{schema}' (known: {', '.join(SCHEMAS)})")
    if on_error not in {"raise", "skip"}:
        raise DataError(f"on_error must be 'raise' or 'skip', not '{on_error}'")
    path = Path(path)
    if not path.is_file():
        raise DataError(f"{path}: file not found")
    policy = policy or lab.LabelPolicy()
    spec = SCHEMAS[schema]
    loaded = Loaded(file=str(path), schema=schema, rows=[])
    mapping: dict[str, str] | None = None
    number = 0
    records = _records(path)
    while limit is None or len(loaded.rows) < limit:
        number += 1
        try:
            header, record, bad = next(records)
        except StopIteration:
            break
        if record is None:
            message = f"{path}: row {number}: {bad}"
            if on_error == "raise":
                raise DataError(message)
            loaded.skipped.append(message)
            continue
        if mapping is None:
            mapping = _resolve(header, spec, columns or {}, path)
        values: dict[str, Any] = {}
        problem = None
        for column in spec:
            source = mapping.get(column.name)
            raw = record.get(source) if source is not None else None
            blank = raw is None or (isinstance(raw, str) and not raw.strip())
            if blank and not column.required:
                values[column.name] = None
                continue
            try:
                values[column.name] = column.normalise(raw, policy)
            except lab.LabelError as exc:
                problem = f"{path}: row {number}, column '{source or column.name}': {exc}"
                break
        if problem is not None:
            if on_error == "raise":
                raise DataError(problem)
            loaded.skipped.append(problem)
            continue
        loaded.rows.append(Row(file=str(path), row=number, values=values))
    if mapping is None and not loaded.skipped:
        raise DataError(f"{path}: no data rows")
    return loaded


@dataclass(frozen=True)
class Sentence:
    """One sentence of the CoNLL file: tokens and their BIO tags."""

    id: str
    tokens: tuple[str, ...]
    tags: tuple[str, ...]


def conll_sentences(loaded: Loaded) -> list[Sentence]:
    """Group one-token-per-row CoNLL rows into sentences (in order of first appearance)."""
    grouped: dict[str, tuple[list[str], list[str]]] = {}
    for row in loaded.rows:
        tokens, tags = grouped.setdefault(str(row["sentence_id"]), ([], []))
        tokens.append(row["token"])
        tags.append(row["tag"])
    return [Sentence(key, tuple(t), tuple(g)) for key, (t, g) in grouped.items()]


class BeadsData:
    """A local copy of the release: ``root`` laid out as the hub repository (see LAYOUT).

    ``files`` overrides paths per ``"config/split"`` (relative to root or absolute);
    ``columns`` maps canonical field names to header names per ``"config/split"``.
    """

    def __init__(
        self,
        root: str | Path,
        *,
        files: Mapping[str, str] | None = None,
        columns: Mapping[str, Mapping[str, str]] | None = None,
        policy: lab.LabelPolicy | None = None,
    ) -> None:
        self.root = Path(root).expanduser()
        if not self.root.is_dir():
            raise DataError(f"BEADs data folder {self.root} does not exist")
        self.files = dict(files or {})
        self.columns = {k: dict(v) for k, v in (columns or {}).items()}
        self.policy = policy or lab.LabelPolicy()
        for key in [*self.files, *self.columns]:
            split_of(key)

    def path(self, key: str) -> Path:
        relative, _ = split_of(key)
        return self.root / self.files.get(key, relative)

    def load(self, key: str, *, on_error: str = "raise", limit: int | None = None) -> Loaded:
        """Validated rows of ``"config/split"`` (e.g. ``"1-Text_Classification/bias_valid"``)."""
        _, schema = split_of(key)
        path = self.path(key)
        if not path.is_file():
            raise DataError(
                f"BEADs {key}: {path} not found; fetch the data (fetch_beads) or pass the "
                f"file's path in files={{'{key}': PATH}}"
            )
        return load_file(
            path,
            schema,
            columns=self.columns.get(key),
            policy=self.policy,
            on_error=on_error,
            limit=limit,
        )

    def available(self) -> list[str]:
        """``config/split`` keys whose file exists under root."""
        return [key for key in all_splits() if self.path(key).is_file()]


def all_splits() -> list[str]:
    return [f"{config}/{split}" for config, splits in LAYOUT.items() for split in splits]


def split_of(key: str) -> tuple[str, str]:
    """(path, schema) of ``"config/split"``; unknown keys list the known ones."""
    config, _, split = key.partition("/")
    if config not in LAYOUT or split not in LAYOUT[config]:
        raise DataError(f"unknown BEADs split '{key}'; known: {', '.join(all_splits())}")
    return LAYOUT[config][split]
