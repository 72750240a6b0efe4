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
