"""Spec and argument handling of the sentence-transformers backends (no model loaded)."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.errors import BackendError, UnknownNameError
from biasaudit.models import load_backend
from biasaudit.models.st import minilm_path


def test_missing_folder_and_empty_target_are_backend_errors(tmp_path: Path) -> None:
    with pytest.raises(BackendError, match="folder not found"):
        load_backend(f"st:{tmp_path / 'missing'}")
    with pytest.raises(BackendError, match="needs a model"):
        load_backend("st")


def test_embedded_st_takes_no_target() -> None:
    with pytest.raises(BackendError, match="takes no target"):
        load_backend("embedded-st:other")


def test_unknown_argument_is_named(tmp_path: Path) -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'normalize'"):
        load_backend(f"st:{tmp_path}", {"normalise": True})


def test_embedded_model_folder_ships_in_the_package() -> None:
    folder = minilm_path()
    assert (folder / "modules.json").is_file()
    assert (folder / "model.safetensors").is_file()
