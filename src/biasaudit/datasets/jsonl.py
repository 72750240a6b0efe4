"""Line-numbered JSONL reading shared by dataset readers (errors name the file and line)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from biasaudit.datasets.files import iter_json_lines


def iter_jsonl(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, parsed value) of each non-blank line; every failure (unreadable file,
    bad UTF-8, invalid or too deeply nested JSON) is a `DataError` naming the file and line."""
    return iter_json_lines(path)
