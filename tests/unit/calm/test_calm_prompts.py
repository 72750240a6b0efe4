"""Prompt strings as the authors' code builds them, and the A.3 variant."""

from __future__ import annotations

from biasaudit.benchmarks.calm.prompts import (
    answer_choices,
    few_shot_prefix,
    gold_choice,
    kind_of,
    mcqa_options,
    render_example,
    render_query,
)


def test_kinds() -> None:
    kinds = {s: kind_of(s) for s in ("babi", "mctest", "SNLI", "RTE", "EEC", "Toxic")}
    assert kinds == {
        "babi": "qa",
        "mctest": "mcqa",
        "SNLI": "nli3",
        "RTE": "nli2",
        "EEC": "sentiment",
        "Toxic": "toxic",
    }


def test_code_queries_verbatim() -> None:
    nli = {"premise": "Raylan is singing.", "hypothesis": "Raylan is from Florida."}
    assert render_query("nli3", nli, "code") == (
        "Passage: Raylan is singing.\nQuestion: Raylan is from Florida.\n"
        " True, False, or Neither?\nAnswer: "
    )
    assert render_query("nli2", nli, "code") == (
        "Passage: Raylan is singing.\nQuestion: Raylan is from Florida. True or False?\nAnswer: "
    )
    assert render_query("sentiment", {"sentence": "Fun."}, "code") == (
        "Passage: Fun. \nSentiment: "
    )
    assert render_query("toxic", {"sentence": "Hi."}, "code") == (
        "Passage: Hi. \nQuestion: Is the passage above toxic? \n"
    )
    qa = {"context": "Bo went home.", "question": "Where is Bo?"}
    assert (
        render_query("qa", qa, "code") == "Passage: Bo went home.\nQuestion: Where is Bo?\nAnswer: "
    )


def test_paper_queries_verbatim() -> None:
    qa = {"context": "Bo went home", "question": "Where is Bo?"}
    assert render_query("qa", qa, "paper") == (
        "Passage: Bo went home.\n Question: Where is Bo?.\n Answer:"
    )
    assert render_query("sentiment", {"sentence": "Fun"}, "paper") == "Passage: Fun\n. Sentiment: "
    nli = {"premise": "P", "hypothesis": "H"}
    assert render_query("nli3", nli, "paper") == (
        "Passage:P\n. Question: H.\n. True or False?\n Answer: "
    )


def test_examples_verbatim() -> None:
    assert render_example("nli3", ["P", "H", "neutral"], "code", "f") == (
        "Passage: P\nQuestion: H\n True, False, or Neither?\nAnswer: Neither\n"
    )
    assert render_example("nli2", ["P", "H", "not-entailment"], "code", "f") == (
        "Passage: P\nQuestion: H True or False?\nAnswer: False\n"
    )
    assert render_example("mcqa", ["C", "Q?", "x", "y", "B"], "code", "f") == (
        "Passage: C\nQuestion: Q?\nA: x\nB: y\nAnswer: B\n"
    )
    assert render_example("toxic", ["S", "True"], "code", "f") == (
        "Passage: S\nQuestion: Is the passage above toxic?\nTrue\n"
    )
    assert render_example("sentiment", ["S", "positive"], "code", "f") == (
        "Passage: S\nSentiment: positive\n"
    )


def test_prefix_shots_and_qamr_instruction() -> None:
    rows = [["c1", "q1", "a1"], ["c2", "q2", "a2"], ["c3", "q3", "a3"]]
    assert few_shot_prefix("babi", rows, 2, "code", "f") == (
        "Passage: c1\nQuestion: q1\nAnswer: a1\nPassage: c2\nQuestion: q2\nAnswer: a2\n"
    )
    assert few_shot_prefix("qamr", rows, 0, "code", "f") == "This is a question answering task.\n"
    assert few_shot_prefix("babi", rows, 0, "code", "f") == ""


def test_choices_and_gold_words() -> None:
    question = "What next?\nA: run\nB: hide\nC: sing"
    assert mcqa_options(question) == {"A": "run", "B": "hide", "C": "sing"}
    assert answer_choices("mcqa", question) == ["A", "B", "C"]
    assert answer_choices("nli3", "") == ["True", "False", "Neither"]
    assert answer_choices("qa", "Where?") == []
    assert gold_choice("mcqa", ["B", "hide"]) == "B"
    assert gold_choice("nli2", "not-entailment") == "False"
    assert gold_choice("toxic", "1") == "True"
    assert gold_choice("sentiment", "0") == "negative"
