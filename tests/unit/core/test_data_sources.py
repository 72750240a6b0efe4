"""Benchmarks declare their own pinned files; `data pin`, `data fetch` and `validate` on them.

Oracles: the offline mirror's MANIFEST.json (sha256 and sizes computed when the mirror was
built), and hashlib over the bytes the test itself wrote or served.
"""

from __future__ import annotations

import hashlib
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasaudit import plugin
from biasaudit.cli.app import main
from biasaudit.data.pin import upstream_of
from biasaudit.discovery import open_store
from plugin_packages import on_path, write_package

ROOT = Path(__file__).resolve().parents[3]


def _manifest(data_dir: Path) -> dict[str, dict[str, object]]:
    return {e["file"]: e for e in json.loads((data_dir / "MANIFEST.json").read_text())}


def test_every_declared_file_matches_the_mirror_manifest(data_dir: Path) -> None:
    manifest = _manifest(data_dir)
    declared = list(open_store().sources().values())
    assert len(declared) >= 168  # the 168 files pinned before the move, and new ones
    for source in declared:
        entry = manifest[source.key]
        assert (source.sha256, source.bytes) == (entry["sha256"], entry["bytes"]), source.key
        assert source.license == entry["license"] and source.citation


def test_the_core_names_no_benchmark_data() -> None:
    assert not (ROOT / "src/biasaudit/data/sources.json").exists()
    script = (ROOT / "scripts/update_sources.py").read_text()
    for name in plugin.names():
        assert f'"{name}"' not in script, f"update_sources.py names {name}"


def test_pin_a_local_path_and_a_file_url(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mirrored = data_dir / "stop" / "README.md"
    own = tmp_path / "items.txt"
    own.write_bytes(b"one\ntwo\n")
    args = ["data", "pin", str(own), mirrored.as_uri(), "--prefix", "toy/"]
    assert main([*args, "--license", "MIT", "--citation", "Toy et al."]) == 0
    pins = json.loads(capsys.readouterr().out)
    assert pins["toy/items.txt"]["sha256"] == hashlib.sha256(b"one\ntwo\n").hexdigest()
    assert pins["toy/items.txt"]["bytes"] == 8 and pins["toy/items.txt"]["url"] is None
    expected = _manifest(data_dir)["stop/README.md"]
    assert pins["toy/README.md"]["sha256"] == expected["sha256"]
    assert pins["toy/README.md"]["url"] == mirrored.as_uri()


def test_pin_merges_into_a_sources_file(tmp_path: Path) -> None:
    out = tmp_path / "sources.json"
    out.write_text(json.dumps({"toy/old.txt": {"url": None, "sha256": "a" * 64}}))
    (tmp_path / "new.txt").write_text("x")
    cite = ["--license", "MIT", "--citation", "c", "--prefix", "toy/", "-o", str(out)]
    assert main(["data", "pin", str(tmp_path / "new.txt"), *cite]) == 0
    assert sorted(json.loads(out.read_text())) == ["toy/new.txt", "toy/old.txt"]


def test_pin_of_a_missing_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["data", "pin", str(tmp_path / "nope.txt"), "--license", "MIT", "--citation", "c"]
    assert main(argv) == 2
    assert capsys.readouterr().err.strip().endswith("nope.txt: no such file")


def test_upstream_of_raw_urls() -> None:
    url = "https://raw.githubusercontent.com/uclanlp/corefBias/0bce984/WinoBias/wino/a%20b.txt"
    assert upstream_of(url) == ("github.com/uclanlp/corefBias", "0bce984", "WinoBias/wino/a b.txt")
    hf = "https://huggingface.co/datasets/org/set/resolve/main/data/x.csv"
    assert upstream_of(hf) == ("huggingface.co/datasets/org/set", "main", "data/x.csv")
    assert upstream_of("https://example.org/x.csv") == ("", "", "")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served over HTTP on 127.0.0.1, standing in for the upstream host."""
    folder = tmp_path / "upstream"
    folder.mkdir()

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

        def log_message(self, format: str, *args: object) -> None:
            return None

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield folder, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


TOY_SPEC = """
from biasaudit.benchmarks import BenchmarkSpec

SPEC = BenchmarkSpec(
    name="toydata",
    title="A plug-in that reads one pinned file",
    citation="written for the data-source test",
    benchmark="toydata.benchmark:ToyData",
    sources="toydata:sources.json",
)
"""

TOY_BENCHMARK = """
from biasaudit.benchmarks import Benchmark, Sample, SampleScore
from biasaudit.requests import Capability, GenerateRequest


class ToyData(Benchmark):
    name, version = "toydata", "1"

    def required_capabilities(self):
        return frozenset({Capability.GENERATE})

    def data_keys(self):
        return ["toydata/items.txt"]

    def load_samples(self):
        lines = self.store.path("toydata/items.txt").read_text().split()
        return [Sample(f"item-{i}", {"text": t}) for i, t in enumerate(lines)]

    def next_requests(self, sample, exchanges):
        return [] if exchanges else [GenerateRequest(prompt=sample.data["text"])]

    def score_sample(self, sample, exchanges):
        return SampleScore(["answered"], {})
"""


def _toy_package(root: Path, url: str) -> None:
    body = b"alpha\nbeta\ngamma\n"
    pins = {
        "toydata/items.txt": {
            "url": url,
            "sha256": hashlib.sha256(body).hexdigest(),
            "license": "CC0-1.0",
            "citation": "Toy data",
        }
    }
    files = {
        "__init__.py": TOY_SPEC,
        "benchmark.py": TOY_BENCHMARK,
        "sources.json": json.dumps(pins),
    }
    write_package(root, "toydata", files, {"toydata": "toydata"})


def test_fetch_downloads_and_verifies_a_plugins_files(
    tmp_path: Path,
    served: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder, base = served
    (folder / "items.txt").write_bytes(b"alpha\nbeta\ngamma\n")
    _toy_package(tmp_path / "site", f"{base}/items.txt")
    monkeypatch.setenv("BIASAUDIT_CACHE_DIR", str(tmp_path / "cache"))
    with on_path(tmp_path / "site", monkeypatch, "toydata"):
        assert open_store().source("toydata/items.txt").url == f"{base}/items.txt"
        assert main(["data", "fetch", "toydata"]) == 0
        cached = tmp_path / "cache" / "data" / "toydata" / "items.txt"
        assert cached.read_bytes() == b"alpha\nbeta\ngamma\n"
        assert "1 files downloaded and verified" in capsys.readouterr().out
        # validate without a mirror reads the cached copy: the plug-in's file is verified
        monkeypatch.delenv("BIASAUDIT_DATA_DIR", raising=False)
        (folder / "items.txt").unlink()  # the server is not needed any more
        assert main(["validate", "toydata"]) == 0
        assert "toydata: 1 data files verified, 3 samples" in capsys.readouterr().out


def test_fetch_refuses_a_changed_upstream_file(
    tmp_path: Path,
    served: tuple[Path, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    folder, base = served
    (folder / "items.txt").write_bytes(b"alpha\nbeta\nchanged\n")
    _toy_package(tmp_path / "site", f"{base}/items.txt")
    with on_path(tmp_path / "site", monkeypatch, "toydata"):
        assert main(["data", "fetch", "toydata", "--cache-dir", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert "toydata/items.txt: downloaded file" in err and "not saved" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "c" / "toydata" / "items.txt").exists()


def test_fetch_from_a_file_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    upstream = tmp_path / "items.txt"
    upstream.write_bytes(b"alpha\nbeta\ngamma\n")
    _toy_package(tmp_path / "site", upstream.as_uri())
    with on_path(tmp_path / "site", monkeypatch, "toydata"):
        assert main(["data", "fetch", "toydata", "--cache-dir", str(tmp_path / "c")]) == 0
    assert (tmp_path / "c/toydata/items.txt").read_bytes() == upstream.read_bytes()


def test_fetch_of_a_benchmark_without_sources_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["data", "fetch", "beads"]) == 2
    assert "declares no data files" in capsys.readouterr().err
