"""Pinned upstream files: resolve, download, verify.

Every dataset file the toolkit reads is a `DataSource` (URL at an upstream commit, sha256,
licence, citation), keyed by its path in the mirror layout (e.g. ``stop/STOP-full.json``).
Benchmarks declare their own files (`BenchmarkSpec.sources`, a JSON file in the benchmark's
package); a store is given the sources it may resolve (`biasaudit.discovery.open_store` gives
it those of every discovered benchmark), so the data layer imports nothing above it.

`DataStore.path(key)` returns a verified local file:
- with a data dir (``--data-dir`` or ``BIASAUDIT_DATA_DIR``) the file is read from that offline
  mirror, laid out like ``shared/datasets``;
- otherwise it is downloaded once into the cache dir (``BIASAUDIT_CACHE_DIR``, default
  ``~/.cache/biasaudit``) and read from there.
Either way the sha256 must match. A mismatch is an error, never a silent re-download.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from biasaudit.data.source import DataSource
from biasaudit.errors import DataError
from biasaudit.hashing import file_sha256

DATA_DIR_ENV = "BIASAUDIT_DATA_DIR"
CACHE_DIR_ENV = "BIASAUDIT_CACHE_DIR"


#: The sources a store resolves: a mapping by key, or a function returning one (called when
#: the first file is asked for, so that building a store discovers nothing).
Sources = Mapping[str, DataSource] | Callable[[], Mapping[str, DataSource]]


def default_cache_dir() -> Path:
    env = os.environ.get(CACHE_DIR_ENV)
    return Path(env) if env else Path.home() / ".cache" / "biasaudit"


def split_dirs(value: str | Path | Sequence[str | Path] | None) -> list[Path]:
    """Data dirs from a path, a list of paths, or paths joined by the OS path separator."""
    if value is None or value == "":
        return []
    if isinstance(value, (list, tuple)):
        return [d for v in value for d in split_dirs(v)]
    return [Path(part).expanduser() for part in str(value).split(os.pathsep) if part]


class DataStore:
    """Resolves pinned sources to verified local files."""

    def __init__(
        self,
        data_dir: str | Path | None = None,
        cache_dir: str | Path | None = None,
        download_timeout: float = 60.0,
        use_mirror: bool = True,
        *,
        sources: Sources,
    ) -> None:
        """`sources`: the pinned files this store resolves (see `Sources`).
        `use_mirror=False` ignores any data dir and always uses the download cache.

        `data_dir` (or BIASAUDIT_DATA_DIR) may name several folders, as a list or joined by
        the OS path separator (``A:B``; ``--data-dir A --data-dir B`` joins them so): they
        are searched in order and the first file whose sha256 is the pinned one is used, so a
        plug-in's data can sit in a folder of its own beside a read-only mirror. A file found
        nowhere is then looked up in the download cache (never downloaded: data dirs mean
        offline)."""
        env_dir = os.environ.get(DATA_DIR_ENV) if use_mirror else None
        chosen = data_dir if data_dir is not None and use_mirror else env_dir
        self.data_dirs = split_dirs(chosen)
        for folder in self.data_dirs:
            if not folder.is_dir():
                raise DataError(f"data dir {folder} does not exist or is not a directory")
        #: The first data dir (None: the download cache only); `data_dirs` holds them all.
        self.data_dir = self.data_dirs[0] if self.data_dirs else None
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir() / "data"
        self.download_timeout = download_timeout
        self._verified: dict[str, Path] = {}
        self._sources = sources

    def sources(self) -> Mapping[str, DataSource]:
        """Every pinned file this store can resolve, by key."""
        return self._sources() if callable(self._sources) else self._sources

    def source(self, key: str) -> DataSource:
        """The pinned source `key`; a key no benchmark declares is a one-line DataError."""
        try:
            return self.sources()[key]
        except KeyError:
            raise DataError(
                f"no pinned data source '{key}' (no installed benchmark declares it in its "
                f"spec's sources)"
            ) from None

    def is_pinned(self, key: str) -> bool:
        """Whether `key` names a pinned source (rather than a local path)."""
        return key in self.sources()

    def path(self, key: str) -> Path:
        """Local path of the pinned file `key`, verified against its sha256."""
        if key in self._verified:
            return self._verified[key]
        source = self.source(key)
        if self.data_dirs:
            local = self._search(source)
        else:
            local = self.cache_dir / key
            if not local.is_file():
                self._download(source, local)
            self._verify(source, local)
        self._verified[key] = local
        return local

    @property
    def data_dir_spec(self) -> str:
        """The data dirs as one string (OS path separator), '' for none."""
        return os.pathsep.join(str(d) for d in self.data_dirs)

    def _search(self, source: DataSource) -> Path:
        """The first copy of `source` in the data dirs, then the download cache, whose
        sha256 is the pinned one; else a one-line DataError naming what was found."""
        candidates = [d / source.key for d in self.data_dirs] + [self.cache_dir / source.key]
        mismatched: list[DataError] = []
        for local in candidates:
            if local.is_file():
                try:
                    self._verify(source, local)
                except DataError as exc:
                    mismatched.append(exc)
                    continue
                return local
        if len(mismatched) == 1:
            raise mismatched[0]  # the one copy's mismatch, by name
        if mismatched:
            found = "; ".join(str(exc).split(" (expected")[0] for exc in mismatched)
            raise DataError(
                f"{source.key}: no copy with the pinned sha256 {source.sha256[:12]}… ({found}); "
                "the files were changed or are a different version"
            )
        searched = ", ".join(str(d) for d in self.data_dirs)
        raise DataError(
            f"{source.key}: not found in data dir{'s' if len(self.data_dirs) > 1 else ''} "
            f"{searched} (expected {self.data_dirs[0] / source.key}) nor in the download cache"
        )

    def sha256(self, key: str) -> str:
        self.path(key)
        return self.source(key).sha256

    def _verify(self, source: DataSource, local: Path) -> None:
        actual = file_sha256(local)
        if actual != source.sha256:
            raise DataError(
                f"{local}: sha256 mismatch for {source.key} (expected {source.sha256[:12]}…, "
                f"got {actual[:12]}…); the file was changed or is a different version"
            )

    def _download(self, source: DataSource, target: Path) -> None:
        import http.client  # here: importing the store stays light
        import urllib.error
        import urllib.request

        if source.url is None:
            raise DataError(
                f"{source.key}: no download URL ({source.upstream}); "
                f"pass --data-dir pointing at an offline mirror that contains it"
            )
        if target.exists() and not target.is_file():
            raise DataError(f"{target}: not a file where the cached copy belongs; remove it")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            handle = tempfile.NamedTemporaryFile(dir=target.parent, delete=False)  # noqa: SIM115
        except OSError as exc:
            raise DataError(
                f"{target.parent}: cannot write the download cache there ({exc.strerror or exc})"
            ) from None
        tmp_path = Path(handle.name)
        try:
            with handle, urllib.request.urlopen(source.url, timeout=self.download_timeout) as resp:
                shutil.copyfileobj(resp, handle)
        except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
            tmp_path.unlink(missing_ok=True)  # no partial download left in the cache
            raise DataError(
                f"{source.key}: download from {source.url} failed ({exc}); "
                f"use --data-dir for offline data"
            ) from None
        actual = file_sha256(tmp_path)
        if actual != source.sha256:
            tmp_path.unlink(missing_ok=True)
            raise DataError(
                f"{source.key}: downloaded file from {source.url} has sha256 {actual[:12]}…, "
                f"expected {source.sha256[:12]}…; not saved"
            )
        try:
            tmp_path.replace(target)
        except OSError as exc:
            tmp_path.unlink(missing_ok=True)
            raise DataError(f"{target}: cannot save the download ({exc.strerror or exc})") from None
