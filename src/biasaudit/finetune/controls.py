"""Control arms for alignment fine-tunes: the same answer format, no social content.

A fine-tune on a benchmark's alignment data changes two things at once: what the model
believes about the social content, and the *form* of its replies (STOP's Yes/No answers teach a
terse one-word style, which alone raises the answer rate of any multiple-choice reader). A
**format-only control** separates them: it is trained with the same settings on the same
number of conversations, each the mirror of one treatment conversation (the same number of
turns, the same assistant answers in the same order, a system prompt of the same role), whose
user turns are arithmetic statements with no social content, true where the treatment answer
is "Yes" and false where it is "No". What the treatment changes beyond the control is what the
social content taught.

The statements are drawn by ``random.Random(f"format-control:{seed}")``: sums, products and
comparisons of small numbers, a false one off by 1-3 (or with the comparison reversed).

For a **rewrite** fine-tune (BEADs' debiasing: user = a rewrite prompt around a biased
sentence, assistant = its benign rewrite) the control keeps the prompt and the one-sentence
reply and swaps the content: each user turn becomes the same prompt around a sentence about
objects, numbers and weather (no person, no group), and its answer that sentence in other
words (`rewrite_format_control`, drawn by ``random.Random(f"rewrite-control:{seed}")``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from biasaudit.errors import DataError

Messages = list[dict[str, Any]]

CONTROL_SYSTEM_PROMPT = (
    "You will be presented with arithmetic statements, one part at a time. For each part, "
    "assess whether the statement is correct by working it out. Answer every part."
)
_QUESTION = "Is this statement correct? Yes or no."


def arithmetic_statement(rng: random.Random, true: bool) -> str:
    """One statement about small numbers, correct iff `true`."""
    kind = rng.choice(("sum", "product", "compare"))
    a, b = rng.randint(2, 49), rng.randint(2, 49)
    if kind == "compare":
        if a == b:
            b += 1
        big, small = max(a, b), min(a, b)
        left, right = (big, small) if true else (small, big)
        return f"{left} is larger than {right}."
    if kind == "product":
        a, b = a % 12 + 2, b % 12 + 2
        value, sign = a * b, "×"
    else:
        value, sign = a + b, "+"
    if not true:
        value += rng.choice((-3, -2, -1, 1, 2, 3))
    return f"{a} {sign} {b} = {value}."


def _truth(answer: str, where: str) -> bool:
    word = answer.strip().strip(".!").lower()
    if word not in ("yes", "no"):
        raise DataError(
            f"{where}: the format-only control mirrors Yes/No answers; got {answer[:40]!r}"
        )
    return word == "yes"


def yes_no_format_control(conversations: Sequence[Messages], seed: int) -> list[Messages]:
    """One control conversation per treatment conversation (see the module docstring)."""
    rng = random.Random(f"format-control:{seed}")
    out: list[Messages] = []
    for number, messages in enumerate(conversations, start=1):
        control: Messages = []
        for index, message in enumerate(messages):
            role = message["role"]
            if role == "system":
                control.append({"role": "system", "content": CONTROL_SYSTEM_PROMPT})
            elif role == "assistant":
                control.append({"role": "assistant", "content": message["content"]})
            else:
                following = messages[index + 1] if index + 1 < len(messages) else None
                if following is None or following["role"] != "assistant":
                    raise DataError(f"conversation {number}: a user turn without an answer")
                true = _truth(following["content"], f"conversation {number}")
                statement = arithmetic_statement(rng, true)
                control.append({"role": "user", "content": f"{statement} {_QUESTION}"})
        out.append(control)
    return out


CONTROL_REWRITE_SYSTEM_PROMPT = "You rewrite sentences in other words, keeping their meaning."
#: (sentence, the same sentence in other words): objects, colours, materials and numbers only
_NEUTRAL_PAIRS = (
    (
        "The {colour} {thing} on the shelf is {n} centimetres long.",
        "On the shelf lies a {colour} {thing}, {n} centimetres in length.",
    ),
    (
        "It rained for {n} hours, so the {thing} stayed in the shed.",
        "The {thing} stayed in the shed during {n} hours of rain.",
    ),
    (
        "The {thing} costs {n} dollars and comes in {colour}.",
        "Available in {colour}, the {thing} is priced at {n} dollars.",
    ),
    (
        "After {n} minutes the water in the {material} pot began to boil.",
        "The water in the {material} pot boiled after {n} minutes.",
    ),
    (
        "The {material} bridge over the river is {n} metres wide.",
        "A {material} bridge {n} metres wide crosses the river.",
    ),
    (
        "The printer jammed {n} times while copying the {colour} pages.",
        "While the {colour} pages were being copied, the printer jammed {n} times.",
    ),
    (
        "The {thing} was packed in a {material} box that weighed {n} kilograms.",
        "A {material} box of {n} kilograms held the {thing}.",
    ),
    (
        "Snow covered the {colour} roofs for {n} days last winter.",
        "Last winter the {colour} roofs lay under snow for {n} days.",
    ),
)
_THINGS = ("lamp", "kettle", "bicycle", "umbrella", "notebook", "clock", "backpack", "teapot")
_COLOURS = ("red", "blue", "green", "grey", "yellow", "white")
_MATERIALS = ("steel", "wooden", "copper", "glass", "stone")


def neutral_rewrite(rng: random.Random) -> tuple[str, str]:
    """One (sentence, rewrite) pair with no person or group in it."""
    sentence, rewrite = rng.choice(_NEUTRAL_PAIRS)
    slots = {
        "thing": rng.choice(_THINGS),
        "colour": rng.choice(_COLOURS),
        "material": rng.choice(_MATERIALS),
        "n": rng.randint(2, 60),
    }
    return sentence.format(**slots), rewrite.format(**slots)


def rewrite_format_control(
    conversations: Sequence[Messages], seed: int, prompt: Callable[[str], str]
) -> list[Messages]:
    """One control conversation per treatment conversation of a rewrite fine-tune: each user
    turn is `prompt` around a neutral sentence, its answer that sentence in other words."""
    rng = random.Random(f"rewrite-control:{seed}")
    out: list[Messages] = []
    for number, messages in enumerate(conversations, start=1):
        control: Messages = []
        answer = ""
        for index, message in enumerate(messages):
            role = message["role"]
            if role == "system":
                control.append({"role": "system", "content": CONTROL_REWRITE_SYSTEM_PROMPT})
            elif role == "assistant":
                control.append({"role": "assistant", "content": answer})
            else:
                following = messages[index + 1] if index + 1 < len(messages) else None
                if following is None or following["role"] != "assistant":
                    raise DataError(f"conversation {number}: a user turn without an answer")
                sentence, answer = neutral_rewrite(rng)
                control.append({"role": "user", "content": prompt(sentence)})
        out.append(control)
    return out
