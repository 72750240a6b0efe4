"""Content-addressed SQLite cache of responses.

Key: sha256 of (backend fingerprint, request JSON including its decoding parameters). Rows are
committed after every batch, so a killed run loses at most the batch in flight; WAL mode lets
several processes (shards) share one cache file.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from biasaudit.requests import Response


def cache_key(fingerprint: str, request_key: str) -> str:
    return hashlib.sha256(f"{fingerprint}\0{request_key}".encode()).hexdigest()


class ResponseCache:
    """Persistent map from cache key to `Response`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, response TEXT NOT NULL)"
        )
        self._db.commit()

    def get_many(self, keys: Iterable[str]) -> dict[str, Response]:
        found: dict[str, Response] = {}
        key_list = list(keys)
        for start in range(0, len(key_list), 500):
            chunk = key_list[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self._db.execute(
                f"SELECT key, response FROM responses WHERE key IN ({marks})", chunk
            )
            for key, payload in rows:
                found[key] = Response.model_validate_json(payload)
        return found

    def put_many(self, items: Iterable[tuple[str, Response]]) -> None:
        rows = [(key, resp.model_dump_json()) for key, resp in items if resp.ok]
        self._db.executemany("INSERT OR REPLACE INTO responses VALUES (?, ?)", rows)
        self._db.commit()

    def __len__(self) -> int:
        (count,) = self._db.execute("SELECT COUNT(*) FROM responses").fetchone()
        return int(count)

    def close(self) -> None:
        self._db.close()


class NullCache:
    """Stands in for the cache when caching is switched off (``--no-cache``)."""

    def get_many(self, keys: Iterable[str]) -> dict[str, Response]:
        return {}

    def put_many(self, items: Iterable[tuple[str, Response]]) -> None:
        return None

    def close(self) -> None:
        return None


def open_cache(path: str | Path | None, enabled: bool = True) -> ResponseCache | NullCache:
    """The response cache at `path` (default under the cache dir), or none when disabled."""
    if not enabled:
        return NullCache()
    from biasaudit.data.store import default_cache_dir

    return ResponseCache(Path(path) if path else default_cache_dir() / "requests.sqlite")
