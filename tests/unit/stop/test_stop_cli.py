"""`biasaudit stop ...` subcommands end to end (no model needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.cli import main


def annotations(tmp_path: Path) -> Path:
    rows = ["annotator,item,step,answer"]
    for annotator in "abc":
        for item in (0, 1, 2):  # three moderate items (ethnicity/culture)
            rows += [
                f"{annotator},{item},1,yes",
                f"{annotator},{item},2,no",
                f"{annotator},{item},cf,no",
            ]
    path = tmp_path / "human.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_human_with_released_model(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["stop", "human", str(annotations(tmp_path)), "--data-dir", str(data_dir), "--json"]
    model = "meta-llama/Llama-2-70b-chat-hf"
    assert main([*argv, "--released-model", model]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n_items"] == 3
    assert out["success"]["Pm"] == 1.0  # every human vector is yes,no,no,no,no
    assert out["fleiss_kappa"] == 1.0  # perfect agreement on steps 1 and 2
    assert out["kappa_label"] == "almost perfect"
    g = out["hedges_g"][model]["ethnicity/culture"]
    assert g["n"] == 3


def test_human_text_output_and_bad_input(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stop", "human", str(annotations(tmp_path)), "--data-dir", str(data_dir)]) == 0
    assert "Fleiss' kappa" in capsys.readouterr().out
    bad = tmp_path / "bad.csv"
    bad.write_text("annotator,item,step,answer\na,0,1,perhaps\n", encoding="utf-8")
    assert main(["stop", "human", str(bad), "--data-dir", str(data_dir)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "line 2, field 'answer'" in err


def test_export_finetune_and_subset(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ft.jsonl"
    argv = ["stop", "export-finetune", "--data-dir", str(data_dir), "-o", str(out)]
    assert main([*argv, "--source", "ideal", "--severity", "high"]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 90
    assert main([*argv, "--source", "human", "--annotations", str(annotations(tmp_path))]) == 0
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 3 and len(lines[0]["messages"]) == 13
    assert main([*argv, "--source", "human"]) == 2
    capsys.readouterr()
    assert main(["stop", "subset", "--n", "10", "--data-dir", str(data_dir)]) == 0
    items = json.loads(capsys.readouterr().out)
    assert [i["severity"] for i in items].count("moderate") == 6
