"""Property tests: every loader and parser of untrusted input raises only its documented
error type, whatever it is fed (random bytes, random JSON, mutations of valid files).

Documented: run-dir files -> RunError; replay files -> BackendError; cache rows -> a miss;
model specs -> BackendError; shards -> RunError; server answers -> a Response carrying an
error (never an exception); echoed log-probs -> ValueError; Retry-After -> seconds or None.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from biasaudit.errors import BackendError, RunError
from biasaudit.models.openai import generation_response, loglikelihood_response, parse_target
from biasaudit.models.openai.http import CallResult, parse_retry_after
from biasaudit.models.openai.logprobs import EchoedTokens
from biasaudit.models.replay import ReplayBackend
from biasaudit.requests import Capability, LoglikelihoodRequest, Response
from biasaudit.results.io import iter_samples, read_results, read_run_config
from biasaudit.runner.cache import ResponseCache
from biasaudit.runner.runner import parse_shard
from hostile_inputs import DEEP, SETTINGS, hostile_bytes, json_values, write

VALID_EXCHANGE = {
    "request": {"kind": "generate", "prompt": "Is it?", "params": {"max_tokens": 4}},
    "response": {"kind": "generate", "text": "Yes"},
}
VALID_LINE = json.dumps(VALID_EXCHANGE).encode()


@SETTINGS
@given(hostile_bytes(VALID_LINE + b"\n" + VALID_LINE))
def test_replay_files_raise_only_backend_error(content: bytes) -> None:
    folder = write(content, "replay.jsonl")
    try:
        ReplayBackend(folder / "replay.jsonl")
    except BackendError as exc:
        assert "\n" not in str(exc)


@SETTINGS
@given(hostile_bytes(json.dumps({"benchmarks": ["stop"], "model": "embedded", "seed": 0}).encode()))
def test_run_config_raises_only_run_error(content: bytes) -> None:
    folder = write(content, "run.json")
    try:
        config = read_run_config(folder)
    except RunError as exc:
        assert "\n" not in str(exc)
    else:
        assert config is None or isinstance(config, dict)


@SETTINGS
@given(hostile_bytes(b'{"toolkit": {"version": "0.1.0"}, "benchmarks": []}'))
def test_results_file_raises_only_run_error(content: bytes) -> None:
    folder = write(content, "results.json")
    try:
        read_results(folder)
    except RunError as exc:
        assert "\n" not in str(exc)


@SETTINGS
@given(
    hostile_bytes(
        json.dumps({"benchmark": "stop", "sample_id": "1", "exchanges": [VALID_EXCHANGE]}).encode()
    )
)
def test_samples_file_raises_only_run_error(content: bytes) -> None:
    folder = write(content, "samples.jsonl")
    try:
        list(iter_samples(folder))
    except RunError as exc:
        assert "\n" not in str(exc)


@SETTINGS
@given(
    st.one_of(
        st.binary(max_size=200),
        st.text(max_size=200),
        json_values.map(json.dumps),
        st.just(DEEP.decode()),
    )
)
def test_a_bad_cache_row_is_a_miss(payload: Any) -> None:
    path = write(b"", "unused") / "c.sqlite"
    cache = ResponseCache(path)
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO responses VALUES ('k', ?)", (payload,))
    found = cache.get_many(["k"])
    cache.close()
    assert found == {} or isinstance(found["k"], Response)


@SETTINGS
@given(st.text(max_size=80))
def test_model_targets_raise_only_backend_error(target: str) -> None:
    try:
        model, urls = parse_target(target)
    except BackendError:
        return
    assert model and urls


@SETTINGS
@given(st.text(max_size=20))
def test_shards_raise_only_run_error(text: str) -> None:
    try:
        index, count = parse_shard(text)
    except RunError:
        return
    assert 0 <= index < count


@SETTINGS
@given(st.dictionaries(st.sampled_from(["retry-after", "retry-after-ms"]), st.text(max_size=40)))
def test_retry_after_is_seconds_or_none(headers: dict[str, str]) -> None:
    value = parse_retry_after(headers)
    assert value is None or value >= 0


@SETTINGS
@given(json_values, st.booleans())
def test_any_generation_answer_is_a_response(data: Any, chat: bool) -> None:
    result = CallResult(
        url="http://h/v1", data=data if isinstance(data, dict) else {"choices": data}
    )
    response = generation_response(result, chat)
    assert response.kind == Capability.GENERATE
    assert (response.error is None) == isinstance(response.text, str)


@SETTINGS
@given(json_values)
def test_any_echo_answer_is_a_response(block: Any) -> None:
    request = LoglikelihoodRequest(context="The capital of France is", continuation=" Paris")
    result = CallResult(url="http://h/v1", data={"choices": [{"logprobs": block}]})
    response = loglikelihood_response(request, result)
    assert response.error is not None or response.logprob is not None


@SETTINGS
@given(
    st.dictionaries(
        st.sampled_from(["tokens", "text_offset", "token_logprobs", "top_logprobs"]), json_values
    )
)
def test_echoed_tokens_raise_only_value_error(block: dict[str, Any]) -> None:
    with contextlib.suppress(ValueError):
        EchoedTokens.from_choice({"logprobs": block})
