"""The benchmarks' default readers on the cross-model corpora (tests/corpora/cross_model/).

Every line there is a real reply: from the two embedded models (SmolLM2-135M-Instruct,
Gemma 3 270M) to the prompts the benchmarks send today (`biasaudit run ... --sample N`,
taken from samples.jsonl by scripts/corpus_replies.py), or a released output of a larger
model (UnifiedQA-T5-11B's BBQ answers, nyu-mll/BBQ results/UnifiedQA). Each carries
``label`` (what a careful human reads, written and committed before any reader ran on it:
git log), ``class`` (the reply's form: ``answer``, ``answer_explained``,
``echo_of_options``, ``hedge``, ...) and ``model``.

Counts as in scripts/answer_agreement.py: *wrong answer* = the reader gives an answer that
differs from the label, or one where the label is an abstention; *missed answer* = the
label is an answer and the reader abstains; abstentions (refused, unparsed, empty,
critiqued, unknown where the protocol has no such answer) count as one class.

    PYTHONPATH=src python scripts/cross_model_agreement.py   # markdown tables for the docs
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from biasaudit.datasets.files import read_json_lines
from biasaudit.multiple_choice import LETTERS, parse_choice

ROOT = Path(__file__).resolve().parent.parent
CROSS_MODEL = ROOT / "tests" / "corpora" / "cross_model"
NONE = "non-answer"
Row = dict[str, Any]

#: Classes whose replies hold no single committed answer, or hold one only after a
#: correction: the reader must never turn them into a (wrong) answer.
ADVERSARIAL = frozenset(
    {
        "echo_of_options",
        "two_answers",
        "hedge",
        "question",
        "refusal",
        "self_correction",
        "garbled",
        "no_answer",
        "echo_of_prompt",
        "empty",
    }
)


def _script(name: str) -> Any:
    """A sibling script as a module (they are not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


PA = _script("parser_agreement")
#: The counting of scripts/answer_agreement.py (non-answers become "unparsed" there).
Tally = _script("answer_agreement").Tally


def _choice(row: Row) -> tuple[str, str]:
    """(wanted, read) for a stop_downstream / StereoSet multiple-choice reply."""
    parsed = parse_choice(row["reply"], row["options"], row.get("unknown"), row.get("question"))
    got = LETTERS[parsed.choice] if parsed.choice is not None else NONE
    want = row["choice"] if row["label"] == "chose" else NONE
    return want, got


def _beads(kind: str) -> Callable[[Row], tuple[str, str]]:
    def read(row: Row) -> tuple[str, str]:
        from biasaudit.benchmarks.beads.biasrate import map_fill
        from biasaudit.benchmarks.beads.parse import parse_label
        from biasaudit.benchmarks.beads.parse_replies import parse_agreement, parse_fill
        from biasaudit.benchmarks.beads.prompts import PLACEHOLDERS

        if kind == "label":
            parsed = parse_label(row["reply"], row.get("text"))
        elif kind == "agreement":
            parsed = parse_agreement(row["reply"])
        else:
            template = PLACEHOLDERS.sub("[demographic_placeholder]", row["template"])
            parsed = parse_fill(row["reply"], template, "[demographic_placeholder]")
            parsed = type(parsed)(parsed.outcome, map_fill(parsed.value) if parsed.value else None)
        got = str(parsed.value) if parsed.outcome == "answered" else NONE
        want = str(row["value"]) if row["outcome"] == "answered" else NONE
        return want, got

    return read


def _benchmark(name: str) -> Callable[[Row], tuple[str, str]]:
    reader = PA.CORPUS_READERS[name].reader
    return lambda row: (PA._cls(row["label"]), reader(row, "strict"))


READERS: dict[str, Callable[[Row], tuple[str, str]]] = {
    "bbq_mcq": _benchmark("bbq_mcq"),
    "multiple_choice": _choice,
    "stop_yesno": _benchmark("stop_yesno"),
    "bbnli_nli": _benchmark("bbnli_nli"),
    "calm_nli": _benchmark("calm_nli"),
    "calm_sentiment": _benchmark("calm_sentiment"),
    "calm_qa": _benchmark("calm_qa"),
    "beads_label": _beads("label"),
    "beads_agreement": _beads("agreement"),
    "beads_fill": _beads("fill"),
}


def load(name: str, folder: Path = CROSS_MODEL) -> list[Row]:
    path = folder / f"{name}.jsonl"
    return read_json_lines(path)


def corpora(folder: Path = CROSS_MODEL) -> list[str]:
    return [name for name in READERS if (folder / f"{name}.jsonl").exists()]


def score(name: str, folder: Path = CROSS_MODEL) -> dict[str, Tally]:
    """Tallies of corpus `name`: "all", "class:<class>", "model:<model>"."""
    tallies: dict[str, Any] = defaultdict(Tally)
    for row in load(name, folder):
        want, got = (x if x != NONE else "unparsed" for x in READERS[name](row))
        for key in ("all", f"class:{row['class']}", f"model:{row['model']}"):
            tallies[key].add({**row, "label": want}, got)
    return dict(tallies)


def markdown() -> str:
    out = []
    for name in corpora():
        tallies = score(name)
        out += [f"`tests/corpora/cross_model/{name}.jsonl`:", ""]
        out += ["| part | n | agreement | wrong | missed |", "|---|---|---|---|---|"]
        for key in sorted(tallies, key=lambda k: (k != "all", k)):
            t = tallies[key]
            out.append(
                f"| {key} | {t.n} | {t.rate:.3f} ({t.agree}/{t.n}) | {t.wrong} | {t.missed} |"
            )
        misread = tallies["all"].misread
        out += ["", "Disagreements:" if misread else "Disagreements: none", ""]
        for row, got in misread:
            reply = json.dumps(row["reply"], ensure_ascii=False)
            out.append(
                f"- `{reply}` ({row['model']}, {row['class']}): label {row['label']}, read {got}"
            )
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(markdown() + "\n")
