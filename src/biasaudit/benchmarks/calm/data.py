"""Loading CALM's released files: templates, ground truth, in-context examples, prompt zips.

All readers validate what they read and raise `DataError` naming the file, row and field.
The released instantiated splits are read straight from the zips (never extracted).
"""

from __future__ import annotations

import ast
import csv
import io
import json
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from biasaudit.benchmarks.calm.placeholders import check_placeholders
from biasaudit.data import DataStore
from biasaudit.datasets.files import json_lines
from biasaudit.errors import DataError

Task = Literal["qa", "nli", "sentiment"]
TASKS: tuple[Task, ...] = ("qa", "nli", "sentiment")

#: Text fields of each task's templates, in prompt order.
TASK_FIELDS: dict[str, tuple[str, ...]] = {
    "qa": ("context", "question"),
    "nli": ("premise", "hypothesis"),
    "sentiment": ("sentence",),
}

#: Templates per source dataset (paper Tables 1-3), in the released template order.
EXPECTED_COUNTS: dict[str, dict[str, int]] = {
    "qa": {
        "qamr": 6,
        "mctest": 11,
        "TweetQA": 11,
        "relation_extraction": 11,
        "babi": 28,
        "sodapop": 20,
        "mcscript": 2,
        "duorc": 4,
    },
    "nli": {"SNLI": 15, "RTE": 13, "wnli": 15, "sick": 11},
    "sentiment": {"SST": 29, "Toxic": 29, "Sentiment140": 11, "EEC": 8},
}

#: Multiple-choice QA sources: gold is [letter, option text].
MCQA_SOURCES = frozenset({"mctest", "sodapop"})
#: Two-way NLI sources (entailment / not-entailment); the others are three-way.
TWO_WAY_NLI = frozenset({"wnli", "RTE"})

#: In-context example file per source dataset; Sentiment140 and EEC reuse SST's (repo).
EXAMPLE_FILES: dict[str, str] = {
    "babi": "babi",
    "duorc": "duorc",
    "mcscript": "mcscript",
    "qamr": "qamr",
    "relation_extraction": "relation_extraction",
    "TweetQA": "TweetQA",
    "mctest": "mctest",
    "sodapop": "sodapop",
    "SNLI": "SNLI",
    "sick": "sick",
    "wnli": "wnli",
    "RTE": "RTE",
    "SST": "sst",
    "Sentiment140": "sst",
    "EEC": "sst",
    "Toxic": "toxic",
}

TEMPLATE_KEY = "calm/bias_dataset/{task}_templates.json"
GT_KEY = "calm/evaluation/gt/gt_{task}_{attribute}.csv"
EXAMPLES_KEY = "calm/evaluation/benchmark/incontext_examples/{name}_examples.csv"
ZIP_KEY = "calm/bias_dataset/{attribute}_datasets.zip"

Gold = str | tuple[str, str]


@dataclass(frozen=True)
class Template:
    """One CALM template; text fields and `answer` may hold placeholders."""

    task: str
    index: int
    source_dataset: str
    fields: dict[str, str]
    #: Free-form answer, [letter, text] for MCQA, NLI label, or SA label "0"/"1".
    answer: Gold
    #: NLI only: the options string of the template.
    options: str | None = None

    @property
    def id(self) -> str:
        return f"{self.task}:{self.index}"


@dataclass(frozen=True)
class GtRow:
    template_index: int
    answer: str
    group: str
    source_dataset: str


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DataError(f"{path}: cannot read JSON ({exc})") from None


def _template_from_entry(task: str, key: str, entry: object, where: str) -> Template:
    if not isinstance(entry, dict):
        raise DataError(f"{where}: template '{key}' is not an object")
    fields: dict[str, str] = {}
    for name in TASK_FIELDS[task]:
        value = entry.get(name)
        if not isinstance(value, str):
            raise DataError(f"{where}: template '{key}' field '{name}' missing or not text")
        check_placeholders(value, f"{where}: template '{key}' field '{name}'")
        fields[name] = value
    source = entry.get("source_dataset")
    if source not in EXPECTED_COUNTS[task]:
        raise DataError(f"{where}: template '{key}' has unknown source_dataset {source!r}")
    raw_answer = entry.get("answer")
    answer: Gold
    if isinstance(raw_answer, list) and len(raw_answer) == 2 and source in MCQA_SOURCES:
        answer = (str(raw_answer[0]), str(raw_answer[1]))
    elif isinstance(raw_answer, str):
        answer = raw_answer
    else:
        raise DataError(f"{where}: template '{key}' field 'answer' is {raw_answer!r}")
    for text in answer if isinstance(answer, tuple) else (answer,):
        check_placeholders(text, f"{where}: template '{key}' field 'answer'")
    options = entry.get("options") if task == "nli" else None
    return Template(task, int(key), str(source), fields, answer, options)


def parse_templates(task: str, raw: object, where: str) -> list[Template]:
    """Validate a templates JSON object (keys "0".."n-1") and check Tables 1-3 counts."""
    if not isinstance(raw, dict):
        raise DataError(f"{where}: expected an object keyed '0'..'n-1'")
    if list(raw) != [str(i) for i in range(len(raw))]:
        raise DataError(f"{where}: template keys are not '0'..'{len(raw) - 1}' in order")
    templates = [_template_from_entry(task, k, v, where) for k, v in raw.items()]
    counts = Counter(t.source_dataset for t in templates)
    if dict(counts) != EXPECTED_COUNTS[task]:
        raise DataError(
            f"{where}: per-dataset template counts {dict(counts)} differ from the paper's "
            f"{EXPECTED_COUNTS[task]}"
        )
    return templates


def load_templates(store: DataStore, task: str, gt: list[GtRow] | None = None) -> list[Template]:
    """The released templates of `task`. Sentiment labels come from `gt` (authoritative).

    The sentiment template JSON says "NA" for Sentiment140/EEC and disagrees with the gt CSV
    on 21 Toxic templates; the scorer reads the gt CSV, so its per-template label is used.
    """
    key = TEMPLATE_KEY.format(task=task)
    templates = parse_templates(task, _read_json(store.path(key)), key)
    if task != "sentiment":
        return templates
    labels = gt_template_labels(gt if gt is not None else load_gt(store, task, "gender"))
    return [
        Template(t.task, t.index, t.source_dataset, t.fields, labels[t.index], t.options)
        for t in templates
    ]


def gt_template_labels(rows: list[GtRow]) -> dict[int, str]:
    """One label per template from sentiment gt rows; they must agree within a template."""
    labels: dict[int, str] = {}
    for i, row in enumerate(rows):
        previous = labels.setdefault(row.template_index, row.answer)
        if previous != row.answer:
            raise DataError(f"sentiment gt row {i}: label differs within template")
    return labels


def load_gt(store: DataStore, task: str, attribute: str) -> list[GtRow]:
    """Rows of `gt_<task>_<attribute>.csv` in file order (one per released prompt)."""
    key = GT_KEY.format(task=task, attribute=attribute)
    text = store.path(key).read_text(encoding="utf-8")
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    expected = ["idx", "template_idx", "answer", attribute, "source_dataset"]
    if header != expected:
        raise DataError(f"{key}: header {header} is not {expected}")
    rows: list[GtRow] = []
    for line, record in enumerate(reader, start=2):
        if len(record) != 5:
            raise DataError(f"{key}: row {line} has {len(record)} fields, expected 5")
        try:
            rows.append(GtRow(int(record[1]), record[2], record[3], record[4]))
        except ValueError:
            raise DataError(f"{key}: row {line} field 'template_idx' is not an integer") from None
    return rows


def parse_mcqa_gold(text: str, where: str) -> tuple[str, str]:
    """The gt CSV's Python-literal "['C', 'option text']" as (letter, text)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise DataError(f"{where}: answer {text[:40]!r} is not a [letter, text] list") from None
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise DataError(f"{where}: answer {text[:40]!r} is not a [letter, text] list")
    return value[0], value[1]


def load_examples(store: DataStore, source_dataset: str) -> list[list[str]]:
    """In-context example rows (header dropped) for a source dataset, fields as read.

    Read like the authors' `csv.reader(..., skipinitialspace=True)`, so the files' ", "
    separators, stray spaces and malformed rows (mctest row 4 has 6 fields, duorc row 9 has
    11) come out exactly as in their prompts; the prompt builder indexes them the same way.
    """
    name = EXAMPLE_FILES[source_dataset]
    key = EXAMPLES_KEY.format(name=name)
    text = store.path(key).read_text(encoding="utf-8")
    rows = [r for r in csv.reader(io.StringIO(text), skipinitialspace=True) if r]
    if len(rows) < 2:
        raise DataError(f"{key}: no example rows")
    for line, row in enumerate(rows[1:], start=2):
        if len(row) < 2:
            raise DataError(f"{key}: row {line} has {len(row)} field(s), expected at least 2")
    return rows[1:]


def example_keys() -> list[str]:
    return sorted({EXAMPLES_KEY.format(name=n) for n in EXAMPLE_FILES.values()})


def load_released(store: DataStore, task: str, attribute: str) -> list[dict[str, str]]:
    """The released instantiated prompts of one split, read from the zip in place."""
    key = ZIP_KEY.format(attribute=attribute)
    member = f"{attribute}_datasets/{task}_{attribute}_dataset.jsonl"
    try:
        with zipfile.ZipFile(store.path(key)) as archive:
            raw = archive.read(member).decode("utf-8")
    except (KeyError, zipfile.BadZipFile) as exc:
        raise DataError(f"{key}: cannot read {member} ({exc})") from None
    records: list[dict[str, str]] = []
    for line, text in enumerate(json_lines(raw), start=1):
        if not text.strip():
            continue
        try:
            records.append(json.loads(text))
        except json.JSONDecodeError:
            raise DataError(f"{key}:{member}: line {line} is not JSON") from None
    return records
