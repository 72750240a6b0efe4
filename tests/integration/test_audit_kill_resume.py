"""Issue 33: a several-model, several-benchmark audit killed (SIGKILL) at several moments and
resumed each time ends with the uninterrupted audit's samples, results and profile, and
never looks complete while it is not. The audit runs in a child process on the conformance
fake backend, each sample written 30 ms apart so the kills land mid-benchmark, between
benchmarks and between models."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from biasaudit.audit.folder import read_audit
from biasaudit.datasets.files import read_json_lines

pytestmark = pytest.mark.integration

CHILD = """
import sys, time
from biasaudit.models.spec import BACKENDS
BACKENDS._paths["fake"] = "biasaudit.testing.fake_backend:FakeBackend"
BACKENDS._descriptions["fake"] = "conformance fake"
from biasaudit.results import io
slow = float(sys.argv[1])
write = io.SamplesWriter.write
def slow_write(self, record):
    write(self, record)
    time.sleep(slow)
io.SamplesWriter.write = slow_write
from biasaudit.cli.app import main
sys.exit(main(sys.argv[2:]))
"""
AUDIT = ["audit", "-m", "fake:a", "-m", "fake:b", "--suite", "demo"]
AUDIT += ["--benchmarks", "stop,bbq,stereoset", "-q"]
MODELS = ("fake_a", "fake_b")


def _start(out: Path, cache: Path, *extra: str, slow: float = 0.03) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    command = [sys.executable, "-c", CHILD, str(slow), *AUDIT, "-o", str(out)]
    return subprocess.Popen(
        [*command, "--cache", str(cache), *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _lines(out: Path) -> int:
    total = 0
    for model in MODELS:
        path = out / model / "samples.jsonl"
        try:  # the writer replaces the file when a resumed run starts: it may be gone a moment
            total += path.read_bytes().count(b"\n")
        except FileNotFoundError:
            continue
    return total


def _kill_at(process: subprocess.Popen[str], out: Path, lines: int) -> bool:
    """SIGKILL the child once this run has written `lines` sample lines; False if it ended."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        if _lines(out) >= lines:
            process.send_signal(signal.SIGKILL)
            process.wait()
            return True
        time.sleep(0.005)
    process.communicate()
    return False


def _state(out: Path) -> dict[str, Any]:
    """What an audit leaves, less what names the time or the folder."""
    state: dict[str, Any] = {}
    for model in MODELS:
        folder = out / model
        records = read_json_lines(folder / "samples.jsonl")
        for record in records:
            for exchange in record["exchanges"]:
                exchange.get("response", {}).pop("seconds", None)
        results = json.loads((folder / "results.json").read_text())
        state[model] = {
            "samples": records,
            "metrics": {
                b["benchmark"]: [(m["name"], m["value"]) for m in b["metrics"]]
                for b in results["benchmarks"]
            },
            "profile": [
                (c["axis"], c["benchmark"], c["group"], c["value"], c["verdict"], c["n"])
                for c in json.loads((folder / "profile.json").read_text())["cells"]
            ],
            "status": read_audit(folder).status,
        }
    state["top"] = read_audit(out).status
    return state


def test_an_audit_killed_at_several_moments_resumes_to_the_uninterrupted_audit(
    tmp_path: Path,
) -> None:
    reference = tmp_path / "reference"
    done = _start(reference, tmp_path / "ref-cache.sqlite", slow=0.0)
    assert done.wait(timeout=300) == 0, done.communicate()[1]
    expected = _state(reference)
    assert expected["top"] == "complete"
    per_model = sum(len(expected[m]["samples"]) for m in MODELS) // 2

    out, cache = tmp_path / "audit", tmp_path / "cache.sqlite"
    # mid first benchmark; mid model a's later benchmarks; early and late in model b
    moments = [3, per_model // 2, per_model + 2, per_model + per_model * 3 // 4]
    killed = 0
    for number, lines in enumerate(moments):
        process = _start(out, cache, *(["--resume"] if number else []))
        if _kill_at(process, out, lines):
            killed += 1
            assert read_audit(out).status != "complete"  # never looks finished
    assert killed == len(moments)
    final = _start(out, cache, "--resume")
    assert final.wait(timeout=300) == 0, final.communicate()[1]
    assert _state(out) == expected
