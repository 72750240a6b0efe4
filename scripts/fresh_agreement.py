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
    PYTHONPATH=src python scripts/fresh_agreement.py --heldout   # tests/corpora/heldout
    PYTHONPATH=src python scripts/fresh_agreement.py --heldout2  # tests/corpora/heldout2
    PYTHONPATH=src python scripts/fresh_agreement.py --heldout3  # tests/corpora/heldout3
    PYTHONPATH=src python scripts/fresh_agreement.py --heldout4  # tests/corpora/heldout4
    PYTHONPATH=src python scripts/fresh_agreement.py --heldout5  # tests/corpora/heldout5
    PYTHONPATH=src python scripts/fresh_agreement.py --heldout6  # tests/corpora/heldout6
    PYTHONPATH=src python scripts/fresh_agreement.py --heldout7  # tests/corpora/heldout7
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
#: Replies labelled before any reader ran on them and read once before any rule was written
#: on them (2026-11-29): the measurement nobody tuned for.
HELDOUT = ROOT / "tests" / "corpora" / "heldout"
#: The second held-out round (2026-11-29, seeds 5107-5109), labelled and committed before the
#: reader (with every rule written on the first held-out round) read it.
HELDOUT2 = ROOT / "tests" / "corpora" / "heldout2"
#: The third held-out round (2026-11-29, seeds 6107-6109), labelled blind by two labellers and
#: committed before the reader (with the rules written on the second round) read it.
HELDOUT3 = ROOT / "tests" / "corpora" / "heldout3"
#: The fourth (2026-11-29, seeds 7107-7109), the same way, read by the reader with the rules
#: written on the third.
HELDOUT4 = ROOT / "tests" / "corpora" / "heldout4"
#: The fifth (2026-11-29, seeds 8107-8109), read by the reader with the fourth's rules.
HELDOUT5 = ROOT / "tests" / "corpora" / "heldout5"
#: The sixth (2026-11-29, seeds 9107-9109), read by the reader with the fifth's rules.
HELDOUT6 = ROOT / "tests" / "corpora" / "heldout6"
#: The seventh (2026-11-29, seeds 10107-10109), read by the reader with the sixth's rules and
#: the BBNLI hypothesis check.
HELDOUT7 = ROOT / "tests" / "corpora" / "heldout7"
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


if __name__ == "__main__":
    folders = {
        "--heldout": HELDOUT,
        "--heldout2": HELDOUT2,
        "--heldout3": HELDOUT3,
        "--heldout4": HELDOUT4,
        "--heldout5": HELDOUT5,
        "--heldout6": HELDOUT6,
        "--heldout7": HELDOUT7,
    }
    sys.stdout.write(markdown(folders.get(" ".join(sys.argv[1:]), FRESH)) + "\n")
