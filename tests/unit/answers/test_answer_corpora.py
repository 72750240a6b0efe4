"""The core answer reader against hand-labelled replies, per class, and the metamorphic suite.

Oracle: tests/corpora/answers/*.jsonl, each reply labelled by a person reading it (the
labels of adversarial.jsonl were committed before the reader existed: git log). The
scoring (wrong answer / missed answer / other) is scripts/answer_agreement.py.
"""

from __future__ import annotations

import pytest

from script_module import load_script

AGREEMENT = load_script("answer_agreement")
CORPORA = AGREEMENT.corpora()


def _shown(tally) -> list[tuple[str, str, str]]:  # type: ignore[no-untyped-def]
    return [(row["reply"], row["label"], got) for row, got in tally.misread]


ISSUE31_MISSED = {
    # option text translated, no cognate: the reader knows no dictionary (counted, not fixed)
    "El abuelo.",
    "Der Großvater.",
    "爷爷。",
    # the supposition is denied ("but it doesn't"): read as no answer
    "It would be biased if it generalised, but it doesn't.",
}


def test_issue31_adversarial_replies_no_wrong_no_over_read() -> None:
    # labels committed (ded7ce2) before any reader ran on them; first run 95/181 (45 wrong,
    # 21 of them over-read, 40 missed)
    tally = AGREEMENT.score(AGREEMENT.load("adversarial31"))["all"]
    assert tally.wrong == 0 and tally.over_read == 0, _shown(tally)
    assert {row["reply"] for row, _ in tally.misread} == ISSUE31_MISSED


@pytest.mark.parametrize("name", CORPORA)
def test_agreement_and_no_wrong_answers(name: str) -> None:
    tallies = AGREEMENT.score(AGREEMENT.load(name))
    overall = tallies["all"]
    assert overall.rate >= 0.97, _shown(overall)
    assert overall.wrong == 0, _shown(overall)


def test_every_adversarial_class_has_no_wrong_answer() -> None:
    rows = AGREEMENT.load("adversarial")
    tallies = AGREEMENT.score(rows)
    classes = {row["class"] for row in rows}
    assert {
        "echo_of_options",
        "self_correction",
        "leading_token",
        "negative_question",
        "other_language",
        "generic_mc",
        "unknown_wording",
        "hedge",
        "question",
        "two_answers",
        "refusal",
        "labels",
    } <= classes
    for name in classes:
        assert tallies[name].wrong == 0, (name, _shown(tallies[name]))
    # the one missed answer: "A man like the grandfather would forget." (an option named
    # inside a longer sentence is read only from short replies or opinions; the held-out
    # "A young hiker like the 25-year-old would be fast." must not read as that person)
    assert tallies["all"].missed <= 1, _shown(tallies["all"])


def test_abstentions_give_the_labelled_reason() -> None:
    for row in AGREEMENT.load("adversarial"):
        if "reason" in row:
            reading = AGREEMENT.read(row)
            assert reading.reason is not None, row
            assert reading.reason.value == row["reason"], (row["reply"], reading)


@pytest.mark.parametrize("name", CORPORA)
def test_metamorphic_rules_hold(name: str) -> None:
    tallies = AGREEMENT.metamorphic(AGREEMENT.load(name))
    assert set(tallies) == {
        "answer_prefix",
        "trailing_explanation",
        "self_correction",
        "option_order",
        "letter_vs_text",
    }
    for rule, tally in tallies.items():
        assert tally.wrong == 0, (rule, _shown(tally))
    # every disagreement is a transformation of a reply already misread untransformed
    for rule, misread in AGREEMENT.new_misreads(AGREEMENT.load(name)).items():
        assert not misread, (rule, [(r["reply"], r["label"], got) for r, got in misread])


def test_corpus_lines_are_complete() -> None:
    for name in CORPORA:
        for row in AGREEMENT.load(name):
            assert {"reply", "kind", "label", "class", "source"} <= set(row), row
            assert row["kind"] in {"yesno", "choice", "labels"}, row


@pytest.mark.parametrize("name", AGREEMENT.BENCHMARK_CORPORA)
def test_metamorphic_rules_on_the_benchmark_corpora(name: str) -> None:
    # every labelled reply of bbq_mcq / stop_yesno / bbnli_nli, read with the benchmark's own
    # declaration: no transformation turns a reply read right into one read wrong (the
    # documented disagreements of docs/benchmarks/*.md stay what they are)
    rows = AGREEMENT.benchmark_rows(name)
    for rule, misread in AGREEMENT.new_misreads(rows).items():
        assert not misread, (rule, [(r["reply"], r["label"], got) for r, got in misread])
