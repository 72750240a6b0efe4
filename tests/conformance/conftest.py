"""Fixtures of the backend conformance suite: tiny local models and a pool of backends.

Every backend is created once per session (some take tens of seconds to load) and closed at
the end; checks get it through the parametrized `backend` fixture.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from biasaudit.models.base import Backend
from conformance import tiny_models
from conformance.backends import CASES, BackendCase, BackendPool


@pytest.fixture(scope="package", autouse=True)
def one_torch_thread() -> Iterator[None]:
    """Run torch on one thread while this suite runs, then restore the setting.

    On a shared 2-core machine, torch's second OpenMP thread spins against other processes
    (and against llama.cpp in this one): at a load average of 8 the naive PLL reference took
    17 s with two threads and 0.9 s with one.
    """
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


@pytest.fixture(scope="session")
def tiny_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tiny-models")


@pytest.fixture(scope="session")
def tiny_tokenizer() -> Any:
    return tiny_models.real_tokenizer()


@pytest.fixture(scope="session")
def tiny_masked_lm(tiny_dir: Path, tiny_tokenizer: Any) -> Path:
    return tiny_models.build_masked_lm(tiny_dir / "bert-mlm", tiny_tokenizer)


@pytest.fixture(scope="session")
def tiny_classifier(tiny_dir: Path, tiny_tokenizer: Any) -> Path:
    return tiny_models.build_classifier(tiny_dir / "bert-nli", tiny_tokenizer)


@pytest.fixture(scope="session")
def tiny_causal_lm(tiny_dir: Path, tiny_tokenizer: Any) -> Path:
    return tiny_models.build_causal_lm(tiny_dir / "llama-chat", tiny_tokenizer, chat_template=True)


@pytest.fixture(scope="session")
def tiny_base_lm(tiny_dir: Path, tiny_tokenizer: Any) -> Path:
    return tiny_models.build_causal_lm(tiny_dir / "llama-base", tiny_tokenizer, chat_template=False)


@pytest.fixture(scope="session")
def tiny_sentence_transformer(tiny_dir: Path, tiny_masked_lm: Path) -> Path:
    return tiny_models.build_sentence_transformer(tiny_dir / "st", tiny_masked_lm)


@pytest.fixture(scope="session")
def backend_pool(request: pytest.FixtureRequest) -> Iterator[BackendPool]:
    pool = BackendPool(request)
    yield pool
    pool.close()


@pytest.fixture(params=[case.param() for case in CASES])
def backend(request: pytest.FixtureRequest, backend_pool: BackendPool) -> Backend:
    case: BackendCase = request.param
    return backend_pool.get(case)
