"""Checks of a reimplementation against the authors' released numbers.

A benchmark's ``reproduce(store)`` function recomputes published values from released artifacts
and returns a `Reproduction`: named checks (expected, actual, tolerance) plus tables. The CLI
prints it (``biasaudit reproduce NAME [--json]``) and exits non-zero when a check fails.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from biasaudit.data import DataStore
from biasaudit.registry import Registry
from biasaudit.results.schema import Table


@dataclass
class Check:
    name: str
    expected: float | int | str
    actual: float | int | str | None
    tolerance: float = 0.0

    @property
    def passed(self) -> bool:
        if self.actual is None:
            return False
        if isinstance(self.expected, str) or isinstance(self.actual, str):
            return self.expected == self.actual
        return abs(float(self.actual) - float(self.expected)) <= self.tolerance


@dataclass
class Reproduction:
    benchmark: str
    source: str
    checks: list[Check] = field(default_factory=list)
    tables: dict[str, Table] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.passed for check in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark,
            "source": self.source,
            "ok": self.ok,
            "checks": [asdict(c) | {"passed": c.passed} for c in self.checks],
            "tables": {name: t.model_dump() for name, t in self.tables.items()},
            "notes": self.notes,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False)

    def render(self) -> str:
        from biasaudit.textfmt import format_table

        lines = [f"{self.benchmark}: reproduction from {self.source}", ""]
        for name, table in self.tables.items():
            lines.append(f"{name}: {table.description}" if table.description else name)
            lines.append(format_table(table.columns, table.rows))
            lines.append("")
        rows = [
            [c.name, c.expected, c.actual, c.tolerance, "ok" if c.passed else "FAIL"]
            for c in self.checks
        ]
        lines.append(format_table(["check", "expected", "actual", "tolerance", ""], rows))
        lines.extend(f"note: {n}" for n in self.notes)
        passed = sum(c.passed for c in self.checks)
        lines.append(f"{passed}/{len(self.checks)} checks passed")
        return "\n".join(lines)


Reproducer = Callable[[DataStore], Reproduction]

#: benchmark name -> "module:function" taking a DataStore and returning a Reproduction.
REPRODUCERS: Registry[Reproducer] = Registry("reproduction")
REPRODUCERS.register(
    "stop", "biasaudit.benchmarks.stop.reproduce:reproduce", "STOP per-model table (§6.2)"
)
REPRODUCERS.register(
    "cobias", "biasaudit.benchmarks.cobias.reproduce:reproduce", "COBIAS scores and validation"
)
REPRODUCERS.register(
    "calm", "biasaudit.benchmarks.calm.reproduce:reproduce", "CALM prompt counts per split"
)
