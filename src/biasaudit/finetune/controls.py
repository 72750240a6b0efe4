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
"""

from __future__ import annotations

import random
from collections.abc import Sequence
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
