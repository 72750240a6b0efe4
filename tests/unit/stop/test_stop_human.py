"""Human-study ingestion and scoring on hand-made annotation files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.benchmarks.stop.data import Progression
from biasaudit.benchmarks.stop.human import (
    complete_answers,
    hedges_by_demographic,
    load_annotations,
    majority,
    mode_no_count,
    score_humans,
)
from biasaudit.errors import DataError


def progression(index: int, severity: str, demographic: str = "age") -> Progression:
    return Progression(
        index=index,
        prompts=tuple(f"s{i}. Is this situation appropriate? Yes or No." for i in range(5)),
        cfprompt="c?",
        severity=severity,
        demographic=demographic,
        sub_demographic="elder",
        seed_id=index,
    )


PROGRESSIONS = [progression(0, "moderate"), progression(1, "high"), progression(2, "low", "class")]


def write_csv(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "annotations.csv"
    path.write_text("annotator,item,step,answer\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def rows_for(annotator: str, item: int, answers: str, cf: str | None = None) -> list[str]:
    """answers like "yn" -> steps 1..2; annotators who stopped at a no have fewer rows."""
    out = [
        f"{annotator},{item},{step},{'yes' if a == 'y' else 'no'}"
        for step, a in enumerate(answers, start=1)
    ]
    if cf:
        out.append(f"{annotator},{item},cf,{cf}")
    return out


def test_complete_answers_imputes_after_first_no() -> None:
    assert complete_answers({1: "yes", 2: "no"}, "stop_on_first_no") == [
        "yes",
        "no",
        "no",
        "no",
        "no",
    ]
    assert complete_answers({1: "yes", 2: "no"}, "none") is None
    assert complete_answers({1: "yes", 3: "no"}, "stop_on_first_no") is None  # gap before a no
    assert complete_answers({i: "yes" for i in range(1, 6)}, "none") == ["yes"] * 5


def test_majority_and_mode_tie_breaks() -> None:
    assert majority(["yes", "no", "no"], "exclude") == "no"
    assert majority(["yes", "no"], "exclude") is None
    assert majority(["yes", "no"], "no") == "no"
    assert majority(["yes", "no"], "yes") == "yes"
    assert mode_no_count([4, 4, 5], "exclude") == 4
    assert mode_no_count([4, 5], "exclude") is None
    assert mode_no_count([4, 5], "no") == 5
    assert mode_no_count([4, 5], "yes") == 4


def test_score_humans_hand_computed(tmp_path: Path) -> None:
    rows = (
        # item 0 (moderate): majority yes,no,no,no,no -> correct
        rows_for("a", 0, "yn", "no")
        + rows_for("b", 0, "yn", "no")
        + rows_for("c", 0, "yyyyy", "yes")
        # item 1 (high): a and b stop at s1 (-> all no), c says yes at s1 then no -> correct
        + rows_for("a", 1, "n")
        + rows_for("b", 1, "n")
        + rows_for("c", 1, "yn")
        # item 2 (low): all yes -> correct for two, the third says no at s5
        + rows_for("a", 2, "yyyyy")
        + rows_for("b", 2, "yyyyy")
        + rows_for("c", 2, "yyyyn")
    )
    study = score_humans(load_annotations(write_csv(tmp_path, rows)), PROGRESSIONS)
    assert [i.no_count for i in study.items] == [4, 5, 0]
    assert study.items[0].answers == ["yes", "no", "no", "no", "no"]
    assert study.items[0].cf_answer == "no"
    assert study.success == {"P": 1.0, "Pl": 1.0, "Pm": 1.0, "Ph": 1.0}
    assert study.excluded == {} and study.incomplete_annotations == 0
    # kappa over observed answers only: item 0 steps (y,y,y),(n,n,y); item 1 (n,n,y),(n)->dropped;
    # item 2 (y,y,y) x4, (y,y,n); 3-5 of item 0: one rater each -> dropped.
    counts = [[3, 0], [1, 2], [1, 2], [3, 0], [3, 0], [3, 0], [3, 0], [2, 1]]
    p_bar = sum((y * (y - 1) + n * (n - 1)) / 6 for y, n in counts) / len(counts)
    p_yes = sum(y for y, _ in counts) / 24
    p_e = p_yes**2 + (1 - p_yes) ** 2
    assert study.n_kappa_items == len(counts)
    assert study.kappa == pytest.approx((p_bar - p_e) / (1 - p_e))


def test_ties_and_incomplete_annotations(tmp_path: Path) -> None:
    rows = rows_for("a", 0, "yn") + rows_for("b", 0, "yyyyy") + ["c,0,1,yes", "c,0,3,no"]
    path = write_csv(tmp_path, rows)
    study = score_humans(load_annotations(path), PROGRESSIONS)
    assert study.incomplete_annotations == 1  # c skipped step 2
    assert study.excluded == {0: "tied sentence vote"}
    assert study.success["P"] is None
    resolved = score_humans(load_annotations(path), PROGRESSIONS, tie_break="no")
    assert resolved.items[0].no_count == 4
    by_mode = score_humans(
        load_annotations(path), PROGRESSIONS, aggregation="sensitivity_mode", tie_break="yes"
    )
    assert by_mode.items[0].no_count == 0 and by_mode.items[0].answers is None


def test_hedges_g_per_demographic(tmp_path: Path) -> None:
    rows = []
    for item in (0, 1):
        rows += rows_for("a", item, "yyyyn") + rows_for("b", item, "yyyyn")
    rows += rows_for("a", 2, "yyyyy") + rows_for("b", 2, "yyyyy")
    extra = [progression(3, "moderate")]
    rows += rows_for("a", 3, "yyyyy") + rows_for("b", 3, "yyyyy")
    study = score_humans(load_annotations(write_csv(tmp_path, rows)), PROGRESSIONS + extra)
    # age items 0, 1, 3: humans 0.2, 0.2, 0.0; model 0.8, 1.0, 0.6
    g = hedges_by_demographic({0: 0.8, 1: 1.0, 3: 0.6, 2: 0.0}, study)
    # means 0.8 vs 0.1333; sample variances 0.04 and 0.01333 -> s_p = sqrt(0.026667)
    expected = (1 - 3 / (4 * 6 - 9)) * (0.8 - 0.4 / 3) / (0.08 / 3) ** 0.5
    assert g["age"][0] == pytest.approx(expected)
    assert g["age"][1] == 3
    assert g["class"] == (None, 1)


def test_jsonl_layout(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    lines = [{"annotator": "a", "item": 1, "step": s, "answer": "No"} for s in (1, "cf")]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    annotations = load_annotations(path)
    assert [(a.step, a.answer) for a in annotations] == [(1, "no"), (None, "no")]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (["a,0,1,maybe"], "line 2, field 'answer'"),
        (["a,0,6,yes"], "line 2, field 'step'"),
        (["a,x,1,yes"], "line 2, field 'item'"),
        (["a,9,1,yes"], "line 2, field 'item'"),
        (["a,0,1,yes", ",0,2,yes"], "line 3, field 'annotator': missing"),
        (["a,0,1,yes", "a,0,1,no"], "line 3: duplicate answer"),
    ],
)
def test_bad_annotation_rows(tmp_path: Path, rows: list[str], message: str) -> None:
    path = write_csv(tmp_path, rows)
    with pytest.raises(DataError, match=message) as info:
        load_annotations(path, n_items=3)
    assert str(path) in str(info.value)


def test_bad_annotation_files(tmp_path: Path) -> None:
    header = tmp_path / "h.csv"
    header.write_text("who,item,step,answer\n", encoding="utf-8")
    with pytest.raises(DataError, match="missing column"):
        load_annotations(header)
    empty = write_csv(tmp_path, [])
    with pytest.raises(DataError, match="no annotations"):
        load_annotations(empty)
