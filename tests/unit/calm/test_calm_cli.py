"""`biasaudit calm ...` argument and input errors (no model needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.cli.app import main


def test_subsets_on_a_missing_run_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["calm", "subsets", "--run-dir", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("biasaudit: error:") and "Traceback" not in err


def test_agreement_needs_two_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calm", "agreement", "--run-dirs", str(tmp_path)]) == 2
    assert "at least two run directories" in capsys.readouterr().err
    assert main(["calm", "agreemnt"]) == 2
    assert "did you mean 'agreement'" in capsys.readouterr().err


def test_bad_fractions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    subsets = ["calm", "subsets", "--run-dir", str(tmp_path), "--fractions"]
    assert main([*subsets, "half"]) == 2
    err = capsys.readouterr().err
    assert "--fractions" in err and "number" in err and err.count("\n") == 1
    assert main([*subsets, "0.5,2"]) == 2
    assert "each fraction must be in (0, 1]" in capsys.readouterr().err
