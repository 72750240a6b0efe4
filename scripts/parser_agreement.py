"""Agreement of the answer parsers with the hand-labelled corpora in tests/corpora/.

Each corpus line is one JSON object: ``reply``, ``label`` (what a careful human reads),
``source`` (released data, a model run, or hand-written), ``note``, and for CALM the task
fields (``kind``; ``gold`` for free-form QA; ``options`` for MCQA). A parser *reads* label L
when it scores the reply correct against gold L, for exactly one L (none or several: it read
no answer). Agreement compares the answer classes (yes / no / option / correct / wrong)
against the non-answer classes (refused, unparsed, empty: one class).

    PYTHONPATH=src python scripts/parser_agreement.py            # markdown for the docs
    PYTHONPATH=src python scripts/parser_agreement.py --write-docs   # refresh docs/benchmarks

`--write-docs` replaces the text between `<!-- agreement:NAMES -->` and `<!-- /agreement -->`
in docs/benchmarks/*.md with the figures and disagreements of those corpora.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from biasaudit.benchmarks.bbnli.parse import parse_reply
from biasaudit.benchmarks.bbq.parse import option_set
from biasaudit.benchmarks.bbq.parse import parse_reply as parse_bbq_reply
from biasaudit.benchmarks.calm.parse import score_mcqa, score_nli, score_qa, score_sentiment
from biasaudit.benchmarks.stop.parse import parse_text
from biasaudit.datasets.files import read_json_lines

CORPORA = Path(__file__).resolve().parent.parent / "tests" / "corpora"
NON_ANSWER = "non-answer"
_NON_ANSWER_LABELS = {"refused", "unparsed", "empty", "unknown"}

Row = dict[str, Any]


def _cls(label: str) -> str:
    return NON_ANSWER if label in _NON_ANSWER_LABELS else label


def _read_one(correct_for: dict[str, bool]) -> str:
    read = [label for label, ok in correct_for.items() if ok]
    return read[0] if len(read) == 1 else NON_ANSWER


def read_stop(row: Row, mode: str) -> str:
    return _cls(parse_text(row["reply"], mode).value)  # type: ignore[arg-type]


def read_bbnli(row: Row, mode: str) -> str:
    parsed = parse_reply(row["reply"], mode, row.get("hypothesis"))
    if parsed.outcome == "answered" and parsed.answer is not None:
        return parsed.answer
    return _cls("empty" if not (row["reply"] or "").strip() else parsed.outcome)


_NLI = {"True": "True", "False": "False", "Neither": "Neither"}
_SENTIMENT = {"positive": "1", "negative": "0"}
_TOXIC = {"toxic": "1", "not_toxic": "0"}


def read_calm_nli(row: Row, mode: str) -> str:
    golds = ["True", "False"] if row["kind"] == "nli2" else list(_NLI)
    kwargs = {"two_way": row["kind"] == "nli2"} if mode == "strict" else {}
    return _read_one(
        {g: score_nli(row["reply"], g, mode, **kwargs).correct for g in golds}  # type: ignore[arg-type]
    )


def read_calm_sentiment(row: Row, mode: str) -> str:
    toxic = row["kind"] == "toxic"
    words = _TOXIC if toxic else _SENTIMENT
    return _read_one(
        {w: score_sentiment(row["reply"], g, toxic, mode).correct for w, g in words.items()}  # type: ignore[arg-type]
    )


def read_calm_qa(row: Row, mode: str) -> str:
    if row["kind"] == "mcqa":
        options: dict[str, str] = row["options"]
        return _read_one(
            {
                k: score_mcqa(row["reply"], (k, v), options, mode).correct  # type: ignore[arg-type]
                for k, v in options.items()
            }
        )
    parsed = score_qa(row["reply"], row["gold"], mode)  # type: ignore[arg-type]
    if parsed.outcome != "answered":
        return NON_ANSWER
    return "correct" if parsed.correct else "wrong"


def read_bbq(row: Row, mode: str) -> str:
    """The option letter read (the "unknown" option is an answer: its letter), or a
    non-answer; `row` carries the item's `answers`, `unknown_loc` and `protocol`."""
    options = option_set(row["answers"], row["answers"], row["unknown_loc"])
    parsed = parse_bbq_reply(
        row["reply"],
        options,
        mode,
        letters=row["protocol"] == "letter",
        question=row.get("question"),  # type: ignore[arg-type]
    )
    return "ABC"[parsed.chosen] if parsed.chosen is not None else NON_ANSWER


@dataclass(frozen=True)
class Corpus:
    file: str
    reader: Callable[[Row, str], str]
    modes: tuple[str, ...]


CORPUS_READERS = {
    "stop_yesno": Corpus("stop_yesno.jsonl", read_stop, ("strict", "faithful", "legacy_strict")),
    "calm_nli": Corpus("calm_nli.jsonl", read_calm_nli, ("strict", "repo", "legacy_strict")),
    "calm_sentiment": Corpus(
        "calm_sentiment.jsonl", read_calm_sentiment, ("strict", "repo", "legacy_strict")
    ),
    "calm_qa": Corpus("calm_qa.jsonl", read_calm_qa, ("strict", "repo", "legacy_strict")),
    "bbnli_nli": Corpus(
        "bbnli_nli.jsonl", read_bbnli, ("strict", "bbnli_substring", "bbnli_token")
    ),
    "bbq_mcq": Corpus("bbq_mcq.jsonl", read_bbq, ("strict", "authors")),
}


@dataclass
class Agreement:
    corpus: str
    mode: str
    n: int
    agree: int
    disagreements: list[tuple[Row, str]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.agree / self.n if self.n else float("nan")

    @property
    def wrong(self) -> int:
        """Disagreements where the parser read an answer (another one, or one where the
        label is a non-answer)."""
        return sum(read != NON_ANSWER for _, read in self.disagreements)

    @property
    def missed(self) -> int:
        """Disagreements where the label is an answer and the parser read none."""
        return sum(read == NON_ANSWER for _, read in self.disagreements)


#: Replies of both embedded models and released larger-model outputs, labelled by reading
#: before any reader ran on them (git log); each line has a ``class`` (the reply's form).
CROSS_MODEL = CORPORA / "cross_model"


def _read_jsonl(path: Path) -> list[Row]:
    if not path.exists():
        return []
    return read_json_lines(path)


def load(name: str) -> list[Row]:
    """The corpus `name`: tests/corpora/FILE and its cross-model part cross_model/FILE."""
    file = CORPUS_READERS[name].file
    return _read_jsonl(CORPORA / file) + _read_jsonl(CROSS_MODEL / file)


def agreement(name: str, mode: str = "strict") -> Agreement:
    reader = CORPUS_READERS[name].reader
    rows = load(name)
    result = Agreement(name, mode, len(rows), 0)
    for row in rows:
        read = reader(row, mode)
        if read == _cls(row["label"]):
            result.agree += 1
        else:
            result.disagreements.append((row, read))
    return result


def _markdown(names: list[str] | None = None) -> str:
    lines = []
    for name, corpus in CORPUS_READERS.items():
        if names is not None and name not in names:
            continue
        lines.append(f"`{corpus.file}`:\n")
        rows = load(name)
        kinds = sorted({row["source"].split(":")[0] for row in rows})
        header = " | ".join(f"{k} only" for k in kinds)
        lines.append(
            f"| parser | agreement | wrong | missed | {header} |\n|---|---|---|---|"
            + "---|" * len(kinds)
        )
        results = [agreement(name, mode) for mode in corpus.modes]
        for res in results:
            wrong = [row["source"].split(":")[0] for row, _ in res.disagreements]
            cells = []
            for k in kinds:
                n_k = sum(row["source"].split(":")[0] == k for row in rows)
                cells.append(f"{(n_k - wrong.count(k)) / n_k:.3f} (n={n_k})")
            lines.append(
                f"| {res.mode} | {res.rate:.3f} ({res.agree}/{res.n}) | {res.wrong} "
                f"| {res.missed} | " + " | ".join(cells) + " |"
            )
        lines.append("\nDisagreements of the default (strict) parser:\n")
        if not results[0].disagreements:
            lines.append("- none")
        for row, read in results[0].disagreements:
            lines.append(
                f"- `{json.dumps(row['reply'], ensure_ascii=False)}`: label {row['label']}, "
                f"parser {read} ({row['source']}; {row.get('note', '')})"
            )
        lines.append("")
    return "\n".join(lines)


_MARKED = re.compile(r"(<!-- agreement:([\w,]+) -->\n)(.*?)(<!-- /agreement -->)", re.S)


def write_docs() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs" / "benchmarks"
    for path in sorted(docs.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        new = _MARKED.sub(
            lambda m: m.group(1) + _markdown(m.group(2).split(",")) + "\n" + m.group(4), text
        )
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"updated {path}")


if __name__ == "__main__":
    if "--write-docs" in sys.argv[1:]:
        write_docs()
    else:
        sys.stdout.write(_markdown() + "\n")
