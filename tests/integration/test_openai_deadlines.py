"""Hostile servers: hung, trickling, malformed, out-of-range ports -> one line, in time.

Each server is a real HTTP server on loopback (`fake_openai.FakeOpenAI`) behaving as a broken
production server would; no model is involved.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from biasaudit.errors import BackendError
from biasaudit.models import load_backend
from biasaudit.requests import GenerateRequest, GenerationParams

REQUEST = GenerateRequest(prompt="Is the sky blue?", params=GenerationParams(max_tokens=4))


def test_a_trickling_server_fails_the_start_up_within_the_deadline() -> None:
    with FakeOpenAI("trickle") as server:
        started = time.monotonic()
        with pytest.raises(BackendError) as caught:
            load_backend(
                f"openai:m@{server.base_url}",
                {"timeout": 2, "max_retries": 0, "startup_timeout": 30},
            )
        elapsed = time.monotonic() - started
    message = str(caught.value)
    assert "\n" not in message
    assert "no answer within 2s" in message
    # One attempt of 2 s (the trickle sends a byte every second, so a per-read timeout of
    # 2 s would never fire); slack for a loaded machine.
    assert 1.9 < elapsed < 8


def test_a_server_that_never_answers_posts_is_bounded_by_the_start_up_deadline() -> None:
    with FakeOpenAI("hang_post") as server:
        started = time.monotonic()
        with pytest.raises(BackendError) as caught:
            # Without startup_timeout this would be 6 attempts x 60 s plus backoff.
            load_backend(f"openai:m@{server.base_url}", {"timeout": 60, "startup_timeout": 3})
        elapsed = time.monotonic() - started
    assert "start-up deadline" in str(caught.value)
    assert 2.9 < elapsed < 9


def test_a_trickle_during_the_run_becomes_an_error_response_within_the_deadline() -> None:
    with FakeOpenAI() as server:
        backend = load_backend(f"openai:m@{server.base_url}", {"timeout": 2, "max_retries": 0})
        try:
            server.mode = "trickle"
            started = time.monotonic()
            (response,) = backend.generate([REQUEST])
            elapsed = time.monotonic() - started
        finally:
            backend.close()
    assert response.error is not None
    assert "no answer within 2s" in response.error
    assert 1.9 < elapsed < 8


def test_json_of_the_wrong_shape_is_refused_at_start_up() -> None:
    with FakeOpenAI("malformed") as server, pytest.raises(BackendError) as caught:
        load_backend(f"openai:m@{server.base_url}", {"max_retries": 0})
    assert "does not generate" in str(caught.value)
    assert "malformed answer" in str(caught.value)


@pytest.mark.parametrize("port", ["99999", "0", "65536"])
def test_an_out_of_range_port_is_a_backend_error(port: str) -> None:
    with pytest.raises(BackendError, match="out of range"):
        load_backend(f"openai:m@http://127.0.0.1:{port}/v1")


def test_cli_trickle_is_one_line_and_exit_2(tmp_path: Path, data_dir: Path) -> None:
    with FakeOpenAI("trickle") as server:
        started = time.monotonic()
        done = subprocess.run(
            [
                sys.executable, "-m", "biasaudit.cli", "run", "stop",
                "-m", f"openai:m@{server.base_url}",
                "-M", "timeout=2", "-M", "max_retries=0",
                "--limit", "1", "--quiet", "--data-dir", str(data_dir),
                "-o", str(tmp_path / "out"), "--no-cache",
            ],
            capture_output=True, text=True, timeout=120, env=dict(os.environ),
        )  # fmt: skip
        elapsed = time.monotonic() - started
    assert done.returncode == 2, done.stderr
    # the --limit subset warning aside (biasaudit.cli.SubsetWarning)
    lines = [
        line
        for line in done.stderr.strip().splitlines()
        if not line.startswith("biasaudit: warning:")
    ]
    assert len(lines) == 1 and "no answer within 2s" in lines[0]
    assert elapsed < 30
