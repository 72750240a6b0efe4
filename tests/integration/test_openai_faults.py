"""The openai backend through a faulty proxy: 500s, 429 with Retry-After, stalls past the timeout.

The proxy answers a faulty request itself, without forwarding it, so the server sees the same
sequence of prompts as on a direct run, and greedy answers must come out identical.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from openai_proxy import FaultyProxy
from openai_server import (  # noqa: F401  (openai_server: session fixture)
    RunningServer,
    openai_server,
    start_llama_cpp_server,
)

import biasaudit
from biasaudit.models import load_backend
from biasaudit.models.llamacpp import smollm2_path
from biasaudit.requests import GenerateRequest, GenerationParams

pytestmark = pytest.mark.integration

#: POSTs 0-2 are the start-up probes (chat, completion, echo); the run starts at 3.
FAULTS = {3: "500", 4: "429", 6: "stall", 7: "500", 8: "500", 10: "429"}
TIMEOUT = 10.0
ARGS: dict[str, Any] = {"concurrency": 2, "timeout": TIMEOUT, "max_retries": 4}
STOP_OPTIONS = {"stop": {"max_tokens": 24}}


def exchanges(run_dir: Path) -> dict[str, list[tuple[Any, Any]]]:
    records = [json.loads(line) for line in (run_dir / "samples.jsonl").open()]
    return {
        r["sample_id"]: [(e["request"], e["response"]) for e in r["exchanges"]] for r in records
    }


def run_stop(
    spec: str, out: Path, limit: int, args: dict[str, Any] | None = None
) -> biasaudit.RunResult:
    return biasaudit.evaluate(
        "stop",
        model=spec,
        model_args=args or ARGS,
        options=STOP_OPTIONS,
        limit=limit,
        output_dir=out,
        use_cache=False,
        progress=False,
    )


def assert_same_run(direct_dir: Path, direct: Any, proxied_dir: Path, proxied: Any) -> None:
    (plain,), (faulty,) = direct.benchmarks, proxied.benchmarks
    assert plain.requests_failed == faulty.requests_failed == 0
    assert plain.requests_sent == faulty.requests_sent
    assert exchanges(direct_dir) == exchanges(proxied_dir)
    assert [m.model_dump() for m in plain.metrics] == [m.model_dump() for m in faulty.metrics]


def test_stop_run_survives_faults_with_identical_results(
    openai_server: RunningServer,  # noqa: F811
    tmp_path: Path,
) -> None:
    direct = run_stop(f"openai:smollm2@{openai_server.base_url}", tmp_path / "direct", limit=1)
    with FaultyProxy(openai_server.base_url, FAULTS, stall_s=TIMEOUT + 5) as proxy:
        proxied = run_stop(f"openai:smollm2@{proxy.base_url}", tmp_path / "proxied", limit=1)
    injected = [action for action in proxy.actions() if action != "ok"]
    assert sorted(injected) == sorted(FAULTS.values())  # every fault was met and retried
    assert_same_run(tmp_path / "direct", direct, tmp_path / "proxied", proxied)


@pytest.mark.slow
def test_larger_stop_run_with_faults_on_a_cycle(tmp_path: Path) -> None:
    """Concurrent requests on a loaded machine may also time out for real after the server
    has seen them; the retry then repeats a prompt, so this run uses a server whose answers do
    not depend on the previous prompt (one-token batches, see openai_server)."""
    faults = {n: ("500", "429", "ok", "500", "ok", "ok", "ok")[n % 7] for n in range(3, 200)}
    faults[12] = faults[40] = "stall"
    args = {**ARGS, "timeout": 30.0, "max_retries": 8}
    with start_llama_cpp_server(smollm2_path(), one_token_batches=True) as server:
        direct = run_stop(
            f"openai:smollm2@{server.base_url}", tmp_path / "direct", limit=8, args=args
        )
        with FaultyProxy(server.base_url, faults, stall_s=35.0) as proxy:
            proxied = run_stop(
                f"openai:smollm2@{proxy.base_url}", tmp_path / "proxied", limit=8, args=args
            )
    assert "stall" in proxy.actions()
    assert_same_run(tmp_path / "direct", direct, tmp_path / "proxied", proxied)


def test_requests_failing_for_good_come_back_as_errors(openai_server: RunningServer) -> None:  # noqa: F811
    always_failing = {n: "500" for n in range(3, 50)}
    with FaultyProxy(openai_server.base_url, always_failing) as proxy:
        backend = load_backend(f"openai:smollm2@{proxy.base_url}", {"max_retries": 1})
        try:
            requests = [
                GenerateRequest(prompt=f"Item {i}:", params=GenerationParams(max_tokens=2))
                for i in range(2)
            ]
            answers = backend.generate(requests)
        finally:
            backend.close()
    assert all(not a.ok for a in answers)
    assert all(
        a.error is not None and "HTTP 500" in a.error and "(after 2 attempts)" in a.error
        for a in answers
    )
    assert proxy.actions()[3:] == ["500"] * 4  # each request: one try + one retry, no more


def test_retry_after_is_honoured(openai_server: RunningServer) -> None:  # noqa: F811
    with FaultyProxy(openai_server.base_url, {3: "429"}, retry_after="2") as proxy:
        backend = load_backend(f"openai:smollm2@{proxy.base_url}", {"max_retries": 2})
        try:
            started = time.monotonic()
            (answer,) = backend.generate(
                [GenerateRequest(prompt="Hello", params=GenerationParams(max_tokens=2))]
            )
            elapsed = time.monotonic() - started
        finally:
            backend.close()
    assert answer.ok
    assert proxy.actions()[3:] == ["429", "ok"]
    # The backoff alone would wait at most 0.5 s before the first retry.
    assert elapsed >= 2.0


def test_client_errors_are_not_retried(openai_server: RunningServer) -> None:  # noqa: F811
    """A prompt longer than the server's context is a 400: reported at once, not retried."""
    too_long = "word " * 3000
    with FaultyProxy(openai_server.base_url) as proxy:
        backend = load_backend(f"openai:smollm2@{proxy.base_url}", {"max_retries": 3})
        try:
            (answer,) = backend.generate(
                [GenerateRequest(prompt=too_long, params=GenerationParams(max_tokens=2))]
            )
        finally:
            backend.close()
    assert answer.error is not None and "HTTP 400" in answer.error
    assert "attempts" not in answer.error
    assert len(proxy.log) == 4  # three probes, one attempt
