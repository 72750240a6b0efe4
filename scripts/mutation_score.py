"""Mutation score per module from mutmut's results (mutants/**/*.meta), for docs/testing.md.

    python scripts/mutation_score.py [--survivors] [--root DIR]

Score = killed / (killed + survived), where killed includes timeouts and mutants caught by
the type check; mutants not checked yet (an interrupted run) and "no tests" are shown apart.
Survivors listed in scripts/mutation_equivalents.txt (one mutant name and its reason per
line) were read and found equivalent (no test can tell them from the original); they are
counted in the "equivalent" column and left out of the second score, killed / (killed +
survived - equivalent). `--root` reads another mutmut run's `mutants/` folder.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

KILLED = {1, 3, 36, 37, -24, 24, 152, 255}  # failed test, pytest error, timeout, type check
SURVIVED = {0}
NO_TESTS = {5, 33}
EQUIVALENTS = Path(__file__).with_name("mutation_equivalents.txt")


def equivalents(path: Path = EQUIVALENTS) -> dict[str, str]:
    """Mutant name -> why it is equivalent, from the list (blank lines and # comments skipped)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            out[name] = reason.strip()
    return out


def scores(root: Path) -> dict[str, tuple[Counter[str], list[str]]]:
    out: dict[str, tuple[Counter[str], list[str]]] = {}
    for meta in sorted(root.glob("src/**/*.py.meta")):
        module = str(meta.relative_to(root / "src"))[: -len(".py.meta")].replace("/", ".")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if not codes:
            continue
        counts: Counter[str] = Counter()
        survivors = []
        for name, code in codes.items():
            if code is None:
                counts["not checked"] += 1
            elif code in KILLED:
                counts["killed"] += 1
            elif code in SURVIVED:
                counts["survived"] += 1
                survivors.append(name)
            elif code in NO_TESTS:
                counts["no tests"] += 1
            else:
                counts["other"] += 1
        out[module] = (counts, survivors)
    return out


def _percent(part: int, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "-"


def table(root: Path, known: dict[str, str]) -> list[str]:
    lines = [
        "| module | mutants | killed | survived | equivalent | no tests | not checked | score |"
        " score without equivalents |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for module, (c, survivors) in scores(root).items():
        equivalent = sum(1 for name in survivors if name in known)
        decided = c["killed"] + c["survived"]
        lines.append(
            f"| {module} | {sum(c.values())} | {c['killed']} | {c['survived']} | {equivalent} | "
            f"{c['no tests']} | {c['not checked']} | {_percent(c['killed'], decided)} | "
            f"{_percent(c['killed'], decided - equivalent)} |"
        )
    return lines


def main(argv: list[str]) -> None:
    root = Path(argv[argv.index("--root") + 1]) if "--root" in argv else Path("mutants")
    known = equivalents()
    print("\n".join(table(root, known)))
    if "--survivors" in argv:
        for module, (_, survivors) in scores(root).items():
            for name in survivors:
                note = f"  (equivalent: {known[name]})" if name in known else ""
                print(f"{module}: {name}{note}")


if __name__ == "__main__":
    main(sys.argv[1:])
