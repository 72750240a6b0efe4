"""Pins for new data files: `biasaudit data pin URL...` computes what a benchmark declares.

Each URL (``https://``, ``http://``, ``file://``, or a local path) is read once, streamed
through sha256, and described as a `DataSource` entry of a benchmark's ``sources.json``. For a
GitHub raw URL (``raw.githubusercontent.com/<owner>/<repo>/<commit>/<path>``) or a Hugging Face
``resolve`` URL the upstream repository, revision and path are filled in; a revision that is not
a 40-hex commit is reported, because a branch name is not a pin.
"""

from __future__ import annotations

import http.client
import re
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from biasaudit.data.source import DataSource
from biasaudit.errors import DataError
from biasaudit.hashing import stream_sha256

_GITHUB_RAW = re.compile(r"^https?://raw\.githubusercontent\.com/([^/]+/[^/]+)/([^/]+)/(.+)$")
_HF_RESOLVE = re.compile(r"^https?://huggingface\.co/(datasets/[^/]+/[^/]+)/resolve/([^/]+)/(.+)$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")


def _read(location: str, timeout: float) -> tuple[str, int]:
    if "://" not in location:
        path = Path(location).expanduser()
        if not path.is_file():
            raise DataError(f"{location}: no such file")
        with path.open("rb") as handle:
            return stream_sha256(handle)
    try:
        with urllib.request.urlopen(location, timeout=timeout) as response:
            digest, size = stream_sha256(response)
            declared = response.headers.get("Content-Length")
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        raise DataError(f"{location}: cannot be read ({type(exc).__name__}: {exc})") from None
    if declared is not None and declared.isdigit() and int(declared) != size:
        raise DataError(
            f"{location}: truncated download ({size:,} of the {int(declared):,} bytes the server "
            "announced); nothing pinned, try again"
        )
    return digest, size


def upstream_of(url: str) -> tuple[str, str, str]:
    """(upstream repository, revision, path in it) of a GitHub raw or Hugging Face URL."""
    for pattern, host in ((_GITHUB_RAW, "github.com"), (_HF_RESOLVE, "huggingface.co")):
        match = pattern.match(url)
        if match:
            repo, revision, path = match.groups()
            return f"{host}/{repo}", revision, urllib.parse.unquote(path)
    return "", "", ""


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def git_provenance(path: Path) -> tuple[tuple[str, str, str] | None, str]:
    """(repository, commit, path in it) of a local file committed unchanged in a git work
    tree, else (None, why not): what `data pin` can know of a local file."""
    folder = path.resolve().parent
    top = _git(folder, "rev-parse", "--show-toplevel")
    if not top:
        return None, "not in a git work tree"
    relative = path.resolve().relative_to(Path(top).resolve()).as_posix()
    if _git(Path(top), "ls-files", "--error-unmatch", "--", relative) is None:
        return None, f"not tracked by the git work tree at {top}"
    if _git(Path(top), "status", "--porcelain", "--", relative):
        return None, f"changed since the last commit of the git work tree at {top}"
    commit = _git(Path(top), "rev-parse", "HEAD") or ""
    remote = _git(Path(top), "config", "--get", "remote.origin.url") or f"git:{top}"
    return (remote, commit, relative), ""


def pin(
    locations: list[str],
    *,
    prefix: str = "",
    license: str,
    citation: str,
    timeout: float = 60.0,
) -> tuple[dict[str, DataSource], list[str]]:
    """Pins of `locations` keyed ``<prefix><file name>``, and warnings (unpinned revisions)."""
    pins: dict[str, DataSource] = {}
    warnings: list[str] = []
    for location in locations:
        sha256, size = _read(location, timeout)
        is_url = "://" in location
        upstream, commit, upstream_path = upstream_of(location) if is_url else ("", "", "")
        if not is_url:
            found, why = git_provenance(Path(location))
            if found is None:
                warnings.append(f"{location}: no provenance recorded ({why})")
            else:
                upstream, commit, upstream_path = found
        name = urllib.parse.unquote(location.rstrip("/").rsplit("/", 1)[-1])
        key = f"{prefix}{name}"
        if key in pins:
            raise DataError(f"two files would be pinned as '{key}'; pin them with a prefix each")
        if upstream and not _COMMIT.match(commit):
            warnings.append(f"{location}: revision '{commit}' is not a commit hash")
        elif is_url and not upstream and not location.startswith("file:"):
            warnings.append(f"{location}: no revision in the URL; the file may change")
        pins[key] = DataSource(
            key=key,
            url=location if is_url else None,
            sha256=sha256,
            bytes=size,
            license=license,
            citation=citation,
            upstream=upstream,
            commit=commit,
            upstream_path=upstream_path,
        )
    return pins, warnings


def as_json_entries(pins: dict[str, DataSource]) -> dict[str, dict[str, Any]]:
    """The ``sources.json`` form: key -> the source's fields without the key."""
    return {key: source.model_dump(exclude={"key"}) for key, source in sorted(pins.items())}
