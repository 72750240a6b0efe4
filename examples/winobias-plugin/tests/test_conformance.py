"""The example package passes biasaudit's conformance kit (run by `make example-plugin`)."""

from __future__ import annotations

from biasaudit import plugin
from biasaudit.testing import BoundCheck, benchmark_checks


def test_it_is_discovered_through_its_entry_point() -> None:
    assert plugin.get_spec("winobias_example").benchmark == "winobias_example.task:WinoBiasExample"
    assert not [p for p in plugin.discovery_problems() if p.name == "winobias_example"]


@benchmark_checks(["winobias_example"])
def test_conformance(benchmark: str, check: BoundCheck) -> None:
    check(benchmark)
