"""The benchmarks' default readers on the fresh corpora (tests/corpora/fresh/).

Every line there is a reply sampled at temperature 0.8 with a fresh seed
(scripts/fresh_replies.py) from one of three models: SmolLM2-135M-Instruct and Gemma 3 270M
(the embedded GGUFs) and SmolLM2 after 30 LoRA steps on STOP's ideal answers
(`biasaudit finetune`, run with the `hf` backend). Each was labelled by a person reading it
(``label``: the answer the reply commits to, or a non-answer when it commits to nothing,
hedges, gives two answers, echoes the options or asks a question), and the labels were
committed before any reader ran on them (git log).

The counting splits what scripts/cross_model_agreement.py calls *wrong* in two:

- *wrong*: the label is an answer and the reader gives another answer;
- *over-read*: the label is a non-answer and the reader gives an answer;
- *missed*: the label is an answer and the reader gives none.

    PYTHONPATH=src python scripts/fresh_agreement.py   # markdown tables for docs/answers.md
    PYTHONPATH=src python scripts/fresh_agreement.py --heldout N  # held-out round N (1-13)
"""

from __future__ import annotations

import importlib.util
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FRESH = ROOT / "tests" / "corpora" / "fresh"
#: The held-out rounds: replies labelled (rounds 3-22: blind, by two labellers) and committed
#: before the reader read them, each read first by the reader with every rule written on the
#: rounds before it (docs/answers.md, "What the rounds say"). Round -> (seeds, the reader of
#: the first read); its corpus folder is :func:`round_folder`.
ROUNDS: dict[int, tuple[str, str]] = {
    1: ("4107-4109", "main after issue 30"),
    2: ("5107-5109", "round 1's rules"),
    3: ("6107-6109", "round 2's rules"),
    4: ("7107-7109", "round 3's rules"),
    5: ("8107-8109", "round 4's rules"),
    6: ("9107-9109", "round 5's rules"),
    7: ("10107-10109", "round 6's rules, BBNLI hypothesis"),
    8: ("11107-11109", "rules from rounds 1-7 (d426845)"),
    9: ("12107-12109", "round 8's rules (01e225f)"),
    10: ("13107-13109", "round 9's rules (029c099)"),
    11: ("14107-14109", "round 10's rules (d39adb6)"),
    12: ("15107-15109", "round 11's rules (d6d9690)"),
    13: ("16107-16109", "round 12's rules (8069aa0)"),
    14: ("17107-17109", "round 13's rules (6cdc939)"),
    15: ("18107-18109", "round 14's rules (b5b01af)"),
    16: ("19107-19109", "round 15's rules (f094484)"),
    17: ("20107-20109", "round 16's rules (c07385f)"),
    18: ("21107-21109", "round 17's rules (3277a9b)"),
    19: ("22107-22109", "round 18's rules (f82a52c)"),
    20: ("23107-23109", "round 19's rules (41bffba)"),
    21: ("24107-24109", "round 20's rules (3f96c2c)"),
    22: ("25107-25109", "round 21's rules (2f24018)"),
    23: ("26107-26109", "round 22's rules (ebe7284)"),
    24: ("27107-27109", "round 23's rules and the probes (b90ccf9)"),
    25: ("28107-28109", "round 24's rules (59bd8d5)"),
    26: ("29107-29109", "round 25's rules and the second probes (bdd70cf)"),
}


def round_folder(n: int) -> Path:
    """tests/corpora/heldout (round 1), heldout2, heldout3, ..."""
    return ROOT / "tests" / "corpora" / ("heldout" if n == 1 else f"heldout{n}")


Row = dict[str, Any]


def _script(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


CM = _script("cross_model_agreement")
NONE = CM.NONE
#: Corpus line -> the benchmark (and protocol) whose prompt produced it.
BENCHMARK_OF = {
    "bbq_mcq": lambda row: f"bbq ({row['protocol']})",
    "multiple_choice": lambda row: row["source"].split()[1],  # stop_downstream / stereoset
    "stop_yesno": lambda row: "stop",
    "bbnli_nli": lambda row: "bbnli",
    "calm_nli": lambda row: "calm",
    "calm_sentiment": lambda row: "calm",
    "calm_qa": lambda row: "calm",
    "beads_label": lambda row: "beads (classify)",
    "beads_agreement": lambda row: "beads (stereotype)",
}


@dataclass
class Count:
    n: int = 0
    agree: int = 0
    wrong: int = 0
    over_read: int = 0
    missed: int = 0
    misread: list[tuple[Row, str, str]] = field(default_factory=list)

    def add(self, row: Row, want: str, got: str) -> None:
        self.n += 1
        if want == got:
            self.agree += 1
            return
        self.misread.append((row, want, got))
        if want == NONE:
            self.over_read += 1
        elif got == NONE:
            self.missed += 1
        else:
            self.wrong += 1

    def cells(self) -> str:
        rate = f"{100 * self.agree / self.n:.1f} % ({self.agree}/{self.n})" if self.n else "-"
        return f"{self.n} | {rate} | {self.wrong} | {self.over_read} | {self.missed}"


def readings(folder: Path = FRESH) -> list[tuple[str, Row, str, str]]:
    """(corpus, row, label, reading) of every line, labels and readings as classes."""
    out = []
    for name in CM.corpora(folder):
        for row in CM.load(name, folder):
            want, got = CM.READERS[name](row)
            out.append((name, row, want, got))
    return out


def counts(folder: Path = FRESH) -> dict[tuple[str, str], Count]:
    """Counts per (benchmark, model), with ("all", model), (benchmark, "all") and
    ("all", "all")."""
    table: dict[tuple[str, str], Count] = defaultdict(Count)
    for name, row, want, got in readings(folder):
        bench = BENCHMARK_OF[name](row)
        for key in ((bench, row["model"]), (bench, "all"), ("all", row["model"]), ("all", "all")):
            table[key].add(row, want, got)
    return dict(table)


def markdown(folder: Path = FRESH) -> str:
    table = counts(folder)
    out = ["| benchmark | model | n | agreement | wrong | over-read | missed |"]
    out.append("|---|---|---|---|---|---|---|")
    for bench, model in sorted(table, key=lambda k: (k[0] == "all", k[0], k[1] == "all", k[1])):
        out.append(f"| {bench} | {model} | {table[bench, model].cells()} |")
    out += ["", "Disagreements (reply, model, label, reading):", ""]
    for row, want, got in table["all", "all"].misread:
        reply = row["reply"].replace("\n", "\\n").replace("|", "/")
        out.append(f"- `{reply[:160]}` ({row['model']}): label {want}, read {got}")
    return "\n".join(out)


def folder_of(args: list[str]) -> Path:
    """The corpus folder the command line names: ``--heldout N`` (``--heldout`` alone: round
    1), else the fresh corpora."""
    if not args:
        return FRESH
    if args[0] != "--heldout" or len(args) > 2 or (len(args) == 2 and not args[1].isdigit()):
        raise SystemExit("usage: fresh_agreement.py [--heldout N]")
    n = int(args[1]) if len(args) == 2 else 1
    if n not in ROUNDS:
        raise SystemExit(f"fresh_agreement.py: no held-out round {n} (rounds: {sorted(ROUNDS)})")
    return round_folder(n)


if __name__ == "__main__":
    sys.stdout.write(markdown(folder_of(sys.argv[1:])) + "\n")
