"""The installed example backend: found through its entry point, and run by the engine."""

from __future__ import annotations

import math

from biasaudit.api import evaluate
from biasaudit.models.spec import BACKENDS
from biasaudit.requests import LoglikelihoodRequest


def test_the_entry_point_registers_the_backend() -> None:
    BACKENDS.rescan()
    assert "uniform" in BACKENDS.names()
    assert BACKENDS.origin("uniform") == "entry point"
    assert BACKENDS.description("uniform").startswith("Every character equally likely")


def test_the_log_likelihood_by_hand() -> None:
    backend = BACKENDS.load("uniform").from_spec("2", {})
    [five] = backend.loglikelihood([LoglikelihoodRequest(context="x", continuation="abcde")])
    assert five.logprob is not None and math.isclose(five.logprob, -5 * math.log(2))


def test_a_run_on_the_installed_backend() -> None:
    run = evaluate("crows_pairs", "uniform:2", limit=12, progress=False)
    assert run.status == "complete" and run.model.spec == "uniform:2"
    assert run.benchmark("crows_pairs").n_samples == 12
