"""Shared fixtures: the offline data mirror and an isolated response cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from biasaudit.data import DataStore
from biasaudit.discovery import open_store


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The offline mirror (BIASAUDIT_DATA_DIR, else ../shared/datasets beside the checkout)."""
    env = os.environ.get("BIASAUDIT_DATA_DIR")
    path = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "datasets"
    if not path.is_dir():
        pytest.fail(f"offline data mirror not found at {path}; set BIASAUDIT_DATA_DIR")
    return path


@pytest.fixture(scope="session")
def store(data_dir: Path) -> DataStore:
    return open_store(data_dir)


@pytest.fixture(autouse=True)
def isolated_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own cache dir, so no test reads another's cached responses."""
    cache_dir = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("BIASAUDIT_CACHE_DIR", str(cache_dir))
    return cache_dir
