"""Download the gated BEADs release from the Hugging Face hub with the user's own token.

`fetch_beads(dest, token)`:

1. no token -> `DataError` before any request is made;
2. ``GET {endpoint}/api/datasets/{repo}/revision/{revision}?blobs=true`` (the hub's
   dataset-info call with per-file metadata) gives the commit and each file's size and
   checksum: sha256 for LFS files, the git blob id (sha1 of ``"blob <size>\\0" + bytes``)
   for small ones. 401 -> bad token; 403 -> the token has not been granted access;
3. each wanted file is downloaded from ``{endpoint}/datasets/{repo}/resolve/{commit}/{path}``
   to a temporary file, verified, then moved into ``dest/<path>``. A file already in ``dest``
   that verifies is not downloaded again. A mismatch is an error and nothing is kept.

The token goes only into the ``Authorization`` header of requests to the endpoint's host; it
is dropped when the hub redirects a download to another host (its storage CDN). It is never
written anywhere: ``dest/.beads-manifest.json`` records repository, commit, and per file
path, size and sha256.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from biasaudit.benchmarks.beads.dataset import LAYOUT, REPO_ID
from biasaudit.errors import DataError

DEFAULT_ENDPOINT = "https://huggingface.co"
MANIFEST = ".beads-manifest.json"
TOKEN_ENV = "HF_TOKEN"


@dataclass(frozen=True)
class RemoteFile:
    path: str
    size: int | None
    sha256: str | None
    blob_id: str | None


@dataclass(frozen=True)
class FetchResult:
    commit: str
    downloaded: list[str]
    cached: list[str]
    manifest: Path


class _SameHostRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects, but send Authorization only to the host it was meant for."""

    def redirect_request(
        self, req, fp, code, msg, headers, newurl
    ) -> urllib.request.Request | None:
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            old_host = urllib.parse.urlsplit(req.full_url).netloc
            if urllib.parse.urlsplit(newurl).netloc != old_host:
                new.remove_header("Authorization")
        return new


def _opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(_SameHostRedirects())


def files_for(configs: Iterable[str] | None) -> set[str] | None:
    """Repository paths of the given configs (None: every file in the repository)."""
    if configs is None:
        return None
    wanted: set[str] = set()
    for config in configs:
        if config not in LAYOUT:
            raise DataError(f"unknown BEADs config '{config}'; known: {', '.join(LAYOUT)}")
        wanted.update(path for path, _ in LAYOUT[config].values())
    return wanted


def _http_error(exc: urllib.error.HTTPError, what: str, repo: str) -> DataError:
    if exc.code == 401:
        return DataError(
            f"{what}: the hub rejected the token (401); check {TOKEN_ENV} "
            "(a read token from your hub account settings)"
        )
    if exc.code == 403:
        return DataError(
            f"{what}: no access to the gated dataset {repo} (403); accept its conditions on "
            "the dataset page with the account that owns the token, then retry"
        )
    if exc.code == 404:
        return DataError(f"{what}: not found on the hub (404); check the repository and revision")
    return DataError(f"{what}: hub answered HTTP {exc.code} {exc.reason}")


def _get(url: str, token: str, what: str, repo: str, timeout: float) -> Any:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        return _opener().open(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        raise _http_error(exc, what, repo) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise DataError(f"{what}: cannot reach {url.split('/api/')[0]} ({reason})") from None


def _listing(endpoint: str, repo: str, revision: str, token: str, timeout: float) -> Any:
    url = (
        f"{endpoint}/api/datasets/{repo}/revision/{urllib.parse.quote(revision, safe='')}"
        "?blobs=true"
    )
    with _get(url, token, f"listing {repo}@{revision}", repo, timeout) as response:
        try:
            return json.loads(response.read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise DataError(f"listing {repo}@{revision}: the hub's answer is not JSON") from None


def _remote_files(info: Any, repo: str) -> tuple[str, list[RemoteFile]]:
    if not isinstance(info, dict) or not isinstance(info.get("sha"), str):
        raise DataError(f"listing {repo}: unexpected answer (no commit sha)")
    files = []
    for sibling in info.get("siblings") or []:
        lfs = sibling.get("lfs") or {}
        files.append(
            RemoteFile(
                path=str(sibling["rfilename"]),
                size=sibling.get("size", lfs.get("size")),
                sha256=lfs.get("sha256"),
                blob_id=sibling.get("blobId"),
            )
        )
    return info["sha"], files


def _digests(path: Path, size: int) -> tuple[str, str]:
    """(sha256, git blob sha1) of a file."""
    sha256 = hashlib.sha256()
    blob = hashlib.sha1(f"blob {size}\0".encode(), usedforsecurity=False)
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha256.update(block)
            blob.update(block)
    return sha256.hexdigest(), blob.hexdigest()


def _verify(path: Path, remote: RemoteFile) -> str | None:
    """The file's sha256 when it matches `remote`'s size and checksum, else None."""
    size = path.stat().st_size
    if remote.size is not None and size != remote.size:
        return None
    sha256, blob = _digests(path, size)
    if remote.sha256 is not None:
        return sha256 if sha256 == remote.sha256 else None
    if remote.blob_id is not None:
        return sha256 if blob == remote.blob_id else None
    return None


def fetch_beads(
    dest: str | Path,
    token: str | None,
    *,
    endpoint: str = DEFAULT_ENDPOINT,
    repo: str = REPO_ID,
    revision: str = "main",
    configs: Iterable[str] | None = None,
    timeout: float = 60.0,
    progress: Callable[[str], None] | None = None,
) -> FetchResult:
    """Download, verify and cache the release (or the files of `configs`) into `dest`."""
    if not token or not token.strip():
        raise DataError(
            f"BEADs is gated on the hub ({repo}): set {TOKEN_ENV} to a token of an account "
            "that accepted the dataset's conditions (no request was made)"
        )
    token = token.strip()
    endpoint = endpoint.rstrip("/")
    wanted = files_for(configs)
    commit, remote = _remote_files(_listing(endpoint, repo, revision, token, timeout), repo)
    chosen = [f for f in remote if wanted is None or f.path in wanted]
    missing = sorted((wanted or set()) - {f.path for f in remote})
    if missing:
        raise DataError(f"{repo}@{commit[:12]} has no file {missing[0]} (layout changed?)")
    unverifiable = [f.path for f in chosen if f.sha256 is None and f.blob_id is None]
    if unverifiable:
        raise DataError(f"{repo}: the hub gave no checksum for {unverifiable[0]}; not fetched")
    root = Path(dest).expanduser()
    root.mkdir(parents=True, exist_ok=True)
    downloaded, cached, entries = [], [], []
    for remote_file in chosen:
        target = root / remote_file.path
        digest = _verify(target, remote_file) if target.is_file() else None
        if digest is not None:
            cached.append(remote_file.path)
        else:
            if progress is not None:
                progress(f"downloading {remote_file.path}")
            digest = _download(endpoint, repo, commit, remote_file, target, token, timeout)
            downloaded.append(remote_file.path)
        size = target.stat().st_size
        entries.append({"path": remote_file.path, "size": size, "sha256": digest})
    manifest = root / MANIFEST
    manifest.write_text(
        json.dumps(
            {"repo": repo, "endpoint": endpoint, "commit": commit, "files": entries}, indent=1
        )
        + "\n"
    )
    return FetchResult(commit=commit, downloaded=downloaded, cached=cached, manifest=manifest)


def _download(
    endpoint: str,
    repo: str,
    commit: str,
    remote: RemoteFile,
    target: Path,
    token: str,
    timeout: float,
) -> str:
    url = f"{endpoint}/datasets/{repo}/resolve/{commit}/{urllib.parse.quote(remote.path)}"
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False, suffix=".part") as tmp:
        tmp_path = Path(tmp.name)
        try:
            with _get(url, token, f"downloading {remote.path}", repo, timeout) as response:
                for block in iter(lambda: response.read(1 << 20), b""):
                    tmp.write(block)
        except OSError as exc:
            tmp.close()
            tmp_path.unlink(missing_ok=True)
            raise DataError(f"downloading {remote.path}: interrupted ({exc})") from None
        except BaseException:
            tmp.close()
            tmp_path.unlink(missing_ok=True)
            raise
    digest = _verify(tmp_path, remote)
    if digest is None:
        tmp_path.unlink(missing_ok=True)
        raise DataError(
            f"{remote.path}: downloaded bytes do not match the hub's checksum; not saved"
        )
    tmp_path.replace(target)
    return digest
