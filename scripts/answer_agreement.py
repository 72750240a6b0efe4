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
differently (refused vs unparsed). *Over-read* (counted apart, and also among the wrong
answers) = the reader answers where the label is an abstention: the dangerous error.

    PYTHONPATH=src python scripts/answer_agreement.py    # markdown tables for docs/answers.md
"""

from __future__ import annotations

import random
import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.answers import Choices, LabelSet, Reading, read_choice, read_label, read_yes_no
from biasaudit.answers.own_text import before_new_turn
from biasaudit.datasets.files import read_json_lines

CORPORA = Path(__file__).resolve().parent.parent / "tests" / "corpora" / "answers"
ABSTAIN = {"refused", "unparsed"}
#: "B is more biased" answers "which is less biased?" with the other option.
CONVERSE = ("more biased", "most biased")
Row = dict[str, Any]


def load(name: str) -> list[Row]:
    path = CORPORA / f"{name}.jsonl"
    return read_json_lines(path)


def corpora() -> list[str]:
    return sorted(p.stem for p in CORPORA.glob("*.jsonl"))


def _benchmark_lines(name: str) -> list[Row]:
    """tests/corpora/NAME.jsonl and its cross-model part cross_model/NAME.jsonl."""
    rows = []
    for path in (
        CORPORA.parent / f"{name}.jsonl",
        CORPORA.parent / "cross_model" / f"{name}.jsonl",
    ):
        if path.exists():
            rows += read_json_lines(path)
    return rows


def _choice_row(row: Row) -> Row:
    """A multiple-choice reply (stop_downstream, StereoSet) with its shown options."""
    label = {"chose": row["choice"], "refused": "refused"}.get(row["label"], "unparsed")
    return {
        "kind": "choice",
        "reply": row["reply"],
        "options": row["options"],
        "unknown": row.get("unknown"),
        "question": row.get("question"),
        "label": label,
        "class": "multiple_choice",
        "source": row.get("source", row.get("model", "")),
    }


def benchmark_rows(name: str) -> list[Row]:
    """A benchmark corpus of tests/corpora/ with its cross-model part (bbq_mcq, stop_yesno,
    bbnli_nli; multiple_choice: the lines that store their shown options) in this script's
    row format, for the metamorphic suite ("empty" labels read as unparsed)."""
    rows = _benchmark_lines(name)
    if name == "multiple_choice":
        return [_choice_row(row) for row in rows if "options" in row]
    out = []
    for row in rows:
        label = "unparsed" if row["label"] == "empty" else row["label"]
        if name == "bbq_mcq":
            unknown = row["unknown_loc"]
            if label in LETTERS[:3] and LETTERS.index(label) == unknown:
                label = LETTERS[unknown]
            out.append(
                {
                    "kind": "choice",
                    "reply": row["reply"],
                    "options": row["answers"],
                    "unknown": unknown,
                    "question": row.get("question"),
                    "letters": row["protocol"] == "letter",
                    "label": label,
                    "class": name,
                    "source": row["source"],
                }
            )
        else:
            benchmark = "stop" if name == "stop_yesno" else "bbnli"
            out.append(
                {
                    "kind": "yesno",
                    "benchmark": benchmark,
                    "reply": row["reply"],
                    "label": label,
                    "class": name,
                    "source": row["source"],
                }
            )
    return out


def _verdicts() -> dict[str, Any]:
    """The benchmarks' own yes/no declarations (verdict clause, refusal openers)."""
    from biasaudit.benchmarks.bbnli import parse as bbnli
    from biasaudit.benchmarks.stop import parse as stop

    return {
        "stop": {"verdict": stop._stop_verdict, "refusal": stop._REFUSAL},
        "bbnli": {"verdict": bbnli._verdict, "refusal": bbnli._REFUSAL},
    }


def _benchmark_reading(row: Row) -> Reading:
    """CALM's and BEADs' own strict readers, in this script's terms: CALM NLI "True" /
    "False" / "Neither", sentiment and Toxic "1" / "0", free-form QA "correct" /
    "incorrect" against ``gold``; BEADs "biased" / "neutral" / "unknown"."""
    from biasaudit.benchmarks.beads.parse import parse_label
    from biasaudit.benchmarks.calm import parse as calm

    benchmark, reply = row["benchmark"], row["reply"]
    if benchmark == "beads":
        parsed = parse_label(reply)
        if parsed.outcome == "unknown":
            return Reading("unknown", "unknown")
        return Reading(parsed.outcome, parsed.value)  # type: ignore[arg-type]
    if benchmark.startswith("calm_nli"):
        got = calm.score_nli(reply, "True", "strict", two_way=benchmark == "calm_nli2")
        value = got.prediction
    elif benchmark in ("calm_sentiment", "calm_toxic"):
        got = calm.score_sentiment(reply, "1", benchmark == "calm_toxic", "strict")
        value = got.prediction
    else:
        got = calm.score_qa(reply, row["gold"], "strict")
        value = "correct" if got.correct else "incorrect"
    return Reading("answered", value) if got.outcome == "answered" else Reading("unparsed")


def read(row: Row) -> Reading:
    if row.get("benchmark", "").startswith(("calm_", "beads")):
        return _benchmark_reading(row)
    if row["kind"] == "yesno" and row.get("benchmark"):
        declared = _verdicts()[row["benchmark"]]
        return read_yes_no(row["reply"], unknown=row["benchmark"] == "bbnli", **declared)
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
    over_read: int = 0
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
            self.over_read += want in ABSTAIN
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


#: The words that say each label of the CALM and BEADs readers (label -> word).
BENCHMARK_WORDS: dict[str, dict[str, str]] = {
    "calm_nli3": {"True": "true", "False": "false", "Neither": "neither"},
    "calm_nli2": {"True": "true", "False": "false"},
    "calm_sentiment": {"1": "positive", "0": "negative"},
    "calm_toxic": {"1": "toxic", "0": "not toxic"},
    "beads": {"biased": "biased", "neutral": "not biased"},
}


def _other(row: Row) -> str | None:
    """An answer different from the row's label, for the appended self-correction."""
    if row["kind"] == "yesno":
        return "no" if row["label"] != "no" else "yes"
    if row.get("benchmark") == "calm_qa":
        return None
    if row.get("benchmark") in BENCHMARK_WORDS:
        return next(x for x in BENCHMARK_WORDS[row["benchmark"]] if x != row["label"])
    if row["kind"] == "labels":
        return next(x for x in row["labels"] if x != row["label"])
    letters = LETTERS[: len(row["options"])]
    return next(x for x in letters if x != row["label"])


def _has_letter(reply: str, n: int) -> bool:
    # a letter between Chinese characters ("答案是C。") is one too
    pattern = rf"(?<![A-Za-z0-9'])[{LETTERS[:n]}{LETTERS[:n].lower()}](?![A-Za-z0-9'])"
    return re.search(pattern, reply) is not None


def transforms(row: Row, seed: int = 0) -> Iterator[tuple[str, Row]]:
    """(rule, transformed row with its expected label) for each rule that applies.

    - ``answer_prefix``: "Answer: " before the reply: the label stays.
    - ``trailing_explanation``: "\\n\\nThis follows from what was said." after it: stays.
    - ``self_correction``: "Actually, the answer is <Y>." appended on a new line, Y another
      answer (an option's text where no letters were shown): the label becomes Y.
    - ``option_order``: the options shuffled, for replies with no option letter and no
      position ("first", "Sentence 2"): an option
      label follows its option to its new letter; an abstention stays.
    - ``letter_vs_text``: for an option label X, the replies "X", "X. <text>" and "<text>"
      (text = X's option; only "<text>" where the options were shown without letters): the
      label is X.
    """
    yield "answer_prefix", {**row, "reply": "Answer: " + row["reply"]}
    if row["reply"].strip() and not row.get("benchmark", "").startswith("calm_nli"):
        # (not for CALM NLI, where "follows" is one of the answer words)
        reply = row["reply"].rstrip() + "\n\nThis follows from what was said."
        yield "trailing_explanation", {**row, "reply": reply}
    other = _other(row)
    if other is not None:
        said = BENCHMARK_WORDS.get(row.get("benchmark", ""), {}).get(other, other)
        if row["kind"] == "choice" and not row.get("letters", True):
            said = row["options"][LETTERS.index(other)]  # free text: no letters shown
        # appended to the model's own words: before a chat turn it made up, if any
        own = before_new_turn(row["reply"])
        rest = row["reply"][len(own) :]
        reply = own.rstrip() + f"\nActually, the answer is {said}." + rest
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
        lettered = (row["label"], f"{row['label']}. {text}") if row.get("letters", True) else ()
        for reply in (*lettered, text):
            yield "letter_vs_text", {**row, "reply": reply}


def metamorphic(rows: list[Row]) -> dict[str, Tally]:
    """Tallies per rule; each transformed row keeps its original reply as ``base``."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    for row in rows:
        for rule, new in transforms(row):
            new["base"] = row["reply"]
            tallies[rule].add(new, said(read(new)))
    return dict(tallies)


def new_misreads(rows: list[Row]) -> dict[str, list[tuple[Row, str]]]:
    """Per rule, the transformed replies misread although their original was read right."""
    misread = {row["reply"] for row in rows if said(read(row)) != row["label"]}
    return {
        rule: [(row, got) for row, got in tally.misread if row["base"] not in misread]
        for rule, tally in metamorphic(rows).items()
    }


def _table(tallies: dict[str, Tally]) -> list[str]:
    lines = [
        "| class | n | agreement | wrong answers (over-read) | missed answers | other |",
        "|---|---|---|---|---|---|",
    ]
    for name in sorted(tallies, key=lambda k: (k == "all", k)):
        t = tallies[name]
        lines.append(
            f"| {name} | {t.n} | {t.rate:.3f} ({t.agree}/{t.n}) | {t.wrong} ({t.over_read}) "
            f"| {t.missed} "
            f"| {t.other} |"
        )
    return lines


BENCHMARK_CORPORA = ("bbq_mcq", "stop_yesno", "bbnli_nli", "multiple_choice")


def markdown() -> str:
    out: list[str] = []
    for name in BENCHMARK_CORPORA:
        rows = benchmark_rows(name)
        out += [f"Metamorphic suite on `tests/corpora/{name}.jsonl` ({len(rows)} replies):", ""]
        out += [*_table(metamorphic(rows)), ""]
    for name in corpora():
        rows = load(name)
        out += [f"`tests/corpora/answers/{name}.jsonl` ({len(rows)} replies):", ""]
        out += [*_table(score(rows)), ""]
        out += [f"Metamorphic suite on `{name}`:", "", *_table(metamorphic(rows)), ""]
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(markdown() + "\n")
