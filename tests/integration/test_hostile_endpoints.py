"""Several endpoints when one is down or rate-limited (reliability audit round 3, L3 and L4).

Start-up succeeds when one endpoint passes its checks; the others are disabled and probed
again in the background; a 429 with Retry-After sidelines its endpoint for that long. The
servers are loopback `FakeOpenAI`s whose answer is a pure function of the request
(`expected_text`, the oracle).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from fake_openai import FakeOpenAI, expected_text, free_port
from runcompare import assert_same_run

import biasaudit
from biasaudit.models import load_backend
from biasaudit.models.openai import OpenAIBackend
from biasaudit.requests import GenerateRequest, GenerationParams

PARAMS = GenerationParams(max_tokens=4)
CONCURRENCY = 4


def requests(n: int) -> list[GenerateRequest]:
    return [GenerateRequest(prompt=f"Question {i}: is {i} even?", params=PARAMS) for i in range(n)]


def run_posts(server: FakeOpenAI) -> int:
    """POSTs of the run (the start-up probes ask other prompts)."""
    return sum(n for key, n in server.posts.items() if "Question " in key)


def backend_over(urls: list[str], **args: object) -> OpenAIBackend:
    backend = load_backend(f"openai:m@{','.join(urls)}", {"concurrency": CONCURRENCY, **args})
    assert isinstance(backend, OpenAIBackend)
    return backend


def answers_are_right(backend: OpenAIBackend, n: int) -> None:
    batch = requests(n)
    responses = backend.generate(batch)
    assert [r.error for r in responses] == [None] * n
    assert [r.text for r in responses] == [expected_text({"prompt": q.prompt}) for q in batch]


def test_a_dead_endpoint_at_start_up_does_not_stop_the_run() -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    with FakeOpenAI() as live:
        backend = backend_over([dead, live.base_url], mode="completions")
        try:
            assert set(backend.down_at_start) == {dead}
            assert backend.identity()["base_urls"] == [dead, live.base_url]
            answers_are_right(backend, 40)
        finally:
            backend.close()
        assert run_posts(live) == 40


def test_every_endpoint_down_is_one_line_naming_each() -> None:
    import pytest

    from biasaudit.errors import BackendError

    dead = [f"http://127.0.0.1:{free_port()}/v1" for _ in range(2)]
    with pytest.raises(BackendError, match="no base URL passed the start-up checks") as caught:
        backend_over(dead)
    assert all(url in str(caught.value) for url in dead)
    assert "\n" not in str(caught.value)


def test_an_endpoint_rate_limited_at_start_up_is_left_out_not_waited_for() -> None:
    """Retry-After 600: waiting it out would take ten minutes; the run starts at once on the
    other endpoint, and the limited one never gets a request of the run."""
    with FakeOpenAI() as live, FakeOpenAI() as limited:
        limited.retry_after = 600
        backend = backend_over([limited.base_url, live.base_url], mode="completions")
        try:
            assert set(backend.down_at_start) == {limited.base_url}
            assert "429" in backend.down_at_start[limited.base_url]
            answers_are_right(backend, 40)
        finally:
            backend.close()
        assert run_posts(limited) == 0 and run_posts(live) == 40


def test_a_429_with_retry_after_sidelines_its_endpoint() -> None:
    """Once the first 429 (Retry-After 600) comes back, the endpoint gets no new request:
    at most the requests already in flight there (CONCURRENCY) were sent to it, and each
    is retried at once on the other endpoint (it used to keep taking requests that each
    waited out the Retry-After)."""
    with FakeOpenAI(delay_s=0.01) as live, FakeOpenAI(delay_s=0.01) as limited:
        backend = backend_over([limited.base_url, live.base_url], mode="completions")
        try:
            limited.retry_after = 600  # after its start-up checks passed
            answers_are_right(backend, 80)
            stats = backend.transport.endpoint_stats()[limited.base_url]
        finally:
            backend.close()
    assert 1 <= run_posts(limited) <= CONCURRENCY
    assert stats.sidelined >= 1 and stats.ok == 0


def test_an_endpoint_down_at_start_up_is_brought_back_when_it_answers() -> None:
    port = free_port()
    late_url = f"http://127.0.0.1:{port}/v1"
    with FakeOpenAI() as live:
        backend = backend_over([late_url, live.base_url], mode="completions")
        try:
            assert set(backend.down_at_start) == {late_url}
            with FakeOpenAI(port=port) as late:
                deadline = time.monotonic() + 120
                while not backend.transport.pool.endpoints[late_url].healthy(time.monotonic()):
                    assert time.monotonic() < deadline, "never re-probed"
                    time.sleep(0.05)
                live.hold_after = live.n_posts  # the live server stops answering for now
                done = threading.Event()
                result: list[object] = []

                def work() -> None:
                    result.append(backend.generate(requests(40)))
                    done.set()

                threading.Thread(target=work, daemon=True).start()
                while run_posts(late) < 40 - CONCURRENCY:  # held ones wait on the live one
                    assert time.monotonic() < deadline and not done.is_set()
                    time.sleep(0.05)
                live.hold_after = None
                assert done.wait(120)
        finally:
            backend.close()
    responses = result[0]
    assert isinstance(responses, list) and all(r.error is None for r in responses)


def test_a_run_with_a_dead_endpoint_equals_the_run_on_the_live_one(
    tmp_path: Path, data_dir: Path
) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    with FakeOpenAI() as live:
        for name, urls in (("alone", live.base_url), ("pair", f"{dead},{live.base_url}")):
            run = biasaudit.evaluate(
                "stop", f"openai:m@{urls}", limit=3, output_dir=tmp_path / name,
                data_dir=data_dir, use_cache=False, progress=False,
            )  # fmt: skip
            assert run.status == "complete"
    assert run.model.identity["down_at_start"].keys() == {dead}
    assert_same_run(tmp_path / "alone", tmp_path / "pair", same_url=False)
