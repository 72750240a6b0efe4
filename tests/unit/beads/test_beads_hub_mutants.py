"""`fetch_beads` against a small hub on 127.0.0.1, for what the main hub tests leave open.

The download's timeout (its default included) and a download that stalls mid-body, a file two
folders deep, a 403 on a download after a listing that went through, and an endpoint with a
path prefix ending in ``X``. The server's listing checksums come from ``git hash-object``,
not from the code under test; every expected message is written out by hand.
"""

from __future__ import annotations

import gc
import json
import socket
import subprocess
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from biasaudit.benchmarks.beads.dataset_hub import MANIFEST, fetch_beads
from biasaudit.errors import DataError

REPO = "lab/bead-mirror"
COMMIT = "89abcdef0123456789abcdef0123456789abcdef"
TOKEN = "hf_mirror_token_51c0"
ASPECTS = "3-Aspects/aspects.csv"
NESTED = "extra/deep/notes.txt"  # two folders below the destination
FILES = {
    ASPECTS: b"text,aspect\nThey hired her for the job,Gender\nHe is old,Age\n",
    NESTED: b"a file two folders deep\n",
}


@dataclass
class Mirror:
    url: str = ""
    #: a path the hub is served under (an endpoint such as http://host/mirrorX)
    prefix: str = ""
    #: files answered with 403 (access withdrawn between the listing and the download)
    forbidden: set[str] = field(default_factory=set)
    #: files whose body stops after half its bytes until `release` is set (or 3 s pass)
    stall: set[str] = field(default_factory=set)
    release: threading.Event = field(default_factory=threading.Event)
    #: (request path, the client socket's timeout) for each request
    timeouts: list[tuple[str, float | None]] = field(default_factory=list)


def _blob_id(body: bytes) -> str:
    out = subprocess.run(
        ["git", "hash-object", "--stdin"], input=body, capture_output=True, check=True
    )
    return out.stdout.decode().strip()


def _listing() -> bytes:
    siblings = [
        {"rfilename": name, "size": len(body), "blobId": _blob_id(body)}
        for name, body in FILES.items()
    ]
    return json.dumps({"id": REPO, "sha": COMMIT, "siblings": siblings}).encode()


@pytest.fixture()
def mirror() -> Iterator[Mirror]:
    listing = _listing()
    state = Mirror()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _send(self, code: int, body: bytes) -> None:
            self.send_response(code)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _client_timeout(self) -> float | None:
            # the client's end of this connection is a socket of this same process (the test's
            # fetch_beads): the one whose local address is our peer's; its real timeout
            for obj in gc.get_objects():
                if isinstance(obj, socket.socket) and obj.fileno() != -1:
                    try:
                        ends = (obj.getsockname(), obj.getpeername())
                    except OSError:
                        continue
                    if ends == (self.client_address, self.server.server_address):
                        return obj.gettimeout()
            raise AssertionError("the client's socket was not found")

        def do_GET(self) -> None:
            if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                return self._send(401, b"{}")
            if not self.path.startswith(state.prefix + "/"):
                return self._send(404, b"{}")
            path = self.path[len(state.prefix) :]
            state.timeouts.append((path, self._client_timeout()))
            if path == f"/api/datasets/{REPO}/revision/main?blobs=true":
                return self._send(200, listing)
            resolve = f"/datasets/{REPO}/resolve/{COMMIT}/"
            name = urllib.parse.unquote(path[len(resolve) :])
            if not path.startswith(resolve) or name not in FILES:
                return self._send(404, b"{}")
            if name in state.forbidden:
                return self._send(403, b'{"error":"Access to this dataset is restricted"}')
            body = FILES[name]
            if name not in state.stall:
                return self._send(200, body)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            state.release.wait(3)
            self.wfile.write(body[len(body) // 2 :])

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True).start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield state
    state.release.set()  # a stalled answer ends now, not after its 3 s
    server.shutdown()
    server.server_close()


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_every_request_carries_the_timeout_60_s_by_default(mirror: Mirror, tmp_path: Path) -> None:
    # 60 s is fetch_beads's documented default (docs/benchmarks/beads.md); the listing and
    # each download are opened with it, and with the timeout the caller passes instead
    fetch_beads(tmp_path / "a", TOKEN, endpoint=mirror.url, repo=REPO)
    download = f"/datasets/{REPO}/resolve/{COMMIT}/"
    assert mirror.timeouts == [
        (f"/api/datasets/{REPO}/revision/main?blobs=true", 60.0),
        (download + urllib.parse.quote(ASPECTS), 60.0),
        (download + urllib.parse.quote(NESTED), 60.0),
    ]
    mirror.timeouts.clear()
    fetch_beads(tmp_path / "b", TOKEN, endpoint=mirror.url, repo=REPO, timeout=7.5)
    assert [seconds for _, seconds in mirror.timeouts] == [7.5, 7.5, 7.5]


def test_a_download_that_stalls_is_given_up_after_the_timeout(
    mirror: Mirror, tmp_path: Path
) -> None:
    # the listing answers; the file's body stops half way and the socket read times out
    mirror.stall = {ASPECTS}
    with pytest.raises(DataError) as caught:
        fetch_beads(tmp_path, TOKEN, endpoint=mirror.url, repo=REPO, timeout=1.0)
    assert str(caught.value) == f"downloading {ASPECTS}: interrupted (timed out)"
    # no partial file is left, neither the target nor its `.part`
    assert _files(tmp_path) == []


def test_a_file_two_folders_deep_gets_its_folders(mirror: Mirror, tmp_path: Path) -> None:
    # dest exists; `extra/deep/` below it does not
    result = fetch_beads(tmp_path, TOKEN, endpoint=mirror.url, repo=REPO)
    assert result.downloaded == [ASPECTS, NESTED]
    assert (tmp_path / NESTED).read_bytes() == FILES[NESTED]
    assert _files(tmp_path) == sorted([ASPECTS, NESTED, MANIFEST])


def test_a_403_on_a_download_names_the_repository(mirror: Mirror, tmp_path: Path) -> None:
    mirror.forbidden = {NESTED}
    with pytest.raises(DataError) as caught:
        fetch_beads(tmp_path, TOKEN, endpoint=mirror.url, repo=REPO)
    assert str(caught.value) == (
        f"downloading {NESTED}: no access to the gated dataset lab/bead-mirror (403); accept "
        "its conditions on the dataset page with the account that owns the token, then retry"
    )
    # the file before it was verified and kept; nothing of the refused one, no manifest
    assert _files(tmp_path) == [ASPECTS]


def test_an_endpoint_under_a_path_ending_in_x_keeps_its_path(
    mirror: Mirror, tmp_path: Path
) -> None:
    # only the trailing slash is taken off: http://host/mirrorX/ -> http://host/mirrorX
    mirror.prefix = "/mirrorX"
    result = fetch_beads(tmp_path, TOKEN, endpoint=mirror.url + "/mirrorX/", repo=REPO)
    assert result.downloaded == [ASPECTS, NESTED]
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    assert manifest["endpoint"] == mirror.url + "/mirrorX"
    assert [path for path, _ in mirror.timeouts] == [
        f"/api/datasets/{REPO}/revision/main?blobs=true",
        f"/datasets/{REPO}/resolve/{COMMIT}/3-Aspects/aspects.csv",
        f"/datasets/{REPO}/resolve/{COMMIT}/extra/deep/notes.txt",
    ]
