"""Shared dataset readers: pinned keys and typed rows for benchmarks that several plug-ins read
(a reader one benchmark alone uses lives in that benchmark's folder: `dataset*.py`).

Each module names its pinned source keys (see `biasaudit.data`) and reads the files into frozen
dataclasses. Malformed input raises `biasaudit.errors.DataError` with one line naming the file,
the row and the field; `files` holds the bounded readers (CSV, JSON lines) they share.
"""
