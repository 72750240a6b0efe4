"""`fetch_beads` over real HTTP: a hub-like server on 127.0.0.1 serving the fixture files.

The server speaks the hub's URL layout (dataset info with ``blobs=true``, ``resolve/<commit>``
downloads, a redirect of the large file to a second "CDN" host) and checks the bearer token.
File checksums in its listing come from ``git hash-object`` and hashlib, not from the code
under test.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from biasaudit.benchmarks.beads.dataset import LAYOUT, BeadsData
from biasaudit.benchmarks.beads.dataset_hub import MANIFEST, fetch_beads
from biasaudit.errors import DataError

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "beads"
COMMIT = "0123456789abcdef0123456789abcdef01234567"
GOOD, NO_ACCESS = "hf_good_token_7f3a91", "hf_no_access_token_2b8c"
LFS_FILE = "0-Full Annotations/Full.csv"
ASPECTS = "3-Aspects/aspects.csv"


@dataclass
class Hub:
    url: str
    cdn_url: str
    requests: list[tuple[str, str, str | None]] = field(default_factory=list)
    corrupt: set[str] = field(default_factory=set)
    #: files whose body is cut off after half its bytes (the connection then closes)
    truncate: set[str] = field(default_factory=set)
    #: a folder whose file names are recorded each time a file is served (what a download
    #: has written next to its target by then)
    watch: Path | None = None
    seen: list[list[str]] = field(default_factory=list)


def _git_blob_id(path: Path) -> str:
    out = subprocess.run(["git", "hash-object", str(path)], capture_output=True, check=True)
    return out.stdout.decode().strip()


def _listing(
    drop_aspects: bool = False, no_checksum: bool = False, no_size: bool = False
) -> dict[str, object]:
    siblings: list[dict[str, object]] = []
    for path in sorted(p for p in FIXTURES.rglob("*") if p.is_file()):
        name = path.relative_to(FIXTURES).as_posix()
        if name == ASPECTS and drop_aspects:
            continue
        if name == ASPECTS and no_checksum:
            siblings.append({"rfilename": name, "size": path.stat().st_size})
            continue
        entry: dict[str, object] = {"rfilename": name, "size": path.stat().st_size}
        if name == LFS_FILE:
            sha = hashlib.sha256(path.read_bytes()).hexdigest()
            entry["lfs"] = {"sha256": sha, "size": path.stat().st_size, "pointerSize": 130}
            entry["blobId"] = "f" * 40  # the pointer's blob, not the content's
        else:
            entry["blobId"] = _git_blob_id(path)
        if no_size:
            del entry["size"]
        siblings.append(entry)
    return {"id": "shainar/BEAD", "sha": COMMIT, "gated": "manual", "siblings": siblings}


def _serve(handler: type[BaseHTTPRequestHandler]) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    # a short poll interval: shutdown() waits for one poll (0.5 s by default)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


@pytest.fixture()
def hub() -> Iterator[Hub]:
    listing = json.dumps(_listing()).encode()
    state = Hub(url="", cdn_url="")

    class Base(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _send(self, code: int, body: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(code)
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _file(self, name: str) -> None:
            if state.watch is not None:
                state.seen.append(sorted(p.name for p in state.watch.iterdir()))
            body = (FIXTURES / name).read_bytes()
            if name in state.corrupt:
                body = body.replace(b"e", b"E", 1)
            if name in state.truncate:
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            self._send(200, body)

    class Cdn(Base):
        def do_GET(self) -> None:
            state.requests.append(("cdn", self.path, self.headers.get("Authorization")))
            self._file(urllib.parse.unquote(self.path.lstrip("/")))

    class Api(Base):
        def do_GET(self) -> None:
            auth = self.headers.get("Authorization")
            state.requests.append(("hub", self.path, auth))
            if auth == f"Bearer {NO_ACCESS}":
                return self._send(403, b'{"error":"Access to dataset shainar/BEAD is restricted"}')
            if auth != f"Bearer {GOOD}":
                return self._send(401, b'{"error":"Invalid credentials in Authorization header"}')
            if self.path == "/api/datasets/shainar/BEAD/revision/main?blobs=true":
                return self._send(200, listing, {"Content-Type": "application/json"})
            if self.path == "/api/datasets/shainar/BEAD/revision/broken?blobs=true":
                return self._send(503, b"{}")
            if self.path == "/api/datasets/shainar/BEAD/revision/html?blobs=true":
                return self._send(200, b"<html>maintenance</html>")
            if self.path == "/api/datasets/shainar/BEAD/revision/partial?blobs=true":
                return self._send(200, json.dumps(_listing(drop_aspects=True)).encode())
            if self.path == "/api/datasets/shainar/BEAD/revision/nosum?blobs=true":
                return self._send(200, json.dumps(_listing(no_checksum=True)).encode())
            if self.path == "/api/datasets/shainar/BEAD/revision/nosize?blobs=true":
                return self._send(200, json.dumps(_listing(no_size=True)).encode())
            if self.path == "/api/datasets/shainar/BEAD/revision/nosha?blobs=true":
                return self._send(200, b'{"siblings": []}')
            if self.path == "/api/datasets/shainar/BEAD/revision/v%2F1?blobs=true":
                return self._send(200, listing, {"Content-Type": "application/json"})
            if self.path == "/api/datasets/shainar/BEAD/revision/ghost?blobs=true":
                ghost = {"rfilename": "ghost.csv", "size": 1, "blobId": "0" * 40}
                body = {"sha": COMMIT, "siblings": [ghost]}
                return self._send(200, json.dumps(body).encode())
            if self.path == "/api/datasets/shainar/BEAD/revision/moved?blobs=true":
                # a same-host redirect: the token must still be sent
                return self._send(
                    302, b"", {"Location": "/api/datasets/shainar/BEAD/revision/main?blobs=true"}
                )
            prefix = f"/datasets/shainar/BEAD/resolve/{COMMIT}/"
            if self.path.startswith(prefix):
                name = urllib.parse.unquote(self.path[len(prefix) :])
                if name == LFS_FILE:
                    target = f"{state.cdn_url}/{urllib.parse.quote(name)}"
                    return self._send(302, b"", {"Location": target})
                if (FIXTURES / name).is_file():
                    return self._file(name)
            self._send(404, b"{}")

    api, state.url = _serve(Api)
    cdn, state.cdn_url = _serve(Cdn)
    yield state
    for server in (api, cdn):
        server.shutdown()
        server.server_close()


def _all_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


def test_missing_token_makes_no_request(hub: Hub, tmp_path: Path) -> None:
    for token in (None, "", "   "):
        with pytest.raises(DataError) as caught:
            fetch_beads(tmp_path, token, endpoint=hub.url)
        assert str(caught.value) == (
            "BEADs is gated on the hub (shainar/BEAD): set HF_TOKEN to a token of an account "
            "that accepted the dataset's conditions (no request was made)"
        )
    assert hub.requests == []


def test_bad_token_401_and_no_access_403(hub: Hub, tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"rejected the token \(401\)"):
        fetch_beads(tmp_path, "hf_wrong", endpoint=hub.url)
    with pytest.raises(DataError, match=r"no access to the gated dataset shainar/BEAD \(403\)"):
        fetch_beads(tmp_path, NO_ACCESS, endpoint=hub.url)
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_fetch_verifies_caches_and_loads(hub: Hub, tmp_path: Path) -> None:
    dest = tmp_path / "beads"
    result = fetch_beads(dest, GOOD, endpoint=hub.url)
    assert result.commit == COMMIT
    expected = sorted(
        p.relative_to(FIXTURES).as_posix() for p in FIXTURES.rglob("*") if p.is_file()
    )
    assert sorted(result.downloaded) == expected
    for name in expected:
        assert (dest / name).read_bytes() == (FIXTURES / name).read_bytes()
    # the LFS file came through the redirect, and the CDN never saw the token
    cdn = [r for r in hub.requests if r[0] == "cdn"]
    assert len(cdn) == 1 and cdn[0][2] is None
    assert all(r[2] == f"Bearer {GOOD}" for r in hub.requests if r[0] == "hub")
    manifest = json.loads((dest / MANIFEST).read_text())
    assert manifest["commit"] == COMMIT
    full = next(f for f in manifest["files"] if f["path"] == LFS_FILE)
    assert full["sha256"] == hashlib.sha256((FIXTURES / LFS_FILE).read_bytes()).hexdigest()
    # loaders read the fetched copy
    assert len(BeadsData(dest).load("1-Text_Classification/bias_train").rows) == 60
    # second fetch: listing only, every file verified from the cache
    before = len(hub.requests)
    again = fetch_beads(dest, GOOD, endpoint=hub.url)
    assert again.downloaded == [] and sorted(again.cached) == expected
    assert len(hub.requests) == before + 1
    # the token is in no written file
    assert GOOD.encode() not in _all_bytes(dest)


def test_configs_select_files(hub: Hub, tmp_path: Path) -> None:
    result = fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["3-Aspects"])
    assert result.downloaded == ["3-Aspects/aspects.csv"]
    with pytest.raises(DataError) as caught:
        fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["Aspects"])
    message = str(caught.value)
    assert message.startswith("unknown BEADs config 'Aspects'; known: ")
    # every known config named once, comma-separated
    assert message.split("known: ")[1].split(", ") == list(LAYOUT)


def test_corrupt_download_is_not_saved(hub: Hub, tmp_path: Path) -> None:
    hub.corrupt = {"3-Aspects/aspects.csv", LFS_FILE}
    with pytest.raises(DataError, match="aspects.csv: downloaded bytes do not match"):
        fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["3-Aspects"])
    with pytest.raises(DataError, match="Full.csv: downloaded bytes do not match"):
        fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["Full_Annotations"])
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_changed_cached_file_is_downloaded_again(hub: Hub, tmp_path: Path) -> None:
    fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["3-Aspects"])
    target = tmp_path / "3-Aspects" / "aspects.csv"
    target.write_text("text,aspect\nedited,Gender\n")
    result = fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["3-Aspects"])
    assert result.downloaded == ["3-Aspects/aspects.csv"]
    assert target.read_bytes() == (FIXTURES / "3-Aspects" / "aspects.csv").read_bytes()


def test_unreachable_endpoint(tmp_path: Path) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    port = server.server_address[1]
    server.server_close()
    with pytest.raises(DataError) as caught:
        fetch_beads(tmp_path, GOOD, endpoint=f"http://127.0.0.1:{port}", timeout=5)
    # the host without the API path, and the socket's own reason
    expected = (
        f"listing shainar/BEAD@main: cannot reach http://127.0.0.1:{port} "
        "([Errno 111] Connection refused)"
    )
    assert str(caught.value) == expected
    shutil.rmtree(tmp_path, ignore_errors=True)


def test_fetch_analysis_reads_the_token_from_the_environment(
    hub: Hub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from biasaudit.cli.app import main

    args = ["beads", "fetch", "--dest", str(tmp_path), "--endpoint", hub.url]
    monkeypatch.delenv("HF_TOKEN", raising=False)
    assert main(args) == 2
    assert "set HF_TOKEN" in capsys.readouterr().err and hub.requests == []
    monkeypatch.setenv("HF_TOKEN", GOOD)
    assert main([*args, "--configs", "3-Aspects"]) == 0
    assert (tmp_path / "3-Aspects" / "aspects.csv").is_file()
    assert GOOD.encode() not in _all_bytes(tmp_path)


def test_interrupted_download_leaves_no_part_file(hub: Hub, tmp_path: Path) -> None:
    hub.truncate = {"3-Aspects/aspects.csv"}
    # http.client returns the short body without an error here; the size/checksum check refuses it
    with pytest.raises(DataError, match=r"aspects\.csv: (downloaded bytes do not match|.*interr)"):
        fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["3-Aspects"])
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []
    hub.truncate = set()
    result = fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["3-Aspects"])
    assert result.downloaded == ["3-Aspects/aspects.csv"]
    assert sorted(p.name for p in (tmp_path / "3-Aspects").iterdir()) == ["aspects.csv"]


def test_stale_part_file_is_not_taken_as_the_complete_file(hub: Hub, tmp_path: Path) -> None:
    # a `.part` left by a killed download, even one holding every byte, is not the file: the
    # fetch downloads the file again and the manifest lists only the real file
    folder = tmp_path / "3-Aspects"
    folder.mkdir()
    full = (FIXTURES / "3-Aspects" / "aspects.csv").read_bytes()
    (folder / "aspects.csv.part").write_bytes(full)
    (folder / "tmpk1ll3d.part").write_bytes(full[: len(full) // 2])
    result = fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["3-Aspects"])
    assert result.downloaded == ["3-Aspects/aspects.csv"] and result.cached == []
    assert (folder / "aspects.csv").read_bytes() == full
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    assert [f["path"] for f in manifest["files"]] == ["3-Aspects/aspects.csv"]


def test_hub_errors_say_what_to_do(hub: Hub, tmp_path: Path) -> None:
    # the whole message, as the module's docstring promises it (what failed, the code, the fix)
    listing = "listing shainar/BEAD@main: "
    cases = [
        (
            "hf_wrong",
            "main",
            listing + "the hub rejected the token (401); check HF_TOKEN "
            "(a read token from your hub account settings)",
        ),
        (
            NO_ACCESS,
            "main",
            listing + "no access to the gated dataset shainar/BEAD (403); accept its "
            "conditions on the dataset page with the account that owns the token, then retry",
        ),
        (
            GOOD,
            "v9",
            "listing shainar/BEAD@v9: not found on the hub (404); check the repository and "
            "revision",
        ),
        (GOOD, "broken", "listing shainar/BEAD@broken: hub answered HTTP 503 Service Unavailable"),
        (GOOD, "html", "listing shainar/BEAD@html: the hub's answer is not JSON"),
        (GOOD, "nosha", "listing shainar/BEAD: unexpected answer (no commit sha)"),
    ]
    for token, revision, message in cases:
        with pytest.raises(DataError) as caught:
            fetch_beads(tmp_path, token, endpoint=hub.url, revision=revision)
        assert str(caught.value) == message
    assert not any(p.is_file() for p in tmp_path.rglob("*"))


def test_a_revision_with_a_slash_is_quoted_in_the_listing_url(hub: Hub, tmp_path: Path) -> None:
    # "v/1" must reach the hub as one path segment, v%2F1 (the server answers only that)
    result = fetch_beads(
        tmp_path, GOOD, endpoint=hub.url + "/", revision="v/1", configs=["3-Aspects"]
    )
    assert result.commit == COMMIT and result.downloaded == ["3-Aspects/aspects.csv"]
    # the endpoint is recorded without the trailing slash
    assert result.manifest == tmp_path / MANIFEST
    assert json.loads(result.manifest.read_text())["endpoint"] == hub.url


def test_a_listing_without_a_wanted_file_or_its_checksum_fetches_nothing(
    hub: Hub, tmp_path: Path
) -> None:
    cases = [
        ("partial", f"shainar/BEAD@{COMMIT[:12]} has no file {ASPECTS} (layout changed?)"),
        ("nosum", f"shainar/BEAD: the hub gave no checksum for {ASPECTS}; not fetched"),
    ]
    for revision, message in cases:
        with pytest.raises(DataError) as caught:
            fetch_beads(tmp_path, GOOD, endpoint=hub.url, revision=revision, configs=["3-Aspects"])
        assert str(caught.value) == message
    assert list(tmp_path.iterdir()) == []


def test_progress_and_manifest_name_each_file(hub: Hub, tmp_path: Path) -> None:
    said: list[str] = []
    dest = tmp_path / "new" / "beads"  # created with its parents
    fetch_beads(dest, GOOD, endpoint=hub.url, configs=["3-Aspects"], progress=said.append)
    assert said == [f"downloading {ASPECTS}"]
    body = (FIXTURES / ASPECTS).read_bytes()
    manifest = json.loads((dest / MANIFEST).read_text())
    assert manifest == {
        "repo": "shainar/BEAD",
        "endpoint": hub.url,
        "commit": COMMIT,
        "files": [{"path": ASPECTS, "size": len(body), "sha256": hashlib.sha256(body).hexdigest()}],
    }
    said.clear()
    again = fetch_beads(dest, GOOD, endpoint=hub.url, configs=["3-Aspects"], progress=said.append)
    assert said == [] and again.cached == [ASPECTS]
    assert json.loads((dest / MANIFEST).read_text()) == manifest


def test_a_listing_without_sizes_is_verified_by_checksum_alone(hub: Hub, tmp_path: Path) -> None:
    # the size is optional in the hub's answer; the git blob id still verifies the file
    result = fetch_beads(tmp_path, GOOD, endpoint=hub.url, revision="nosize", configs=["3-Aspects"])
    assert result.downloaded == [ASPECTS]
    again = fetch_beads(tmp_path, GOOD, endpoint=hub.url, revision="nosize", configs=["3-Aspects"])
    assert again.cached == [ASPECTS]


def test_a_redirect_to_the_same_host_keeps_the_token(hub: Hub, tmp_path: Path) -> None:
    result = fetch_beads(tmp_path, GOOD, endpoint=hub.url, revision="moved", configs=["3-Aspects"])
    assert result.downloaded == [ASPECTS]
    listing = [r for r in hub.requests if "/revision/" in r[1]]
    assert [r[2] for r in listing] == [f"Bearer {GOOD}"] * 2


def test_a_download_is_written_to_a_part_file_beside_its_target(hub: Hub, tmp_path: Path) -> None:
    folder = tmp_path / "3-Aspects"
    folder.mkdir()
    hub.watch = folder
    fetch_beads(tmp_path, GOOD, endpoint=hub.url, configs=["3-Aspects"])
    # while the bytes arrive, the folder holds one temporary `.part` file and not the target
    (during,) = hub.seen
    assert len(during) == 1 and during[0].endswith(".part") and during[0] != "aspects.csv"
    assert sorted(p.name for p in folder.iterdir()) == ["aspects.csv"]


def test_a_failed_download_names_the_file(hub: Hub, tmp_path: Path) -> None:
    with pytest.raises(DataError) as caught:
        fetch_beads(tmp_path, GOOD, endpoint=hub.url, revision="ghost")
    expected = (
        "downloading ghost.csv: not found on the hub (404); check the repository and revision"
    )
    assert str(caught.value) == expected
    assert [p for p in tmp_path.rglob("*") if p.is_file()] == []


def test_a_hub_that_never_answers_is_given_up_after_the_timeout(tmp_path: Path) -> None:
    import socket

    with socket.socket() as silent:  # accepts the connection, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        with pytest.raises(DataError) as caught:
            fetch_beads(tmp_path, GOOD, endpoint=f"http://127.0.0.1:{port}", timeout=0.2)
    assert str(caught.value) == (
        f"listing shainar/BEAD@main: cannot reach http://127.0.0.1:{port} (timed out)"
    )
