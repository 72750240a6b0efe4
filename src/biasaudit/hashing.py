"""Every content hash the toolkit records, in one place (stdlib only).

- `file_sha256`: a file, streamed in 1 MiB blocks (pinned data, GGUF weights, replay files).
- `stream_sha256`: an open binary stream, with its size (`biasaudit data pin`).
- `folder_sha256`: a folder, as the sorted lines ``<relative posix path>\\0<file sha256>\\n``
  over its files, hashed. Files under a hidden name (any path part starting with ``.``: a
  ``.cache/`` of download metadata, ``.DS_Store``, ``.git/``) are left out, for model folders
  and data folders alike: they do not change what is read.
- `path_sha256`: `file_sha256` of a file, `folder_sha256` of a folder.
- `text_sha256`: the sha256 hex of text parts joined by a separator.
- `lines_sha256`: the sha256 hex of lines, each ended by ``\n``, fed one by one.

A missing or unreadable file is an `OSError` here; callers turn it into their one-line error.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import IO

_BLOCK = 1 << 20


def stream_sha256(handle: IO[bytes]) -> tuple[str, int]:
    """sha256 hex of everything left in `handle`, and how many bytes that was."""
    digest, size = hashlib.sha256(), 0
    for block in iter(lambda: handle.read(_BLOCK), b""):
        digest.update(block)
        size += len(block)
    return digest.hexdigest(), size


def file_sha256(path: str | Path) -> str:
    """sha256 hex of a file's bytes."""
    with Path(path).open("rb") as handle:
        return stream_sha256(handle)[0]


def is_hidden(relative: Path) -> bool:
    """Whether a path inside a folder lies under a hidden name (left out of folder hashes)."""
    return any(part.startswith(".") for part in relative.parts)


def folder_sha256(folder: str | Path) -> str:
    """sha256 hex over a folder's non-hidden files: relative path and content hash, sorted."""
    root = Path(folder)
    digest = hashlib.sha256()
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        relative = file.relative_to(root)
        if is_hidden(relative):
            continue
        digest.update(f"{relative.as_posix()}\0{file_sha256(file)}\n".encode())
    return digest.hexdigest()


def path_sha256(path: str | Path) -> str:
    """`folder_sha256` of a folder, else `file_sha256`."""
    target = Path(path)
    return folder_sha256(target) if target.is_dir() else file_sha256(target)


def text_sha256(*parts: str, sep: str = "\x00") -> str:
    """sha256 hex of `parts` joined by `sep`, UTF-8 encoded."""
    return hashlib.sha256(sep.join(parts).encode("utf-8")).hexdigest()


def lines_sha256(lines: Iterable[str]) -> str:
    """sha256 hex of ``"".join(line + "\\n" for line in lines)``, UTF-8, without building it."""
    digest = hashlib.sha256()
    for line in lines:
        digest.update(f"{line}\n".encode())
    return digest.hexdigest()
