"""`biasaudit stop ...` subcommands end to end (no model needed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.cli.app import main
from biasaudit.datasets.files import read_json_lines


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
    argv = ["stop", "human", "--annotations", str(annotations(tmp_path))]
    argv += ["--data-dir", str(data_dir), "--json"]
    model = "meta-llama/Llama-2-70b-chat-hf"
    assert main([*argv, "--released-model", model]) == 0
    out = json.loads(capsys.readouterr().out)
    metrics = {m["name"]: m for m in out["metrics"]}
    assert metrics["human_Pm"]["value"] == 1.0  # every human vector is yes,no,no,no,no
    assert metrics["human_Pm"]["n"] == 3
    assert metrics["fleiss_kappa"]["value"] == 1.0  # perfect agreement on steps 1 and 2
    assert "almost perfect" in metrics["fleiss_kappa"]["description"]
    rows = out["tables"][f"hedges_g {model}"]["rows"]
    assert next(r for r in rows if r[0] == "ethnicity/culture")[2] == 3


def test_human_text_output_and_bad_input(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    human = ["stop", "human", "--data-dir", str(data_dir), "--annotations"]
    assert main([*human, str(annotations(tmp_path))]) == 0
    assert "Fleiss' kappa" in capsys.readouterr().out
    bad = tmp_path / "bad.csv"
    bad.write_text("annotator,item,step,answer\na,0,1,perhaps\n", encoding="utf-8")
    assert main([*human, str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "line 2, field 'answer'" in err


def test_export_finetune_and_subset(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ft.jsonl"
    argv = ["stop", "export-finetune", "--data-dir", str(data_dir), "--file", str(out)]
    assert main([*argv, "--source", "ideal", "--severity", "high"]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 90  # 18 high seeds x 5 subs
    assert main([*argv, "--source", "ideal", "--severity", "high,low"]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 180
    human = [*argv, "--source", "human", "--annotations", str(annotations(tmp_path))]
    assert main(human) == 0
    lines = read_json_lines(out)
    assert len(lines) == 3 and len(lines[0]["messages"]) == 13
    assert main([*human, "--severity", "moderate"]) == 0  # filters after scoring the humans
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    assert main([*human, "--severity", "high"]) == 0
    assert out.read_text(encoding="utf-8") == ""
    assert main([*argv, "--source", "human"]) == 2
    capsys.readouterr()
    assert main([*argv, "--source", "ideal", "--severity", "hihg"]) == 2
    assert "did you mean 'high'" in capsys.readouterr().err
    assert main(["stop", "subset", "--n", "10", "--data-dir", str(data_dir), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["tables"]["subset"]["rows"]
    assert [r[1] for r in rows].count("moderate") == 6
