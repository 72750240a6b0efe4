"""The benchmark conformance suite: every discovered benchmark, the same battery of checks.

The checks are `biasaudit.testing` (shipped in the wheel, so a third-party package runs the
same ones); `benchmark_checks` parametrises them over `biasaudit.plugin.discover()`, so a new
benchmark folder is checked with no edit here. Each benchmark runs on the deterministic fake
backend (`biasaudit.testing.FakeBackend`) with a small limit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from biasaudit.requests import GenerateRequest, Response
from biasaudit.testing import BoundCheck, FakeBackend, benchmark_checks

#: The offline mirror, as tests/conftest.py finds it.
DATA_DIR = os.environ.get("BIASAUDIT_DATA_DIR") or str(
    Path(__file__).resolve().parents[3] / "shared" / "datasets"
)


@benchmark_checks(data_dir=DATA_DIR)
def test_benchmark(benchmark: str, check: BoundCheck) -> None:
    check(benchmark)


def test_fake_error_backend_answers_errors() -> None:
    (response,) = FakeBackend(fail=True).generate([GenerateRequest(prompt="x")])
    assert isinstance(response, Response) and not response.ok
    assert json.loads(response.model_dump_json())["error"] == "injected failure"
