"""A mutmut run on a few modules with the tests that exercise them (docs/testing.md).

    python scripts/mutation_subset.py NAME --mutate GLOB [GLOB ...] --tests PATH [PATH ...]
        [--deselect NODE_ID ...] [--run] [--jobs N]

`make mutation` mutates every module under `[tool.mutmut] only_mutate` and first runs all of
`tests/unit` once to map tests to functions; on a busy machine that is hours. This copies the
checkout's src/, tests/, scripts/, docs/, bench/, pyproject.toml and Makefile to
build/mutation/NAME (a plain directory, so it works the same from a clone or a git worktree;
build/ is ignored), narrows `only_mutate` to GLOB and `pytest_add_cli_args_test_selection`
to PATH there (minus the --deselect tests: a minute-long test re-run for every surviving
mutant costs hours), and with --run runs `nice -n 10 mutmut run --max-children N` in it and prints
scripts/mutation_score.py's table. A second call with the same NAME re-copies the tree
(mutmut keeps the results of unchanged functions and re-runs the mutants of changed ones;
new tests are mapped incrementally); --rerun-survivors makes it check the survivors again
against new tests. A narrowed test selection can only kill fewer mutants
than the whole of tests/unit, so its score is a lower bound of `make mutation`'s.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COPIED_DIRS = ("src", "tests", "scripts", "docs", "bench")
COPIED_FILES = ("pyproject.toml", "Makefile")


def narrowed(
    pyproject: str, mutate: list[str], tests: list[str], deselect: list[str] | None = None
) -> str:
    """pyproject.toml text with [tool.mutmut] only_mutate and the test selection replaced
    (and `--deselect` node ids added to pytest's arguments)."""
    only = "only_mutate = [\n" + "".join(f'  "{g}",\n' for g in mutate) + "]\n"
    text, n_only = re.subn(r"only_mutate = \[.*?\n\]\n", only, pyproject, count=1, flags=re.S)
    selection = "pytest_add_cli_args_test_selection = [" + ", ".join(f'"{t}"' for t in tests) + "]"
    text, n_sel = re.subn(r"pytest_add_cli_args_test_selection = \[.*?\]", selection, text, count=1)
    if n_only != 1 or n_sel != 1:
        raise SystemExit("pyproject.toml: [tool.mutmut] only_mutate / test selection not found")
    extra = "".join(f', "--deselect", "{node}"' for node in deselect or [])
    pattern = r"(pytest_add_cli_args = \[.*?)\]"
    return re.sub(pattern, lambda m: m.group(1) + extra + "]", text, count=1)


def prepare(name: str, mutate: list[str], tests: list[str], deselect: list[str]) -> Path:
    target = ROOT / "build" / "mutation" / name
    target.mkdir(parents=True, exist_ok=True)
    for folder in COPIED_DIRS:
        shutil.rmtree(target / folder, ignore_errors=True)
        # copy2 keeps modification times: mutmut re-mutates only files that changed
        shutil.copytree(
            ROOT / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    for file in COPIED_FILES:
        shutil.copy2(ROOT / file, target / file)
    pyproject = target / "pyproject.toml"
    pyproject.write_text(narrowed(pyproject.read_text(), mutate, tests, deselect))
    return target


def forget_survivors(mutants: Path) -> int:
    """Reset the recorded result of every surviving mutant (exit code 0) and of every mutant
    no test reached (33, 5) to "not checked"."""
    count = 0
    for meta in mutants.glob("src/**/*.py.meta"):
        data = json.loads(meta.read_text())
        codes = data["exit_code_by_key"]
        survived = [name for name, code in codes.items() if code in (0, 5, 33)]
        for name in survived:
            codes[name] = None
        count += len(survived)
        meta.write_text(json.dumps(data))
    return count


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("name")
    parser.add_argument("--mutate", nargs="+", required=True, metavar="GLOB")
    parser.add_argument("--tests", nargs="+", required=True, metavar="PATH")
    parser.add_argument("--deselect", nargs="*", default=[], metavar="NODE_ID")
    parser.add_argument("--run", action="store_true")
    parser.add_argument(
        "--rerun-survivors",
        action="store_true",
        help="forget the survivors' (and untested mutants') results, to check them again",
    )
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    for path in args.tests:
        if not (ROOT / path).exists():
            parser.error(f"--tests: {path} does not exist")
    target = prepare(args.name, args.mutate, args.tests, args.deselect)
    print(target)
    if args.rerun_survivors:
        print(f"{forget_survivors(target / 'mutants')} survivors to check again")
    if not args.run:
        return 0
    mutmut = Path(sys.executable).with_name("mutmut")
    # a fixed hash seed: set iteration order (and so any test drawing random numbers in it)
    # is the same in every mutant's run
    env = {**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    env.pop("PYTHONPATH", None)  # mutmut puts mutants/src first; nothing else from a checkout
    command = ["nice", "-n", "10", str(mutmut), "run", "--max-children", str(args.jobs)]
    subprocess.run(command, cwd=target, env=env, check=False)
    score = [sys.executable, str(ROOT / "scripts" / "mutation_score.py"), "--survivors"]
    return subprocess.run([*score, "--root", "mutants"], cwd=target, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
