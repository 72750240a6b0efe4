"""Training examples for `biasaudit.finetune`: chat conversations, read from files.

An example is a list of chat messages (``{"role", "content"}``); the model learns the
assistant turns only (every other token is masked out of the loss). Accepted files:

- chat JSONL: one ``{"messages": [...]}`` per line (what ``biasaudit stop export-finetune``
  writes; the OpenAI / TRL conversational format);
- Alpaca JSON or JSONL: ``{"instruction", "input", "output"}`` records (BEADs' released
  generation data), turned into a user turn (instruction, blank line, input) and an
  assistant turn (output);
- plain text: ``{"text": "..."}`` records, learned whole as the `hf` backend scores a
  log-likelihood (the tokenizer's special prefix, e.g. BOS, then the text; no chat
  template): continued pre-training on a corpus. Internally one message of role ``text``.

A bad line is a one-line `DataError` naming the file, line and field.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from biasaudit.datasets.files import iter_json_lines, load_json
from biasaudit.errors import DataError
from biasaudit.hashing import lines_sha256

Messages = list[dict[str, str]]
ROLES = ("system", "user", "assistant")
#: the role of a plain-text example's one message (never in a chat file)
TEXT = "text"


def text_example(record: dict[str, Any], where: str) -> Messages:
    """A plain-text record as one `TEXT` message."""
    if not isinstance(record.get("text"), str) or not record["text"].strip():
        raise DataError(f"{where}: field 'text' must be a non-empty string")
    return [{"role": TEXT, "content": record["text"]}]


def alpaca_messages(record: dict[str, Any], where: str) -> Messages:
    """An Alpaca record as a user turn and an assistant turn."""
    for key in ("instruction", "output"):
        if not isinstance(record.get(key), str) or not record[key].strip():
            raise DataError(f"{where}: field '{key}' must be a non-empty string")
    extra = record.get("input") or ""
    if not isinstance(extra, str):
        raise DataError(f"{where}: field 'input' must be a string")
    user = record["instruction"].strip() + (f"\n\n{extra.strip()}" if extra.strip() else "")
    return [{"role": "user", "content": user}, {"role": "assistant", "content": record["output"]}]


def check_messages(messages: Any, where: str) -> Messages:
    """A valid conversation: known roles, string contents, at least one assistant turn."""
    if not isinstance(messages, list) or not messages:
        raise DataError(f"{where}: field 'messages' must be a non-empty list")
    out: Messages = []
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            raise DataError(f"{where}: field 'messages[{i}].role' must be one of {ROLES}")
        if not isinstance(message.get("content"), str):
            raise DataError(f"{where}: field 'messages[{i}].content' must be a string")
        out.append({"role": message["role"], "content": message["content"]})
    if not any(m["role"] == "assistant" for m in out):
        raise DataError(f"{where}: field 'messages' has no assistant turn to learn")
    return out


def read_records(path: Path) -> list[tuple[str, Any]]:
    """(where, record) of a JSON list or JSON-lines file; bad bytes, bad JSON or JSON nested
    too deeply are one DataError naming the file and line (`biasaudit.datasets.files`)."""
    if path.suffix == ".json":
        data = load_json(path)
        if not isinstance(data, list):
            raise DataError(f"{path}: a JSON file must hold a list of records")
        return [(f"{path}: record {i + 1}", r) for i, r in enumerate(data)]
    return [(f"{path}: line {number}", record) for number, record in iter_json_lines(path)]


def read_examples(path: str | Path) -> list[Messages]:
    """Chat JSONL or Alpaca JSON/JSONL as conversations (see the module docstring)."""
    file = Path(path)
    if not file.is_file():
        raise DataError(f"training data not found: {file}")
    examples = []
    for where, record in read_records(file):
        if not isinstance(record, dict):
            raise DataError(f"{where}: a record must be a JSON object")
        if "messages" in record:
            examples.append(check_messages(record["messages"], where))
        elif "instruction" in record:
            examples.append(alpaca_messages(record, where))
        elif "text" in record:
            examples.append(text_example(record, where))
        else:
            raise DataError(
                f"{where}: needs 'messages' (chat), 'instruction' (Alpaca) or 'text' (plain)"
            )
    if not examples:
        raise DataError(f"{file}: no training examples")
    return examples


def data_sha256(examples: Sequence[Messages]) -> str:
    """Content hash of the examples (canonical JSON, in order)."""
    return lines_sha256(json.dumps(m, sort_keys=True, ensure_ascii=False) for m in examples)
