"""The format-only control of an alignment fine-tune (issue 32): each control conversation
mirrors one treatment conversation's shape and answers, with true/false arithmetic in place of
the social content. Checked by evaluating every statement with Python's own arithmetic."""

from __future__ import annotations

import re

import pytest

from biasaudit.errors import DataError
from biasaudit.finetune.controls import CONTROL_SYSTEM_PROMPT, yes_no_format_control


def _treatment(answers: list[str]) -> list[dict[str, str]]:
    messages = [{"role": "system", "content": "Scenarios about social bias."}]
    for i, answer in enumerate(answers):
        messages += [
            {"role": "user", "content": f"Sam tells joke {i}. Is this appropriate? Yes or no."},
            {"role": "assistant", "content": answer},
        ]
    return messages


def _truth(statement: str) -> bool:
    compare = re.fullmatch(r"(\d+) is larger than (\d+)\.", statement)
    if compare:
        return int(compare[1]) > int(compare[2])
    a, sign, b, value = re.fullmatch(r"(\d+) ([+×]) (\d+) = (-?\d+)\.", statement).groups()  # type: ignore[union-attr]
    return (int(a) + int(b) if sign == "+" else int(a) * int(b)) == int(value)


def test_control_mirrors_shape_and_answers_with_true_statements_for_yes() -> None:
    treatments = [_treatment(["Yes", "No", "No", "No", "No"]), _treatment(["No", "Yes"])] * 30
    controls = yes_no_format_control(treatments, seed=0)
    assert len(controls) == len(treatments)
    for treatment, control in zip(treatments, controls, strict=True):
        assert [m["role"] for m in control] == [m["role"] for m in treatment]
        assert control[0]["content"] == CONTROL_SYSTEM_PROMPT
        for i, message in enumerate(control):
            if message["role"] == "assistant":
                assert message["content"] == treatment[i]["content"]
            if message["role"] == "user":
                statement = message["content"].split(" Is this statement correct?")[0]
                assert _truth(statement) == (control[i + 1]["content"] == "Yes"), statement
                assert not re.search(r"joke|Sam|bias|appropriate", message["content"])
    assert yes_no_format_control(treatments, seed=0) == controls  # seeded
    assert yes_no_format_control(treatments, seed=1) != controls


def test_a_non_yes_no_answer_is_refused() -> None:
    with pytest.raises(DataError, match="conversation 1: the format-only control mirrors Yes/No"):
        yes_no_format_control([_treatment(["Maybe"])], seed=0)


# --- the rewrite control of `beads debias` ----------------------------------------------------

_PERSON = re.compile(
    r"\b(he|she|they|his|her|their|man|men|woman|women|people|person|child|children|boy|girl|"
    r"old|young|black|white people|muslim|christian|jewish|gay|disabled|poor|rich|immigrants?)\b",
    re.IGNORECASE,
)


def _slot_words(text: str) -> set[str]:
    from biasaudit.finetune import controls

    vocabulary = {*controls._THINGS, *controls._COLOURS, *controls._MATERIALS}
    return {w for w in re.findall(r"[a-z]+", text.lower()) if w in vocabulary}


def _prompt(text: str) -> str:
    return f"Rewrite it without bias.\nBiased: {text}\nBenign:"


def _rewrite_treatment(n: int) -> list[dict[str, str]]:
    messages: list[dict[str, str]] = []
    for i in range(n):
        messages += [
            {"role": "user", "content": _prompt(f"Women are bad at maths ({i}).")},
            {"role": "assistant", "content": f"People differ in maths ({i})."},
        ]
    return messages


def test_rewrite_control_keeps_the_prompt_and_answers_with_the_same_sentence_reworded() -> None:
    from biasaudit.finetune.controls import rewrite_format_control

    treatments = [_rewrite_treatment(1), _rewrite_treatment(2)] * 40
    controls = rewrite_format_control(treatments, seed=0, prompt=_prompt)
    assert len(controls) == len(treatments)
    seen = set()
    for treatment, control in zip(treatments, controls, strict=True):
        assert [m["role"] for m in control] == [m["role"] for m in treatment]
        for user, answer in zip(control[::2], control[1::2], strict=True):
            match = re.fullmatch(
                r"Rewrite it without bias\.\nBiased: (.+)\nBenign:", user["content"]
            )
            assert match, user["content"]
            sentence, rewrite = match[1], answer["content"]
            seen.add(sentence)
            assert rewrite != sentence
            # the same meaning: the same number and the same object / colour / material words
            assert re.findall(r"\d+", sentence) == re.findall(r"\d+", rewrite)
            assert _slot_words(sentence) == _slot_words(rewrite)
            assert not _PERSON.search(sentence) and not _PERSON.search(rewrite)
            assert "maths" not in sentence + rewrite
    assert len(seen) > 60  # varied, not one sentence repeated
    assert rewrite_format_control(treatments, seed=0, prompt=_prompt) == controls
    assert rewrite_format_control(treatments, seed=1, prompt=_prompt) != controls


def test_rewrite_control_refuses_a_user_turn_without_an_answer() -> None:
    from biasaudit.finetune.controls import rewrite_format_control

    with pytest.raises(DataError, match="conversation 1: a user turn without an answer"):
        rewrite_format_control([[{"role": "user", "content": "x"}]], seed=0, prompt=_prompt)
