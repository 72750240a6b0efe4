"""Import cost of biasaudit's entry points, each in a fresh interpreter (issue 30).

For each statement: the median wall time over N runs (`python -X importtime` is not used, so
the number is what a user waits), the modules loaded (biasaudit's and all), and whether the
heavy stacks (scipy, pandas, torch) came with it. The baseline is the bare interpreter
(`pass`) measured the same way in the same process; the ratio is statement / baseline.

    python bench/import_time.py [--runs 7] [--src PATH]   # PATH: another checkout's src
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

STATEMENTS = (
    "pass",
    "import biasaudit.errors",
    "import biasaudit.benchmarks",
    "import biasaudit",
    "import biasaudit.api",
)
PROBE = (
    "import sys\n{statement}\nimport json\n"
    "m = sorted(sys.modules)\n"
    "print(json.dumps([len(m), sum(x.startswith('biasaudit') for x in m), "
    "[h for h in ('scipy', 'pandas', 'torch') if h in sys.modules]]))"
)


def measure(statement: str, runs: int, env: dict[str, str]) -> tuple[float, list[object]]:
    times = []
    info: list[object] = []
    for _ in range(runs):
        started = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", PROBE.format(statement=statement)],
            capture_output=True, text=True, check=True, env=env,
        )  # fmt: skip
        times.append(time.perf_counter() - started)
        info = json.loads(out.stdout)
    return statistics.median(times), info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--src", help="the src folder of another checkout (a baseline)")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.src:
        env["PYTHONPATH"] = args.src
    base, _ = measure("pass", args.runs, env)
    print(f"{'statement':30} {'median s':>9} {'x pass':>7} {'modules':>8} {'biasaudit':>9}  heavy")
    for statement in STATEMENTS:
        seconds, (modules, ours, heavy) = measure(statement, args.runs, env)  # type: ignore[misc]
        print(
            f"{statement:30} {seconds:9.3f} {seconds / base:7.1f} {modules:8} {ours:9}  "
            f"{','.join(heavy) or '-'}"  # type: ignore[arg-type]
        )


if __name__ == "__main__":
    main()
