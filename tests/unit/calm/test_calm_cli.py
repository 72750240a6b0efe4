"""`biasaudit calm ...` argument and input errors (no model needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.cli import main


def test_subsets_on_a_missing_run_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calm", "subsets", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("biasaudit: error:") and "Traceback" not in err


def test_agreement_needs_two_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calm", "agreement", str(tmp_path)]) == 2
    assert "at least two run directories" in capsys.readouterr().err


def test_bad_fractions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calm", "subsets", str(tmp_path), "--fractions", "half"]) == 2
    assert "comma-separated list of numbers" in capsys.readouterr().err
    assert main(["calm", "subsets", str(tmp_path), "--fractions", "0.5,2"]) == 2
    assert "each must be in (0, 1]" in capsys.readouterr().err
