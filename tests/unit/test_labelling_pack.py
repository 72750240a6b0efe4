"""scripts/labelling_pack.py: a reply is shown with its own sample's prompt, and the labels of
two labellers make the corpus, splits adjudicated as no answer. Oracle: hand-written runs."""

from __future__ import annotations

import json
from pathlib import Path

from biasaudit.datasets.files import read_json_lines
from script_module import load_script

PACK = load_script("labelling_pack")


def _sample(sample_id: str, prompt: str, reply: str, **data: str) -> dict:
    request = {"kind": "generate", "messages": [{"role": "user", "content": prompt}]}
    exchange = {"request": request, "response": {"text": reply}}
    return {"sample_id": sample_id, "data": data, "exchanges": [exchange]}


def test_a_reply_text_that_recurs_in_a_run_is_shown_with_its_own_prompt() -> None:
    samples = [
        _sample("s1", "Is the first fine?", "No."),
        _sample("s2", "Is the second fine?", "No."),
    ]
    row = {"reply": "No.", "note": "s2", "corpus": "stop_yesno"}
    assert PACK.shown(row, samples) == ("Is the second fine?", None)
    calm = {"reply": "No.", "note": "s1 gold='x'", "corpus": "calm_qa"}
    assert PACK.shown(calm, samples)[0] == "Is the first fine?"


def test_bbnli_replies_carry_the_hypothesis_they_judged() -> None:
    twin = _sample("b1", "own?", "Yes.", hypothesis="H own", twin_hypothesis="H twin")
    twin["exchanges"].append(
        {"request": {"kind": "generate", "prompt": "twin prompt"}, "response": {"text": "No."}}
    )
    row = {"reply": "No.", "note": "b1", "corpus": "bbnli_nli"}
    assert PACK.shown(row, [twin]) == ("[...]twin prompt", "H twin")


def _jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_labels_make_the_corpus_and_a_split_is_no_answer(tmp_path: Path) -> None:
    rows = [
        {
            "id": 0,
            "reply": "B",
            "note": "n0",
            "corpus": "multiple_choice",
            "model": "m",
            "prompt_shown_to_model": "p",
        },
        {
            "id": 1,
            "reply": "Yes",
            "note": "n1",
            "corpus": "stop_yesno",
            "model": "m",
            "prompt_shown_to_model": "p",
        },
    ]
    _jsonl(tmp_path / "all.jsonl", rows)
    a = [
        {"id": 0, "label": "chose", "class": "answer", "choice": "B"},
        {"id": 1, "label": "yes", "class": "answer"},
    ]
    b = [
        {"id": 0, "label": "chose", "class": "answer", "choice": "B"},
        {"id": 1, "label": "no", "class": "answer"},
    ]
    _jsonl(tmp_path / "labels_A.jsonl", a)
    _jsonl(tmp_path / "labels_B.jsonl", b)
    out = tmp_path / "corpus"
    assert PACK.corpus(tmp_path, out, tmp_path / "labellers.jsonl", "batch", None) == 1
    chose = json.loads((out / "multiple_choice.jsonl").read_text())
    assert (chose["label"], chose["choice"], chose["batch"]) == ("chose", "B", "batch")
    assert "prompt_shown_to_model" not in chose and "id" not in chose
    split = json.loads((out / "stop_yesno.jsonl").read_text())
    assert split["label"] == "unparsed" and "two labellers split (yes / no)" in split["note"]
    kept = read_json_lines(tmp_path / "labellers.jsonl")
    assert [k["A"]["label"] for k in kept] == ["chose", "yes"]


def test_a_label_in_another_corpus_s_form_is_refused_with_its_file_and_id(tmp_path: Path) -> None:
    rows = [
        {"id": 0, "reply": "C", "note": "n0", "corpus": "multiple_choice", "model": "m"},
    ]
    _jsonl(tmp_path / "all.jsonl", rows)
    _jsonl(tmp_path / "labels_A.jsonl", [{"id": 0, "label": "chose", "choice": "C", "class": "a"}])
    _jsonl(tmp_path / "labels_B.jsonl", [{"id": 0, "label": "C", "choice": None, "class": "a"}])
    try:
        PACK.corpus(tmp_path, tmp_path / "out", tmp_path / "l.jsonl", "batch", None)
    except SystemExit as stop:
        message = str(stop)
    else:
        raise AssertionError("a BBQ-form label in a multiple_choice corpus was accepted")
    assert "labels_B.jsonl id 0" in message and "'C'" in message and "multiple_choice" in message
    _jsonl(tmp_path / "labels_B.jsonl", [{"id": 0, "label": "chose", "choice": "C", "class": "a"}])
    assert PACK.corpus(tmp_path, tmp_path / "out", tmp_path / "l.jsonl", "batch", None) == 0
    _jsonl(tmp_path / "labels_B.jsonl", [{"id": 0, "label": "chose", "choice": None, "class": "a"}])
    try:
        PACK.corpus(tmp_path, tmp_path / "out", tmp_path / "l.jsonl", "batch", None)
    except SystemExit as stop:
        assert "choice must be a letter" in str(stop)
    else:
        raise AssertionError("'chose' without a letter was accepted")
