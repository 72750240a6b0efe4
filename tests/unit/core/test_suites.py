"""Every benchmark's suite declarations, drawn over the real data (BIASAUDIT_DATA_DIR):
each suite's sample holds every level of every key the benchmark stratifies or covers by,
counted naively over the full set and over the drawn samples."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from biasaudit.api import build_benchmarks
from biasaudit.audit.plans import plan_suite
from biasaudit.data import DataStore
from biasaudit.plugin import discover
from biasaudit.sampling import plan_samples
from biasaudit.suites import SuiteDecl, SuiteEntry

DECLARED = sorted(name for name, spec in discover().items() if spec.suites is not None)
SIZED = ("demo", "quick", "standard")


def test_every_shipped_benchmark_declares_suites() -> None:
    # in-tree benchmarks only: an installed plug-in (examples/winobias-plugin) may declare none
    shipped = {n: s for n, s in discover().items() if s.benchmark.startswith("biasaudit.")}
    missing = [name for name, spec in shipped.items() if spec.suites is None]
    assert missing == []
    for name in DECLARED:
        decl = discover()[name].suites
        assert decl is not None
        for suite in SIZED:
            entry = decl.entry(suite)
            assert entry is not None and entry.size is not None, (name, suite)


def _suites(name: str) -> Iterator[tuple[str, SuiteEntry]]:
    decl = discover()[name].suites
    assert decl is not None
    for suite in SIZED:
        entry = decl.entry(suite)
        assert entry is not None
        yield suite, entry


@pytest.mark.parametrize("name", [n for n in DECLARED if n != "beads"])
def test_suites_cover_every_level_of_the_real_data(name: str, store: DataStore) -> None:
    decl = discover()[name].suites
    assert decl is not None
    populations: dict[str, list] = {}  # one read per distinct option set
    for suite, entry in _suites(name):
        strata, cover = decl.keys(suite)
        keys = [*strata, *cover]
        bench = build_benchmarks([name], {name: dict(entry.options)}, store, 0)[0]
        signature = repr(sorted(entry.options.items()))
        samples = populations.setdefault(signature, list(bench.iter_samples()))
        chosen = plan_samples(
            samples,
            entry.size or 0,
            strata=strata,
            unit=decl.unit,
            seed=0,
            min_per_stratum=decl.min_per_stratum,
            suite=suite,
            cover=cover,
        )
        drawn = [s for s in samples if s.id in chosen.ids]
        assert len(drawn) == chosen.plan.n_samples > 0
        for key in keys:
            everywhere = {str(s.groups.get(key, "")) for s in samples}
            assert {str(s.groups.get(key, "")) for s in drawn} == everywhere, (suite, key)
        if strata:
            cells = {tuple(str(s.groups.get(k, "")) for k in strata) for s in samples}
            assert chosen.plan.n_strata == len(cells)
            assert {tuple(str(s.groups.get(k, "")) for k in strata) for s in drawn} == cells


def test_beads_is_skipped_without_its_gated_data(data_dir: object) -> None:
    plans = plan_suite(["beads"], "quick", {}, seed=0, data_dir=str(data_dir))
    assert plans[0].skip_reason is not None and "gated" in plans[0].skip_reason
    explicit_demo = plan_suite(
        ["beads"], "quick", {"beads": {"data": "demo"}}, seed=0, data_dir=None
    )
    assert explicit_demo[0].skip_reason is not None  # the stand-in set is never an audit result


def test_sizes_must_grow() -> None:
    with pytest.raises(ValueError, match="grow"):
        SuiteDecl(strata=(), demo=SuiteEntry(size=10), quick=SuiteEntry(size=5))
