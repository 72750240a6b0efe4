"""The digests a run records about itself (results.json), read back by `load_run`'s checks and
by `biasaudit merge`: which samples were run, and what was asked and answered for each."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from pydantic import TypeAdapter

from biasaudit.results.schema import Exchange, SampleRecord

_EXCHANGES: TypeAdapter[list[Exchange]] = TypeAdapter(list[Exchange])


def hash_sample_hashes(sample_hashes: Iterable[str]) -> str:
    """sha256 over the sorted per-sample hashes joined by newlines: equal values mean the
    same samples (fed hash by hash: the joined text is never built)."""
    digest = hashlib.sha256()
    for index, sample_hash in enumerate(sorted(sample_hashes)):
        digest.update(f"\n{sample_hash}".encode() if index else sample_hash.encode())
    return digest.hexdigest()


def exchanges_digest(record: SampleRecord) -> str:
    """sha256 of a record's sample hash and its exchanges as stored (requests and answers)."""
    digest = hashlib.sha256(record.sample_hash.encode())
    digest.update(b"\n")
    digest.update(_EXCHANGES.dump_json(record.exchanges))
    return digest.hexdigest()
