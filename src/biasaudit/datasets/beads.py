"""BEADs (Raza et al., arXiv 2406.04220) released files: layout, schemas and readers.

The dataset is gated on the Hugging Face hub (``shainar/BEAD``); `beads_hub.fetch_beads`
downloads it with the user's own token into the layout below, or the user points
`BeadsData` at a copy they already have. Files are CSV, parquet, JSON or JSONL (by suffix).

Layout (spec §2.5, external): ``<config>/<split>`` -> file path in the hub repository. The
configs and split names are those of the 2024 card revision; names changed over time, so
`BeadsData` also takes explicit ``files`` and column mappings. Parts of the layout the spec
marks unverified (the gated files were never inspected): the columns of the instruction CSVs,
``multi-label.csv``, ``conll.csv`` and ``Demographic-variation.csv``. Their schemas below are
inferred from the paper's task formats; map other column names with ``columns``.

Every problem is a one-line `DataError` naming the file, the 1-based data row (header not
counted) and the column.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.datasets import beads_labels as lab
from biasaudit.datasets.files import iter_json_lines, load_json, read_csv
from biasaudit.errors import DataError

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
