"""The core answer reader (biasaudit.answers) against hand-labelled replies, and its
metamorphic suite.

Corpora: tests/corpora/answers/*.jsonl, one JSON object per line: ``reply``, ``kind``
(``yesno`` | ``choice`` | ``labels``), the declaration (``options``/``unknown``/``question``
for choice, ``unknown_allowed`` for yes/no, ``labels`` for label sets), ``label`` (what a
careful human reads: an answer, ``unknown`` for a yes/no protocol's unknown outcome, or
``refused`` / ``unparsed``), ``class`` (the error class the reply tests), optional
``reason`` (the abstention's expected reason code), ``source`` and ``note``. Labels were
written before the reader was run on them.

Counts: *wrong answer* = the reader gives an answer (an option, yes/no, a label, unknown)
that differs from the label, including an answer where the label is an abstention;
*missed answer* = the label is an answer and the reader abstains; *other* = both abstain
differently (refused vs unparsed).

    PYTHONPATH=src python scripts/answer_agreement.py    # markdown tables for docs/answers.md
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.answers import Choices, LabelSet, Reading, read_choice, read_label, read_yes_no

CORPORA = Path(__file__).resolve().parent.parent / "tests" / "corpora" / "answers"
ABSTAIN = {"refused", "unparsed"}
#: "B is more biased" answers "which is less biased?" with the other option.
CONVERSE = ("more biased", "most biased")
Row = dict[str, Any]


def load(name: str) -> list[Row]:
    path = CORPORA / f"{name}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def corpora() -> list[str]:
    return sorted(p.stem for p in CORPORA.glob("*.jsonl"))


def read(row: Row) -> Reading:
    if row["kind"] == "choice":
        choices = Choices(
            tuple(row["options"]),
            row.get("unknown"),
            row.get("question"),
            CONVERSE,
            letters=row.get("letters", True),
        )
        return read_choice(row["reply"], choices)
    if row["kind"] == "yesno":
        return read_yes_no(row["reply"], unknown=row.get("unknown_allowed", False))
    return read_label(row["reply"], LabelSet.of(row["labels"]))


def said(reading: Reading) -> str:
    """What a reading says, in the labels' terms."""
    if reading.outcome in ("answered", "unknown") and reading.value is not None:
        return reading.value
    return reading.outcome


@dataclass
class Tally:
    n: int = 0
    agree: int = 0
    wrong: int = 0
    missed: int = 0
    other: int = 0
    misread: list[tuple[Row, str]] = field(default_factory=list)

    def add(self, row: Row, got: str) -> None:
        self.n += 1
        want = row["label"]
        if got == want:
            self.agree += 1
            return
        self.misread.append((row, got))
        if got not in ABSTAIN:
            self.wrong += 1
        elif want not in ABSTAIN:
            self.missed += 1
        else:
            self.other += 1

    @property
    def rate(self) -> float:
        return self.agree / self.n if self.n else float("nan")


def score(rows: list[Row]) -> dict[str, Tally]:
    """Tallies per class and overall ("all")."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    for row in rows:
        got = said(read(row))
        tallies["all"].add(row, got)
        tallies[row["class"]].add(row, got)
    return dict(tallies)


# --- the metamorphic suite -------------------------------------------------------------

LETTERS = "ABCDEFGHIJ"


def _other(row: Row) -> str | None:
    """An answer different from the row's label, for the appended self-correction."""
    if row["kind"] == "yesno":
        return "no" if row["label"] != "no" else "yes"
    if row["kind"] == "labels":
        return next(x for x in row["labels"] if x != row["label"])
    letters = LETTERS[: len(row["options"])]
    return next(x for x in letters if x != row["label"])


def _has_letter(reply: str, n: int) -> bool:
    return re.search(rf"(?<![\w'])[{LETTERS[:n]}{LETTERS[:n].lower()}](?![\w'])", reply) is not None


def transforms(row: Row, seed: int = 0) -> Iterator[tuple[str, Row]]:
    """(rule, transformed row with its expected label) for each rule that applies.

    - ``answer_prefix``: "Answer: " before the reply: the label stays.
    - ``trailing_explanation``: "\\n\\nThis follows from what was said." after it: stays.
    - ``self_correction``: " Actually, the answer is <Y>." appended, Y another answer: the
      label becomes Y (an unknown option's letter: the same letter).
    - ``option_order``: the options shuffled, for replies with no option letter and no
      position ("first", "Sentence 2"): an option
      label follows its option to its new letter; an abstention stays.
    - ``letter_vs_text``: for an option label X, the replies "X", "X. <text>" and "<text>"
      (text = X's option): the label is X.
    """
    yield "answer_prefix", {**row, "reply": "Answer: " + row["reply"]}
    if row["reply"].strip():
        reply = row["reply"].rstrip() + "\n\nThis follows from what was said."
        yield "trailing_explanation", {**row, "reply": reply}
    other = _other(row)
    if other is not None:
        reply = row["reply"].rstrip() + f" Actually, the answer is {other}."
        yield "self_correction", {**row, "reply": reply, "label": other}
    if row["kind"] != "choice":
        return
    options = list(row["options"])
    n = len(options)
    positional = re.search(r"\b(?:first|second|third|fourth|[1-4])\b", row["reply"], re.I)
    if not _has_letter(row["reply"], n) and not positional:
        order = list(range(n))
        random.Random(f"{seed}:{row['reply']}").shuffle(order)
        shuffled = [options[i] for i in order]
        label = row["label"]
        if label in LETTERS[:n]:
            label = LETTERS[order.index(LETTERS.index(label))]
        unknown = row.get("unknown")
        new = {**row, "options": shuffled, "label": label}
        new["unknown"] = order.index(unknown) if unknown is not None else None
        yield "option_order", new
    if row["label"] in LETTERS[:n]:
        text = options[LETTERS.index(row["label"])]
        for reply in (row["label"], f"{row['label']}. {text}", text):
            yield "letter_vs_text", {**row, "reply": reply}


def metamorphic(rows: list[Row]) -> dict[str, Tally]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    for row in rows:
        for rule, new in transforms(row):
            tallies[rule].add(new, said(read(new)))
    return dict(tallies)


def _table(tallies: dict[str, Tally]) -> list[str]:
    lines = [
        "| class | n | agreement | wrong answers | missed answers | other |",
        "|---|---|---|---|---|---|",
    ]
    for name in sorted(tallies, key=lambda k: (k == "all", k)):
        t = tallies[name]
        lines.append(
            f"| {name} | {t.n} | {t.rate:.3f} ({t.agree}/{t.n}) | {t.wrong} | {t.missed} "
            f"| {t.other} |"
        )
    return lines


def markdown() -> str:
    out: list[str] = []
    for name in corpora():
        rows = load(name)
        out += [f"`tests/corpora/answers/{name}.jsonl` ({len(rows)} replies):", ""]
        out += [*_table(score(rows)), ""]
        out += [f"Metamorphic suite on `{name}`:", "", *_table(metamorphic(rows)), ""]
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(markdown() + "\n")
