"""The data layer: offline mirror, checksum verification, and first-use download."""

from __future__ import annotations

import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasaudit.discovery import open_store
from biasaudit.errors import DataError

KEY = "stop/README.md"


def test_mirror_file_is_verified(data_dir: Path) -> None:
    store = open_store(data_dir)
    path = store.path(KEY)
    assert path == data_dir / KEY
    assert store.sha256(KEY) == open_store().source(KEY).sha256


def test_env_var_selects_mirror(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BIASAUDIT_DATA_DIR", str(data_dir))
    assert open_store().path(KEY) == data_dir / KEY


def test_missing_data_dir_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="does not exist"):
        open_store(tmp_path / "nope")


def test_missing_file_names_the_expected_path(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"stop/README.md: not found in data dir"):
        open_store(tmp_path).path(KEY)


def test_checksum_mismatch_is_an_error(tmp_path: Path, data_dir: Path) -> None:
    target = tmp_path / KEY
    target.parent.mkdir(parents=True)
    shutil.copy(data_dir / KEY, target)
    with target.open("a") as handle:
        handle.write("tampered\n")
    with pytest.raises(DataError, match="sha256 mismatch"):
        open_store(tmp_path).path(KEY)


def test_unknown_source_key() -> None:
    with pytest.raises(DataError, match="no pinned data source"):
        open_store().source("nope/nothing.csv")


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
    from biasaudit import discovery

    sources = dict(discovery.declared_sources())
    sources[key] = sources[key].model_copy(update={"url": url, **changes})
    monkeypatch.setattr(discovery, "declared_sources", lambda: sources)


def test_first_use_downloads_and_verifies(
    tmp_path: Path, file_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, f"{file_server}/{KEY}")
    store = open_store(cache_dir=tmp_path / "cache")
    path = store.path(KEY)
    assert path == tmp_path / "cache" / KEY
    assert path.read_bytes().startswith(b"#") or path.stat().st_size > 0
    # second use reads the cached file: the server is not needed any more
    assert open_store(cache_dir=tmp_path / "cache").path(KEY) == path


def test_download_with_wrong_checksum_is_not_saved(
    tmp_path: Path, file_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, f"{file_server}/{KEY}", sha256="0" * 64)
    with pytest.raises(DataError, match="not saved"):
        open_store(cache_dir=tmp_path / "cache").path(KEY)
    assert not (tmp_path / "cache" / KEY).exists()


def test_unreachable_download_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, "http://127.0.0.1:9/nothing")
    with pytest.raises(DataError, match="download from .* failed"):
        open_store(cache_dir=tmp_path / "cache", download_timeout=5).path(KEY)


def test_source_without_url_asks_for_a_mirror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    with pytest.raises(DataError, match="no download URL"):
        open_store(cache_dir=tmp_path).path("downstream/stereoset/test.jsonl")


# --- several data dirs (issue 33 item 9) ---------------------------------------------------


def _copy(root: Path, data_dir: Path, tamper: bool = False) -> Path:
    target = root / KEY
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(data_dir / KEY, target)
    if tamper:
        with target.open("a") as handle:
            handle.write("tampered\n")
    return target


@pytest.mark.parametrize("form", ["list", "pathsep"])
def test_several_data_dirs_are_searched_in_order_and_the_pin_decides(
    tmp_path: Path, data_dir: Path, form: str
) -> None:
    import os

    empty, changed, good = tmp_path / "empty", tmp_path / "changed", tmp_path / "good"
    empty.mkdir()
    _copy(changed, data_dir, tamper=True)  # a copy that is not the pinned file comes first
    right = _copy(good, data_dir)
    dirs = [empty, changed, good]
    value: object = dirs if form == "list" else os.pathsep.join(map(str, dirs))
    store = open_store(value)  # type: ignore[arg-type]
    assert store.path(KEY) == right
    assert store.data_dirs == dirs and store.data_dir == empty


def test_several_dirs_with_no_pinned_copy_name_every_copy(tmp_path: Path, data_dir: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    _copy(a, data_dir, tamper=True)
    _copy(b, data_dir, tamper=True)
    with pytest.raises(DataError, match=r"no copy with the pinned sha256 .*a/stop.*b/stop"):
        open_store([a, b]).path(KEY)
    with pytest.raises(DataError, match=r"not found in data dirs .* nor in the download cache"):
        open_store([tmp_path / "a", tmp_path]).path("stop/STOP-full.json")


def test_the_download_cache_is_a_fallback_beside_a_mirror(tmp_path: Path, data_dir: Path) -> None:
    mirror, cache = tmp_path / "mirror", tmp_path / "cache"
    mirror.mkdir()
    cached = _copy(cache, data_dir)
    assert open_store(mirror, cache_dir=cache).path(KEY) == cached


def test_repeated_data_dir_options_join(tmp_path: Path) -> None:
    import os

    from biasaudit.cli.app import build_parser

    args = build_parser().parse_args(
        ["validate", "stop", "--data-dir", str(tmp_path / "a"), "--data-dir", str(tmp_path / "b")]
    )
    assert args.data_dir == f"{tmp_path / 'a'}{os.pathsep}{tmp_path / 'b'}"


def test_pin_of_a_local_file_records_its_git_provenance_or_says_none(tmp_path: Path) -> None:
    import subprocess

    from biasaudit.data.pin import pin

    repo = tmp_path / "repo"
    (repo / "data").mkdir(parents=True)
    (repo / "data" / "rows.csv").write_text("a,b\n1,2\n")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "rows"], check=True)
    head = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    pins, warnings = pin([str(repo / "data" / "rows.csv")], license="MIT", citation="c")
    source = pins["rows.csv"]
    assert (source.commit, source.upstream_path) == (head.strip(), "data/rows.csv")
    assert source.upstream == f"git:{repo.resolve()}" and warnings == []
    (repo / "data" / "rows.csv").write_text("a,b\n1,3\n")  # changed since the commit
    pins, warnings = pin([str(repo / "data" / "rows.csv")], license="MIT", citation="c")
    assert pins["rows.csv"].commit == "" and "changed since the last commit" in warnings[0]
    loose = tmp_path / "loose.csv"
    loose.write_text("x\n")
    _, warnings = pin([str(loose)], license="MIT", citation="c")
    assert warnings == [f"{loose}: no provenance recorded (not in a git work tree)"]


def test_pin_of_a_truncated_download_pins_nothing() -> None:
    import socket

    from biasaudit.data.pin import pin

    body = b"x" * 500

    class Truncating(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # the http.server API names it
            self.send_response(200)
            self.send_header("Content-Length", "1000")  # announces 1,000 bytes, sends 500
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)

        def log_message(self, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Truncating)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/rows.csv"
        with pytest.raises(DataError, match=r"rows.csv: (truncated download|cannot be read)"):
            pin([url], license="MIT", citation="c", timeout=10)
    finally:
        server.shutdown()
        server.server_close()


# --- issue 33 item 8 (reliability-3 M10): data pin / fetch inputs that were tracebacks -------


def test_a_garbage_url_is_one_error_and_leaves_nothing_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, "::not a url::")
    with pytest.raises(DataError, match="download from ::not a url:: failed"):
        open_store(cache_dir=tmp_path / "cache").path(KEY)
    assert [p for p in (tmp_path / "cache").rglob("*") if p.is_file()] == []


def test_a_cached_copy_that_is_a_directory_is_one_error(
    tmp_path: Path, file_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, f"{file_server}/{KEY}")
    (tmp_path / "cache" / KEY).mkdir(parents=True)
    with pytest.raises(DataError, match="not a file where the cached copy belongs"):
        open_store(cache_dir=tmp_path / "cache").path(KEY)


def test_a_cache_dir_that_is_a_file_is_one_error(
    tmp_path: Path, file_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
    _point_source_at(monkeypatch, KEY, f"{file_server}/{KEY}")
    (tmp_path / "afile").write_text("x")
    with pytest.raises(DataError, match="cannot write the download cache there"):
        open_store(cache_dir=tmp_path / "afile").path(KEY)


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("bad-utf8.json", b'{"a": "\xff"}', "not UTF-8"),
        ("deep.json", b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
        ("a-directory", None, "is a directory"),
    ],
)
def test_data_pin_into_an_unreadable_sources_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes | None, words: str
) -> None:
    from biasaudit.cli.app import main

    local = tmp_path / "x.csv"
    local.write_text("a,b\n")
    target = tmp_path / name
    if content is None:
        target.mkdir()
    else:
        target.write_bytes(content)
    argv = ["data", "pin", str(local), "--license", "MIT", "--citation", "c", "-o", str(target)]
    assert main(argv) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if "warning" not in line]
    assert len(err) == 1 and words in err[0] and "not changed" in err[0], err
    if content is not None:
        assert target.read_bytes() == content


@pytest.mark.parametrize("value", ["inf", "nan", "0", "-1"])
def test_data_pin_timeout_must_be_a_positive_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    from biasaudit.cli.app import main

    local = tmp_path / "x.csv"
    local.write_text("a,b\n")
    argv = ["data", "pin", str(local), "--license", "MIT", "--citation", "c", "--timeout", value]
    assert main(argv) == 2
    assert "--timeout must be a positive number of seconds" in capsys.readouterr().err


def test_a_store_resolves_only_the_sources_it_was_given(tmp_path: Path) -> None:
    """The data layer knows no benchmark: a store is handed its sources (issue 30)."""
    import hashlib

    from biasaudit.data import DataSource, DataStore

    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "a.txt").write_bytes(b"alpha\n")
    source = DataSource(
        key="toy/a.txt",
        url=None,
        sha256=hashlib.sha256(b"alpha\n").hexdigest(),
        license="MIT",
        citation="",
    )
    asked: list[int] = []

    def provide() -> dict[str, DataSource]:
        asked.append(1)
        return {source.key: source}

    store = DataStore(tmp_path, sources=provide)
    assert asked == []  # building the store reads no declarations
    assert store.path("toy/a.txt") == tmp_path / "toy" / "a.txt"
    assert store.is_pinned("toy/a.txt") and not store.is_pinned(KEY)
    with pytest.raises(DataError, match=f"no pinned data source '{KEY}'"):
        DataStore(tmp_path, sources={source.key: source}).path(KEY)
