"""Reading data files a user hands to a benchmark, hostile ones included.

Every way such a file can be unreadable (missing, a directory, not UTF-8, invalid or too deeply
nested JSON, numbers too long to convert, broken CSV quoting, fields over the csv module's
128 KiB default) is one `DataError` naming the file and the line; nothing else escapes. Valid
but extreme content (a 50 MB field) is read, as it is valid. The benchmark's own reader then
checks the rows and fields.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from biasaudit.errors import DataError

#: The csv module refuses fields over 128 KiB by default; a user's CSV may hold longer ones.
CSV_FIELD_LIMIT = 2**31 - 1

#: A CSV row by column name; fields beyond the header are under the key None (csv.DictReader)
Row = dict[str, Any]


#: A data file is read whole: larger ones (or a device with no end, such as /dev/zero) are
#: refused before they fill the memory (issue 33: `-O data_file=/dev/zero` grew to 24 GB).
MAX_FILE_BYTES = 2**31


def read_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The file's bytes; a missing file, a directory, an unreadable file or one over `limit`
    bytes (default `MAX_FILE_BYTES`) is one line."""
    limit = MAX_FILE_BYTES if limit is None else limit
    file = Path(path)
    if file.is_dir():
        raise DataError(f"{file}: is a directory, expected a file")
    chunks: list[bytes] = []
    size = 0
    try:
        with file.open("rb") as handle:
            while chunk := handle.read(1 << 24):
                size += len(chunk)
                if size > limit:
                    raise DataError(
                        f"{file}: larger than {limit:,} bytes (or a device with no end); "
                        "a data file is read whole: split it or pass a smaller one"
                    )
                chunks.append(chunk)
    except OSError as exc:
        raise DataError(f"{file}: cannot read ({exc.strerror or exc})") from None
    return b"".join(chunks)


def read_text(path: str | Path, encoding: str = "utf-8") -> str:
    """The file decoded as UTF-8 (``utf-8-sig`` drops a byte-order mark); bad bytes are one
    line naming the line they are on."""
    data = read_bytes(path)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DataError(
            f"{path}: line {line}: not UTF-8 (byte {data[exc.start]:#04x} at offset "
            f"{exc.start}); save the file as UTF-8"
        ) from None


def parse_json(text: str, where: str, *, one_line: bool = False) -> Any:
    """`text` as JSON; `where` ("FILE" or "FILE: line N") starts the error message, which
    gives the line and column of a syntax error unless `text` is `one_line`."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        position = "" if one_line else f" at line {exc.lineno}, column {exc.colno}"
        raise DataError(f"{where}: invalid JSON{position}: {exc.msg}") from None
    except RecursionError:
        raise DataError(f"{where}: JSON nested too deeply to read") from None
    except ValueError as exc:  # e.g. an integer longer than Python's conversion limit
        raise DataError(f"{where}: unreadable JSON value ({exc})") from None


def load_json(path: str | Path) -> Any:
    """A whole JSON file."""
    return parse_json(read_text(path), str(path))


def json_lines(text: str) -> list[str]:
    """The lines of JSON-lines text, split at "\\n" only (a "\\r" before it dropped):
    `str.splitlines` also splits at U+2028, U+0085 and other characters that a JSON string
    may hold unescaped (``json.dumps(..., ensure_ascii=False)`` writes them raw)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


def iter_json_lines(path: str | Path) -> Iterator[tuple[int, Any]]:
    """(line number, value) of every non-blank line of a JSON-lines file."""
    for number, line in enumerate(json_lines(read_text(path)), start=1):
        if line.strip():
            yield number, parse_json(line, f"{path}: line {number}", one_line=True)


def read_json_lines(path: str | Path) -> list[Any]:
    """The values of every non-blank line of a JSON-lines file (:func:`iter_json_lines`)."""
    return [value for _, value in iter_json_lines(path)]


def read_csv(
    path: str | Path, *, encoding: str = "utf-8-sig", delimiter: str = ","
) -> tuple[list[str], list[tuple[int, Row]]]:
    """(header, [(line, row)]) of a CSV file with a header line, read strictly.

    A row with fewer fields than the header has None for the missing ones, one with more
    has the extra fields under the key None (as `csv.DictReader`); `check_row_width` refuses
    both. The line is where the row ends (a quoted field may span lines).
    """
    text = read_text(path, encoding)
    # strict: text after a closing quote, or a quote left open at the end of the file (a
    # field silently swallowing every following line), is an error
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, Row]] = []
    previous = csv.field_size_limit(CSV_FIELD_LIMIT)
    try:
        header = list(reader.fieldnames or [])
        for row in reader:
            rows.append((reader.line_num, row))
    except csv.Error as exc:  # line_num counts the lines of the rows read whole before it
        raise DataError(
            f"{path}: the row starting at line {reader.line_num + 1} is not valid CSV ({exc})"
        ) from None
    finally:
        csv.field_size_limit(previous)
    return header, rows


def check_row_width(path: str | Path, line: int, row: Row, header: list[str]) -> None:
    """Refuse a CSV row with more or fewer fields than the header."""
    if None in row:
        raise DataError(f"{path}: row {line} has more fields than the header ({len(header)})")
    missing = [column for column in header if row.get(column) is None]
    if missing:
        raise DataError(
            f"{path}: row {line} has fewer fields than the header (no {', '.join(missing)})"
        )
