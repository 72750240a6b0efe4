"""The backends the conformance suite checks: one `BackendCase` line each.

To add a backend, append a case whose `make` builds it from the pytest request (call
``request.getfixturevalue(NAME)`` for anything it needs, e.g. a model folder or a local
server fixture, and ``request.addfinalizer`` to clean up). Mark cases that load a real model
`integration`.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from biasaudit.models import load_backend
from biasaudit.models.base import Backend

Factory = Callable[[pytest.FixtureRequest], Backend]


@dataclass(frozen=True)
class BackendCase:
    id: str
    make: Factory
    marks: tuple[Any, ...] = field(default=())

    def param(self) -> Any:
        return pytest.param(self, id=self.id, marks=self.marks)


def _hf(fixture: str, **args: Any) -> Factory:
    return lambda request: load_backend(f"hf:{request.getfixturevalue(fixture)}", args)


def _st(request: pytest.FixtureRequest) -> Backend:
    return load_backend(f"st:{request.getfixturevalue('tiny_sentence_transformer')}")


def _openai(request: pytest.FixtureRequest) -> Backend:
    """The openai backend on a loopback llama-cpp-python server (tests/integration/openai_server).

    The server evaluates prompts one token at a time, so a repeated prompt gets the same logits
    (see that module's docstring); it is stopped at the end of the session.
    """
    from biasaudit.models.llamacpp import smollm2_path

    # tests/integration's helpers import each other as top-level modules (`from loopback
    # import free_port`); put their folder on sys.path so this works when tests/conformance
    # runs on its own, and import the module under the same name the integration tests use.
    integration = str(Path(__file__).resolve().parents[1] / "integration")
    if integration not in sys.path:
        sys.path.insert(0, integration)
    from openai_server import start_llama_cpp_server

    stack = contextlib.ExitStack()
    request.addfinalizer(stack.close)
    server = stack.enter_context(start_llama_cpp_server(smollm2_path(), one_token_batches=True))
    return load_backend(f"openai:smollm2@{server.base_url}", {"concurrency": 2})


class BackendPool:
    """Backends created on first use and shared by every test of the session."""

    def __init__(self, request: pytest.FixtureRequest) -> None:
        self.request = request
        self.backends: dict[str, Backend] = {}

    def get(self, case: BackendCase) -> Backend:
        if case.id not in self.backends:
            self.backends[case.id] = case.make(self.request)
        return self.backends[case.id]

    def close(self) -> None:
        for backend in self.backends.values():
            backend.close()


INTEGRATION = (pytest.mark.integration,)

CASES: list[BackendCase] = [
    BackendCase("hf-causal", _hf("tiny_causal_lm", batch_size=4)),
    BackendCase("hf-causal-transcript", _hf("tiny_base_lm", batch_size=4)),
    BackendCase("hf-masked", _hf("tiny_masked_lm", mask_batch_size=16)),
    BackendCase("hf-classifier", _hf("tiny_classifier", batch_size=4)),
    BackendCase("st", _st),
    BackendCase("embedded", lambda _: load_backend("embedded", {"n_threads": 1}), INTEGRATION),
    BackendCase("hf-smollm2-gguf", lambda _: load_backend("hf:embedded"), INTEGRATION),
    BackendCase("embedded-st", lambda _: load_backend("embedded-st"), INTEGRATION),
    BackendCase("openai-llama-cpp-server", _openai, INTEGRATION),
]


def case(case_id: str) -> BackendCase:
    """The case named `case_id` (for checks that compare two backends)."""
    return next(c for c in CASES if c.id == case_id)
