"""The default number of compute threads for in-process backends (llama.cpp, torch).

llama.cpp's worker threads spin while they wait for each other, so on a machine whose cores
are already busy a second thread makes every step wait for a descheduled worker: measured
5-10x slower than one thread on a loaded 2-core machine (bench/RESULTS.md). The default is
therefore the number of cores this process may use minus the cores other work keeps busy, at
least 1: all cores on an idle machine, one on a busy one. An explicit ``-M n_threads=N``
(llama.cpp) or ``-M threads=N`` (hf) overrides it. Thread counts do not change results (each
output element is computed by one thread either way).

"Busy" is measured **now**: the share of non-idle time in ``/proc/stat`` over a quarter of a
second while this process sleeps (`busy_cores`). The 1-minute load average, used where
``/proc/stat`` is unreadable, lags by a minute: right after an install or an earlier audit it
still counts a busy core on an idle machine, and on 2 cores any load above 0.5 gave one
thread (`make demo` after another job: 5 min 3 s with one thread, 3 min 20 s with two).
"""

from __future__ import annotations

import math
import os


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def idle_share(before: str, after: str) -> float:
    """Idle share of the CPU time between two readings of /proc/stat's first ("cpu") line:
    (idle + iowait) / all, over the difference (proc(5): user nice system idle iowait irq
    softirq steal; guest time is already in user)."""

    def fields(line: str) -> list[int]:
        parts = line.split()
        if not parts or parts[0] != "cpu" or len(parts) < 5:
            raise ValueError(f"not a /proc/stat cpu line: {line!r}")
        return [int(x) for x in parts[1:9]]

    start, end = fields(before), fields(after)
    spent = [b - a for a, b in zip(start, end, strict=False)]
    total = sum(spent)
    idle = spent[3] + (spent[4] if len(spent) > 4 else 0)
    return 1.0 if total <= 0 else idle / total


def busy_cores(window: float = 0.25) -> float | None:
    """Cores kept busy by other processes now (this one sleeps while it measures): the
    machine's cores times the non-idle share of /proc/stat over `window` seconds; None
    where /proc/stat cannot be read."""
    import time

    def cpu_line() -> str:
        with open("/proc/stat", encoding="ascii") as handle:
            return handle.readline()

    try:
        before = cpu_line()
        time.sleep(window)
        share = idle_share(before, cpu_line())
    except (OSError, ValueError):
        return None
    return (os.cpu_count() or 1) * (1.0 - share)


def auto_threads(cpus: int | None = None, load: float | None = None) -> int:
    """Cores not already busy: `cpus` minus the busy cores (`busy_cores`, else the 1-minute
    load average), rounded, >= 1."""
    cpus = usable_cpus() if cpus is None else cpus
    if load is None:
        load = busy_cores()
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:
            load = 0.0
    return max(1, min(cpus, math.floor(cpus - load + 0.5)))
