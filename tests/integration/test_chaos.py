"""Chaos: runs killed at random points by SIGKILL, SIGINT and SIGTERM, then resumed, and runs
through a proxy that drops, delays and fails requests, end with the results of an undisturbed
run, byte for byte except timestamps and request counters.

The model is a real HTTP server on loopback whose answer is a pure function of the request
(`fake_openai`), reached through the real openai backend, cache and runner, in real
processes; a short series runs in the default suite and a long one is marked slow.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from openai_proxy import RETRIED, FaultyProxy
from runcompare import assert_same_run

import biasaudit


def command(url: str, out: Path, cache: Path, data_dir: Path, limit: int, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "biasaudit.cli", "run", "stop", "-m", f"openai:m@{url}",
        "-M", "concurrency=2", "--batch-size", "4", "--limit", str(limit), "--quiet",
        "--data-dir", str(data_dir), "-o", str(out), "--cache", str(cache), *extra,
    ]  # fmt: skip


def _default_sigint() -> None:
    """In the child: SIGINT as at a terminal. An ignored SIGINT is inherited across exec, and
    something earlier in a full test session leaves it ignored in pytest's process, so without
    this the child ignores Ctrl-C and every SIGINT run finishes (exit 0)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cached_rows(cache: Path) -> int:
    try:
        with sqlite3.connect(cache, timeout=5) as db:
            (count,) = db.execute("SELECT COUNT(*) FROM responses").fetchone()
            return int(count)
    except sqlite3.Error:
        return 0


def run_posts(server: FakeOpenAI) -> int:
    """Generation POSTs of the benchmark (the start-up probes ask other prompts)."""
    return sum(n for key, n in server.posts.items() if '"Hi"' not in key and "France" not in key)


def kill_and_resume(
    n_kills: int, seed: int, tmp_path: Path, data_dir: Path, limit: int
) -> tuple[list[tuple[str, int, int]], int]:
    """Kill a run of `limit` STOP samples (6 requests each) `n_kills` times at random
    points, resume it to the end, compare.

    Returns the kills as (signal, cached rows when sent, exit code) and the POSTs sent.
    """
    rng = random.Random(seed)
    env = dict(os.environ)
    with FakeOpenAI(delay_s=0.04) as server:
        reference = tmp_path / "reference"
        subprocess.run(
            command(server.base_url, reference, tmp_path / "ref.sqlite", data_dir, limit),
            check=True, env=env, timeout=300,
        )  # fmt: skip
        unique = run_posts(server)
        total = cached_rows(tmp_path / "ref.sqlite")
        server.posts.clear()
        run, cache = tmp_path / "run", tmp_path / "run.sqlite"
        kills: list[tuple[str, int, int]] = []
        since_restart = 0  # kills since the run last started from nothing
        signals = [signal.SIGKILL, signal.SIGINT, signal.SIGTERM]
        for index in range(n_kills):
            sig = signals[index % 3] if index < 3 else rng.choice(signals)
            # A run can finish before its kill point on a fast or a loaded machine (exit 0):
            # it then starts again from nothing, so that every kill of the series lands.
            for _attempt in range(6):
                extra = ("--resume",) if (run / "run.json").exists() else ()
                process = subprocess.Popen(
                    command(server.base_url, run, cache, data_dir, limit, *extra),
                    env=env,
                    preexec_fn=_default_sigint,
                )
                # A random point: after a random number of newly cached rows (0 = before or
                # during the first batch), at least a batch short of the whole run.
                target = min(cached_rows(cache) + rng.randint(0, 12), total - 8)
                deadline = time.monotonic() + 120
                while cached_rows(cache) < target and process.poll() is None:
                    assert time.monotonic() < deadline
                    time.sleep(0.01)
                rows = cached_rows(cache)
                if process.poll() is None:
                    process.send_signal(sig)
                code = process.wait(timeout=60)
                if code != 0:
                    break
                shutil.rmtree(run)
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{cache}{suffix}").unlink(missing_ok=True)
                server.posts.clear()
                since_restart = 0
            else:
                pytest.fail(f"six runs in a row finished before their {sig.name}")
            kills.append((sig.name, rows, code))
            since_restart += 1
            if sig == signal.SIGINT:  # -2: it came before Python installed its handler
                assert code in (130, -signal.SIGINT)
        subprocess.run(
            command(server.base_url, run, cache, data_dir, limit, "--resume"),
            check=True,
            env=env,
            timeout=300,
        )
        sent = run_posts(server)
    assert_same_run(reference, run)
    # Nothing cached was re-sent: only requests in flight at a kill (at most one batch of 4
    # each) are sent twice.
    assert unique <= sent <= unique + 4 * since_restart
    print(f"kills (signal, cached rows, exit code): {kills}; {sent} POSTs for {unique} requests")
    return kills, sent


def test_kills_at_random_points_resume_to_identical_results(tmp_path: Path, data_dir: Path) -> None:
    kills, _ = kill_and_resume(3, seed=1, tmp_path=tmp_path, data_dir=data_dir, limit=8)
    assert {name for name, _, _ in kills} == {"SIGKILL", "SIGINT", "SIGTERM"}


@pytest.mark.slow
def test_many_kills_resume_to_identical_results(tmp_path: Path, data_dir: Path) -> None:
    kills, _ = kill_and_resume(15, seed=7, tmp_path=tmp_path, data_dir=data_dir, limit=40)
    assert len(kills) == 15


def faulty_run(rate: float, seed: int, tmp_path: Path, data_dir: Path, limit: int) -> None:
    args = {"concurrency": 4, "timeout": 1.5, "max_retries": 12}
    options = {"stop": {"max_tokens": 24}}
    with FakeOpenAI() as server:
        direct = biasaudit.evaluate(
            "stop", f"openai:m@{server.base_url}", model_args=args, options=options, limit=limit,
            output_dir=tmp_path / "direct", data_dir=data_dir, use_cache=False, progress=False,
        )  # fmt: skip
        unique = run_posts(server)
        server.posts.clear()
        with FaultyProxy(
            server.base_url,
            rate=rate,
            seed=seed,
            stall_s=2.0,
            kinds=("500", "429", "drop", "delay", "stall"),
            retry_after="0",
        ) as proxy:
            faulty = biasaudit.evaluate(
                "stop", f"openai:m@{proxy.base_url}", model_args=args, options=options,
                limit=limit, output_dir=tmp_path / "faulty", data_dir=data_dir,
                use_cache=False, progress=False,
            )  # fmt: skip
        actions = proxy.actions()
        forwarded = run_posts(server)
    assert direct.benchmarks[0].requests_failed == faulty.benchmarks[0].requests_failed == 0
    assert_same_run(tmp_path / "direct", tmp_path / "faulty", same_url=False)
    # Every retried fault cost exactly one more attempt, and nothing else did: the proxy saw
    # the successful POSTs (probes included) plus one per fault, and the server saw each
    # benchmark request exactly once.
    faults = sum(a in RETRIED for a in actions)
    successes = len(actions) - faults
    assert forwarded == unique == faulty.benchmarks[0].requests_sent
    assert successes == unique + 2  # the two start-up probe POSTs
    assert {"500", "429", "drop", "delay", "stall"} <= set(actions)
    tally = {kind: actions.count(kind) for kind in sorted(set(actions))}
    print(f"faulty run: {len(actions)} POSTs through the proxy, {faults} retried faults {tally}")


def test_drops_delays_500s_and_429s_change_nothing(tmp_path: Path, data_dir: Path) -> None:
    faulty_run(rate=0.3, seed=3, tmp_path=tmp_path, data_dir=data_dir, limit=6)


@pytest.mark.slow
def test_a_long_faulty_run_changes_nothing(tmp_path: Path, data_dir: Path) -> None:
    faulty_run(rate=0.4, seed=11, tmp_path=tmp_path, data_dir=data_dir, limit=40)
