"""Human verification of context points: majority vote, Table 1 counts, kappas."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.benchmarks.cobias.verification import cohen_kappa, read_labels, summarize
from biasaudit.cli.app import main
from biasaudit.errors import DataError


def test_summarize_three_annotators_table1_layout() -> None:
    ids = ["a", "b", "c", "d", "e"]
    labels = [
        ["yes", "yes", "yes"],  # yes, 100%
        ["yes", "no", "yes"],  # yes, 66.67%
        ["no", "no", "yes"],  # no, 66.67%
        ["no", "no", "no"],  # no, 100%
        ["yes", None, "yes"],  # missing: set aside
    ]
    result = summarize(ids, labels)
    assert result.table == {"yes": {"100.00%": 1, "66.67%": 1}, "no": {"66.67%": 1, "100.00%": 1}}
    assert result.accepted == ["a", "b"]
    assert result.n_complete == 4
    assert result.acceptance_rate == pytest.approx(2 / 5)
    assert result.perfect_agreement == pytest.approx(2 / 5)
    # Fleiss by hand: P_i = 1, 1/3, 1/3, 1 -> P̄ = 2/3; p_yes = p_no = 1/2 -> P_e = 1/2
    assert result.fleiss_kappa == pytest.approx((2 / 3 - 1 / 2) / (1 - 1 / 2))
    assert result.cohen_kappa is None


def test_cohen_kappa_hand_computed() -> None:
    # observed 3/4; expected: yes 2/4*3/4 + no 2/4*1/4 = 1/2 -> kappa = 0.5
    assert cohen_kappa(["yes", "yes", "no", "no"], ["yes", "yes", "yes", "no"]) == pytest.approx(
        0.5
    )
    assert cohen_kappa(["yes"], ["yes"]) is None


def test_two_annotator_ties_decide_nothing() -> None:
    result = summarize(["a", "b"], [["yes", "no"], ["yes", "yes"]])
    assert result.accepted == ["b"]
    assert result.cohen_kappa is not None


def test_label_sheets_round_trip_through_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "d.csv"
    data.write_text(
        "id,sentence,target_term,context_points\n1,A b.,A,A ___ b.\n2,C d.,C,C ___ d.\n"
    )
    sheet = tmp_path / "sheet.csv"
    assert main(["cobias", "verify-export", "--dataset", str(data), "--file", str(sheet)]) == 0
    text = sheet.read_text()
    (tmp_path / "a1.csv").write_text(
        text.replace("A ___ b.,", "A ___ b.,yes").replace("C ___ d.,", "C ___ d.,no")
    )
    (tmp_path / "a2.csv").write_text(
        text.replace("A ___ b.,", "A ___ b.,Yes").replace("C ___ d.,", "C ___ d.,yes")
    )
    (tmp_path / "a3.csv").write_text(
        text.replace("A ___ b.,", "A ___ b.,yes").replace("C ___ d.,", "C ___ d.,no")
    )
    accepted = tmp_path / "accepted.csv"
    sheets = [str(tmp_path / f"a{i}.csv") for i in (1, 2, 3)]
    assert (
        main(
            [
                "cobias",
                "verify-summarize",
                "--labels",
                *sheets,
                "--dataset",
                str(data),
                "--accepted",
                str(accepted),
            ]
        )
        == 0
    )
    assert accepted.read_text().splitlines()[1:] == ["1,A b.,A,A ___ b."]
    ids, labels = read_labels([tmp_path / "a2.csv"])
    assert ids == ["1", "2"] and labels == [["yes"], ["yes"]]


def test_bad_label_names_the_row(tmp_path: Path) -> None:
    sheet = tmp_path / "s.csv"
    sheet.write_text("id,sentence,context_points,label\n1,a,b,maybe\n")
    with pytest.raises(DataError, match="row 2: label 'maybe' is not yes or no"):
        read_labels([sheet])
