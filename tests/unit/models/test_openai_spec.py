"""openai:MODEL@URL parsing, model arguments, API-key hygiene and start-up failures."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasaudit.errors import BackendError, BiasauditError, UnknownNameError
from biasaudit.models import load_backend
from biasaudit.models.openai import (
    OpenAIArgs,
    OpenAIBackend,
    ServerInfo,
    make_transport,
    parse_args,
    parse_target,
)
from biasaudit.requests import Capability, GenerateRequest, GenerationParams, LoglikelihoodRequest

SECRET = "sk-test-0123456789abcdef"


@pytest.fixture
def dead_url() -> str:
    """A loopback URL where nothing listens (the port was free a moment ago)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


@pytest.mark.parametrize(
    ("target", "model", "urls"),
    [
        ("smollm2@http://127.0.0.1:8080/v1", "smollm2", ["http://127.0.0.1:8080/v1"]),
        ("smollm2@http://127.0.0.1:8080/v1/", "smollm2", ["http://127.0.0.1:8080/v1"]),
        (
            "org/model-7b@http://a:8000/v1,https://b/v1",
            "org/model-7b",
            ["http://a:8000/v1", "https://b/v1"],
        ),
        ("llama3:8b@http://localhost:11434/v1", "llama3:8b", ["http://localhost:11434/v1"]),
        ("name@v2@http://h/v1", "name@v2", ["http://h/v1"]),
    ],
)
def test_parse_target(target: str, model: str, urls: list[str]) -> None:
    assert parse_target(target) == (model, urls)


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("smollm2", "needs MODEL@BASE_URL"),
        ("@http://h/v1", "needs MODEL@BASE_URL"),
        ("m@ftp://h/v1", "needs MODEL@BASE_URL"),
        ("m@http:///v1", "not an http"),
        ("m@http://user:pw@h/v1", "not in the base URL"),
        ("m@http://h/v1,http://h/v1/", "listed twice"),
    ],
)
def test_bad_targets(target: str, message: str) -> None:
    with pytest.raises(BackendError, match=message):
        parse_target(target)


def test_args_defaults_and_types() -> None:
    args = parse_args({})
    assert (args.concurrency, args.max_retries, args.mode) == (8, 5, "chat")
    assert args.api_key_env == "OPENAI_API_KEY"
    assert parse_args({"concurrency": 2, "timeout": 3, "mode": "completions"}).timeout == 3.0


def test_unknown_arg_suggests_the_right_one() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'concurrency'"):
        parse_args({"concurency": 2})


@pytest.mark.parametrize("args", [{"mode": "raw"}, {"concurrency": 0}, {"timeout": -1}])
def test_invalid_arg_values(args: dict[str, object]) -> None:
    with pytest.raises(BiasauditError):
        parse_args(args)


def test_a_literal_api_key_is_refused() -> None:
    with pytest.raises(BackendError, match="environment variable"):
        parse_args({"api_key": SECRET})


@pytest.fixture
def keyed_backend(monkeypatch: pytest.MonkeyPatch, dead_url: str) -> Iterator[OpenAIBackend]:
    """A backend as from_spec builds it after a passing probe, with the key in the env."""
    monkeypatch.setenv("MY_KEY", SECRET)
    settings = OpenAIArgs(api_key_env="MY_KEY", max_retries=1, timeout=5)
    backend = OpenAIBackend(
        "m",
        settings,
        [ServerInfo(dead_url, ["m"], "m", None)],
        make_transport([dead_url], settings),
    )
    yield backend
    backend.close()


def test_key_never_appears_in_identity_fingerprint_or_repr(keyed_backend: OpenAIBackend) -> None:
    shown = [
        repr(keyed_backend),
        str(keyed_backend),
        json.dumps(keyed_backend.identity()),
        keyed_backend.fingerprint(),
        repr(keyed_backend.transport),
        repr(vars(keyed_backend)),
    ]
    assert all(SECRET not in text for text in shown)


def test_identity_and_fingerprint(keyed_backend: OpenAIBackend, dead_url: str) -> None:
    ident = keyed_backend.identity()
    assert ident["base_urls"] == [dead_url]
    assert ident["served_model"] == "m"
    assert ident["mode"] == "chat"
    assert ident["loglikelihood"] == "supported"
    assert keyed_backend.capabilities == {Capability.GENERATE, Capability.LOGLIKELIHOOD}
    assert dead_url in keyed_backend.fingerprint() and '"mode": "chat"' in (
        keyed_backend.fingerprint()
    )


def test_a_request_that_fails_for_good_returns_an_error(keyed_backend: OpenAIBackend) -> None:
    request = GenerateRequest(prompt="Hello", params=GenerationParams(max_tokens=4))
    (response,) = keyed_backend.generate([request])
    assert not response.ok
    assert response.error is not None
    assert "ConnectError" in response.error and "(after 2 attempts)" in response.error
    assert SECRET not in response.error


def test_servers_serving_different_models_are_refused(dead_url: str) -> None:
    settings = OpenAIArgs()
    transport = make_transport([dead_url, dead_url + "x"], settings)
    try:
        with pytest.raises(BackendError, match="serve different models"):
            OpenAIBackend(
                "m",
                settings,
                [
                    ServerInfo(dead_url, None, "a", None),
                    ServerInfo(dead_url + "x", None, "b", None),
                ],
                transport,
            )
    finally:
        transport.close()


def test_unreachable_server_is_a_one_line_backend_error(dead_url: str) -> None:
    with pytest.raises(BackendError) as info:
        load_backend(f"openai:m@{dead_url}")
    message = str(info.value)
    assert dead_url in message and "\n" not in message


def test_cli_exits_2_naming_the_url(dead_url: str, data_dir: Path, tmp_path: Path) -> None:
    command = ["run", "stop", "--model", f"openai:m@{dead_url}", "--limit", "1"]
    command += ["--data-dir", str(data_dir), "--output", str(tmp_path / "run")]
    result = subprocess.run(
        [sys.executable, "-m", "biasaudit.cli", *command],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr
    # the --limit subset warning aside (biasaudit.cli.SubsetWarning)
    lines = [
        line
        for line in result.stderr.strip().splitlines()
        if not line.startswith("biasaudit: warning:")
    ]
    assert len(lines) == 1 and dead_url in lines[0], result.stderr


def test_empty_continuation_is_refused_without_a_call(keyed_backend: OpenAIBackend) -> None:
    (response,) = keyed_backend.loglikelihood([LoglikelihoodRequest(context="A", continuation="")])
    assert response.error == "empty continuation"
