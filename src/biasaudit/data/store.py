"""Pinned upstream files: resolve, download, verify.

Every dataset file the toolkit reads is a `PinnedSource` (URL at an upstream commit, sha256,
licence, citation), keyed by its path in the mirror layout (e.g. ``stop/STOP-full.json``).

`DataStore.path(key)` returns a verified local file:
- with a data dir (``--data-dir`` or ``BIASAUDIT_DATA_DIR``) the file is read from that offline
  mirror, laid out like ``shared/datasets``;
- otherwise it is downloaded once into the cache dir (``BIASAUDIT_CACHE_DIR``, default
  ``~/.cache/biasaudit``) and read from there.
Either way the sha256 must match. A mismatch is an error, never a silent re-download.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path

from biasaudit.errors import DataError

DATA_DIR_ENV = "BIASAUDIT_DATA_DIR"
CACHE_DIR_ENV = "BIASAUDIT_CACHE_DIR"


@dataclass(frozen=True)
class PinnedSource:
    key: str
    url: str | None
    upstream: str
    commit: str
    upstream_path: str
    sha256: str
    license: str
    citation: str


@cache
def _load_sources() -> dict[str, PinnedSource]:
    raw = json.loads(files("biasaudit.data").joinpath("sources.json").read_text())
    return {
        key: PinnedSource(
            key=key,
            url=entry["url"],
            upstream=entry["upstream"],
            commit=entry["commit"],
            upstream_path=entry["upstream_path"],
            sha256=entry["sha256"],
            license=entry["license"],
            citation=entry["citation"],
        )
        for key, entry in raw.items()
    }


def all_sources() -> list[PinnedSource]:
    return list(_load_sources().values())


def get_source(key: str) -> PinnedSource:
    try:
        return _load_sources()[key]
    except KeyError:
        raise DataError(f"no pinned data source '{key}'") from None


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def default_cache_dir() -> Path:
    env = os.environ.get(CACHE_DIR_ENV)
    return Path(env) if env else Path.home() / ".cache" / "biasaudit"


class DataStore:
    """Resolves pinned sources to verified local files."""

    def __init__(
        self,
        data_dir: str | Path | None = None,
        cache_dir: str | Path | None = None,
        download_timeout: float = 60.0,
    ) -> None:
        env_dir = os.environ.get(DATA_DIR_ENV)
        chosen = data_dir if data_dir is not None else env_dir
        self.data_dir = Path(chosen).expanduser() if chosen else None
        if self.data_dir is not None and not self.data_dir.is_dir():
            raise DataError(f"data dir {self.data_dir} does not exist or is not a directory")
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir() / "data"
        self.download_timeout = download_timeout
        self._verified: dict[str, Path] = {}

    def path(self, key: str) -> Path:
        """Local path of the pinned file `key`, verified against its sha256."""
        if key in self._verified:
            return self._verified[key]
        source = get_source(key)
        if self.data_dir is not None:
            local = self.data_dir / key
            if not local.is_file():
                raise DataError(f"{key}: not found in data dir {self.data_dir} (expected {local})")
        else:
            local = self.cache_dir / key
            if not local.is_file():
                self._download(source, local)
        self._verify(source, local)
        self._verified[key] = local
        return local

    def sha256(self, key: str) -> str:
        self.path(key)
        return get_source(key).sha256

    def _verify(self, source: PinnedSource, local: Path) -> None:
        actual = sha256_file(local)
        if actual != source.sha256:
            raise DataError(
                f"{local}: sha256 mismatch for {source.key} (expected {source.sha256[:12]}…, "
                f"got {actual[:12]}…); the file was changed or is a different version"
            )

    def _download(self, source: PinnedSource, target: Path) -> None:
        if source.url is None:
            raise DataError(
                f"{source.key}: no download URL ({source.upstream}); "
                f"pass --data-dir pointing at an offline mirror that contains it"
            )
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
            tmp_path = Path(tmp.name)
            try:
                with urllib.request.urlopen(source.url, timeout=self.download_timeout) as resp:
                    shutil.copyfileobj(resp, tmp)
            except (urllib.error.URLError, OSError) as exc:
                tmp_path.unlink(missing_ok=True)
                raise DataError(
                    f"{source.key}: download from {source.url} failed ({exc}); "
                    f"use --data-dir for offline data"
                ) from None
        actual = sha256_file(tmp_path)
        if actual != source.sha256:
            tmp_path.unlink(missing_ok=True)
            raise DataError(
                f"{source.key}: downloaded file from {source.url} has sha256 {actual[:12]}…, "
                f"expected {source.sha256[:12]}…; not saved"
            )
        tmp_path.replace(target)
