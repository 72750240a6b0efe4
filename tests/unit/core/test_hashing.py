"""biasaudit.hashing against hashlib fed by hand-built bytes (the oracle), and the one rule
for hidden files in folder hashes."""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

from biasaudit.hashing import (
    file_sha256,
    folder_sha256,
    lines_sha256,
    path_sha256,
    stream_sha256,
    text_sha256,
)


def _hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_file_and_stream(tmp_path: Path) -> None:
    data = bytes(range(256)) * 5000  # over one 1 MiB block
    (tmp_path / "f.bin").write_bytes(data)
    assert file_sha256(tmp_path / "f.bin") == _hex(data)
    assert stream_sha256(io.BytesIO(data)) == (_hex(data), len(data))
    assert path_sha256(tmp_path / "f.bin") == _hex(data)


def test_folder_lines_by_relative_path_and_hidden_files_left_out(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "y.txt").write_bytes(b"why")
    (tmp_path / "a.txt").write_bytes(b"ay")
    (tmp_path / ".DS_Store").write_bytes(b"junk")
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "meta").write_bytes(b"download metadata")
    expected = _hex(f"a.txt\0{_hex(b'ay')}\nb/y.txt\0{_hex(b'why')}\n".encode())
    assert folder_sha256(tmp_path) == expected == path_sha256(tmp_path)


def test_text_and_lines() -> None:
    assert text_sha256("a", "b") == _hex(b"a\x00b")
    assert text_sha256("a", "b", sep="\x1f") == _hex(b"a\x1fb")
    assert lines_sha256(["x", "é"]) == _hex("x\né\n".encode())
    assert lines_sha256([]) == _hex(b"")
