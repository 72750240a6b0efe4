"""The data layer: offline mirror, checksum verification, and first-use download."""

from __future__ import annotations

import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasaudit.data import DataStore, get_source
from biasaudit.data import store as store_module
from biasaudit.errors import DataError

KEY = "stop/README.md"


def test_mirror_file_is_verified(data_dir: Path) -> None:
    store = DataStore(data_dir)
    path = store.path(KEY)
    assert path == data_dir / KEY
    assert store.sha256(KEY) == get_source(KEY).sha256


def test_env_var_selects_mirror(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BIASAUDIT_DATA_DIR", str(data_dir))
    assert DataStore().path(KEY) == data_dir / KEY


def test_missing_data_dir_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="does not exist"):
        DataStore(tmp_path / "nope")


def test_missing_file_names_the_expected_path(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"stop/README.md: not found in data dir"):
        DataStore(tmp_path).path(KEY)


def test_checksum_mismatch_is_an_error(tmp_path: Path, data_dir: Path) -> None:
    target = tmp_path / KEY
    target.parent.mkdir(parents=True)
    shutil.copy(data_dir / KEY, target)
    with target.open("a") as handle:
        handle.write("tampered\n")
    with pytest.raises(DataError, match="sha256 mismatch"):
        DataStore(tmp_path).path(KEY)


def test_unknown_source_key() -> None:
    with pytest.raises(DataError, match="no pinned data source"):
        get_source("nope/nothing.csv")


@pytest.fixture
def file_server(data_dir: Path) -> Iterator[str]:
    """A loopback HTTP server serving the mirror, standing in for the upstream host."""

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(data_dir), **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _point_source_at(monkeypatch: pytest.MonkeyPatch, key: str, url: str, **changes: str) -> None:
    sources = dict(store_module._load_sources())
    sources[key] = sources[key].model_copy(update={"url": url, **changes})
    monkeypatch.setattr(store_module, "_load_sources", lambda: sources)


def test_first_use_downloads_and_verifies(
    tmp_path: Path, file_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, f"{file_server}/{KEY}")
    store = DataStore(cache_dir=tmp_path / "cache")
    path = store.path(KEY)
    assert path == tmp_path / "cache" / KEY
    assert path.read_bytes().startswith(b"#") or path.stat().st_size > 0
    # second use reads the cached file: the server is not needed any more
    assert DataStore(cache_dir=tmp_path / "cache").path(KEY) == path


def test_download_with_wrong_checksum_is_not_saved(
    tmp_path: Path, file_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, f"{file_server}/{KEY}", sha256="0" * 64)
    with pytest.raises(DataError, match="not saved"):
        DataStore(cache_dir=tmp_path / "cache").path(KEY)
    assert not (tmp_path / "cache" / KEY).exists()


def test_unreachable_download_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, "http://127.0.0.1:9/nothing")
    with pytest.raises(DataError, match="download from .* failed"):
        DataStore(cache_dir=tmp_path / "cache", download_timeout=5).path(KEY)


def test_source_without_url_asks_for_a_mirror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    with pytest.raises(DataError, match="no download URL"):
        DataStore(cache_dir=tmp_path).path("downstream/stereoset/test.jsonl")
