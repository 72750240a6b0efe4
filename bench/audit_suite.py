"""Time `biasaudit audit -m embedded --suite SUITE` end to end, with the load average.

One process, a fresh response cache (every request is a miss), model loading included. It
prints, per benchmark, the samples drawn, the requests sent, the wall time and the seconds
per request, then the whole suite's wall time and the 1-minute load average before and
after (on a shared machine the wall time is only meaningful next to it).
``--count`` only counts each suite's requests per benchmark, without a model.

Usage: python bench/audit_suite.py [--suite quick] [--threads 1] [--benchmarks a,b] [--count]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from biasaudit.audit.plans import plan_suite
from biasaudit.audit.run import audit, suite_requests
from biasaudit.plugin import names
from biasaudit.runner import engine
from biasaudit.suites import SUITES


def count(suites: list[str], benchmarks: list[str]) -> None:
    """Requests of each benchmark in each suite (generation requests: one per turn)."""
    print("benchmark".ljust(16) + "".join(s.rjust(10) for s in suites))
    for name in benchmarks:
        cells = []
        for suite in suites:
            [plan] = plan_suite([name], suite, {}, seed=0, data_dir=None)
            if plan.skip_reason is not None:
                cells.append("skipped")
                continue
            total = suite_requests([plan], 0)
            cells.append("?" if total is None else str(total))
        print(name.ljust(16) + "".join(c.rjust(10) for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", choices=SUITES, default="quick")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--model", default="embedded")
    parser.add_argument("--benchmarks", default="")
    parser.add_argument("--count", action="store_true", help="count requests only")
    args = parser.parse_args()
    chosen = [b for b in args.benchmarks.split(",") if b] or names()
    if args.count:
        count(["demo", "quick", "standard"], chosen)
        return
    load_before = os.getloadavg()
    cpu: dict[str, float] = {}
    original = engine.run_benchmark

    def timed(bench: Any, *rest: Any, **kwargs: Any) -> Any:
        """CPU seconds of each benchmark (this process, all threads): on a loaded machine
        what an idle core would need, where wall time is inflated by other jobs."""
        start = time.process_time()
        try:
            return original(bench, *rest, **kwargs)
        finally:
            cpu[bench.name] = time.process_time() - start

    engine.run_benchmark = timed
    cpu_started = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["BIASAUDIT_CACHE_DIR"] = tmp  # every request a miss
        started = time.perf_counter()
        [item] = audit(
            [args.model],
            args.suite,
            Path(tmp) / "audit",
            benchmarks=chosen,
            model_args={"n_threads": args.threads},
            progress=False,
        )
        wall = time.perf_counter() - started
    cpu_total = time.process_time() - cpu_started
    load_after = os.getloadavg()
    results = {b.benchmark: b for b in item.run.benchmarks} if item.run else {}
    print(
        f"{'benchmark':16}{'status':>10}{'samples':>9}{'requests':>10}{'wall_s':>9}"
        f"{'cpu_s':>8}{'cpu_s/req':>10}"
    )
    for row in item.info.benchmarks:
        result = results.get(row.name)
        sent = result.requests_sent if result else 0
        used = cpu.get(row.name, 0.0)
        per = f"{used / sent:.3f}" if sent else "-"
        print(
            f"{row.name:16}{row.status:>10}{row.n_samples:>9}{sent:>10}"
            f"{row.wall_time_s:>9.1f}{used:>8.1f}{per:>10}"
        )
    print(
        f"\n{args.suite} suite on {args.model} (n_threads={args.threads}): {wall:.0f} s wall, "
        f"{cpu_total:.0f} s CPU, model load and planning included; load average (1 min) "
        f"{load_before[0]:.1f} before, {load_after[0]:.1f} after, on {os.cpu_count()} CPUs"
    )


if __name__ == "__main__":
    main()
