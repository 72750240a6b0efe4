"""A run killed mid-way and resumed ends with the results of an uninterrupted run.

Real processes, a real SIGKILL, the real embedded model: the resumed run must not re-send the
requests that were cached before the kill.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from biasaudit.datasets.files import read_json_lines

pytestmark = pytest.mark.integration

LIMIT = "6"  # 6 STOP progressions x 6 turns = 36 generations


def _command(out: Path, cache: Path, data_dir: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "biasaudit.cli",
        "run",
        "stop",
        "--model",
        "embedded",
        "--limit",
        LIMIT,
        "--batch-size",
        "2",
        "--quiet",
        "--data-dir",
        str(data_dir),
        "--output",
        str(out),
        "--cache",
        str(cache),
        *extra,
    ]


def _cached_rows(cache: Path) -> int:
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(cache, timeout=5) as db:
            (count,) = db.execute("SELECT COUNT(*) FROM responses").fetchone()
            return int(count)
    except sqlite3.OperationalError:  # table not created yet
        return 0


def _lines(run_dir: Path) -> list[bytes]:
    path = run_dir / "samples.jsonl"
    return path.read_bytes().splitlines(keepends=True) if path.exists() else []


def _comparable(run_dir: Path) -> tuple[Any, list[Any]]:
    results = json.loads((run_dir / "results.json").read_text())
    bench = results["benchmarks"][0]
    samples = read_json_lines(run_dir / "samples.jsonl")
    return (bench["metrics"], bench["tables"], bench["samples_hash"]), samples


def test_killed_run_resumes_to_identical_results(tmp_path: Path, data_dir: Path) -> None:
    env = dict(os.environ)
    reference_dir, reference_cache = tmp_path / "reference", tmp_path / "reference.sqlite"
    subprocess.run(
        _command(reference_dir, reference_cache, data_dir), check=True, env=env, timeout=600
    )
    total_unique = _cached_rows(reference_cache)

    run_dir, cache = tmp_path / "killed", tmp_path / "killed.sqlite"
    process = subprocess.Popen(_command(run_dir, cache, data_dir), env=env)
    deadline = time.monotonic() + 300
    while (
        (_cached_rows(cache) < 8 or not _lines(run_dir))
        and time.monotonic() < deadline
        and process.poll() is None
    ):
        time.sleep(0.05)
    assert process.poll() is None, "the run finished before it could be killed"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    cached_before_resume = _cached_rows(cache)
    assert 8 <= cached_before_resume < total_unique
    assert not (run_dir / "results.json").exists()
    # samples are streamed as they finish: the killed run left whole lines, the first ones
    # of the uninterrupted run's samples.jsonl
    prefix = _lines(run_dir)
    assert 1 <= len(prefix) < int(LIMIT)
    assert prefix == _lines(reference_dir)[: len(prefix)]
    assert all(json.loads(line)["sample_id"] for line in prefix)

    subprocess.run(_command(run_dir, cache, data_dir, "--resume"), check=True, env=env, timeout=600)
    resumed = json.loads((run_dir / "results.json").read_text())["benchmarks"][0]
    assert resumed["requests_sent"] == total_unique - cached_before_resume
    assert resumed["requests_cached"] >= cached_before_resume
    assert _comparable(run_dir) == _comparable(reference_dir)
