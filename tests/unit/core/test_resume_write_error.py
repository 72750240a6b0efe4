"""`run --resume` of a complete run that cannot write (a 16 KB file-size limit, as a full disk)
keeps the complete run: results.json and samples.jsonl come back byte for byte (issue 33 item
8; before the fix results.json was deleted and samples.jsonl cut to 16 KB)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasaudit.cli.app import main
from biasaudit.models.spec import BACKENDS

RUN = ["run", "crows_pairs", "-m", "fake:a", "--limit", "60", "-q", "--no-cache"]

_LIMITED = """
import resource, sys
from biasaudit.models.spec import BACKENDS
BACKENDS._paths["fake"] = "biasaudit.testing.fake_backend:FakeBackend"
BACKENDS._descriptions["fake"] = "conformance fake"
resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, resource.RLIM_INFINITY))
from biasaudit.cli.app import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.fixture(autouse=True)
def fake_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    yield


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_a_resume_that_cannot_write_keeps_the_complete_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert main([*RUN, "-o", str(out)]) == 0
    before = _files(out)
    assert len(before["samples.jsonl"]) > 16 * 1024  # the limit bites mid-file
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(
        [sys.executable, "-c", _LIMITED, *RUN, "-o", str(out), "--resume"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 2, done.stderr
    err = done.stderr.strip().splitlines()
    assert len(err) == 1 and "samples.jsonl: cannot write" in err[0], done.stderr
    assert _files(out) == before  # nothing lost, no *.prev left behind


def test_a_resume_that_succeeds_leaves_no_previous_files(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert main([*RUN, "-o", str(out)]) == 0
    before = _files(out)
    assert main([*RUN, "-o", str(out), "--resume"]) == 0
    after = _files(out)
    assert sorted(after) == sorted(before) == ["results.json", "run.json", "samples.jsonl"]
    assert after["samples.jsonl"] == before["samples.jsonl"]
