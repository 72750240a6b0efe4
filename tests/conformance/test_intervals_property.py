"""Property: every metric of every benchmark reports an interval that contains its estimate.

Hypothesis picks a subset of each benchmark's real samples and a salt for the fake backend's
outputs; the benchmark's own requests, scoring and `aggregate` produce the metrics. For every
metric, group and contrast where value, ci_low and ci_high all exist: ci_low <= value <=
ci_high, and the interval is not zero-width at n >= 1 unless the per-sample scores are all
equal (no interval the toolkit reports is zero-width over varying data; metrics/intervals.py).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from biasaudit import plugin
from biasaudit.benchmarks import Benchmark, Sample
from biasaudit.data import DataStore
from biasaudit.requests import Capability
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord
from biasaudit.runner.runner import score_record
from biasaudit.testing.fake_backend import FakeBackend

#: Every benchmark with its default options, plus the options that change its metric set.
#: (BEADs' default classifier mode maps no fake label: every record would be excluded.)
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in plugin.names() if name != "beads"),
    ("beads", {"mode": "generate"}),
    ("stereoset", {"scorer": "generate"}),
    ("crows_pairs", {"scorer": "loglikelihood"}),
    *(("beads", {"task": task}) for task in ("spans", "variation", "stereotype", "fill")),
]
POOL = 120
STORE: dict[str, DataStore] = {}


@functools.cache
def _pool(name: str, options: str) -> tuple[Sample, ...]:
    """Up to POOL samples spread over the benchmark's whole sample list."""
    samples = _bench(name, options).load_samples()
    step = max(1, len(samples) // POOL)
    return tuple(samples[::step][:POOL])


def _bench(name: str, options: str, seed: int = 0) -> Benchmark:
    return plugin.benchmark_class(name).from_dict(eval(options), STORE["store"], seed)


def _drive(bench: Benchmark, sample: Sample, backend: FakeBackend) -> list[Exchange]:
    exchanges: list[Exchange] = []
    for _ in range(50):
        requests = bench.next_requests(sample, exchanges)
        if not requests:
            break
        for request in requests:
            (response,) = backend.dispatch(Capability(request.kind), [request])
            exchanges.append(Exchange(request=request, response=response))
    return exchanges


def _intervals(
    metric: MetricValue,
) -> Iterator[tuple[str, float | None, float | None, float | None]]:
    yield metric.name, metric.value, metric.ci_low, metric.ci_high
    for breakdown in metric.breakdowns:
        for g in breakdown.groups:
            yield f"{metric.name}[{breakdown.by}={g.group}]", g.value, g.ci_low, g.ci_high
    for c in metric.contrasts:
        yield f"{metric.name}<{c.name}>", c.value, c.ci_low, c.ci_high


def _constant(records: list[SampleRecord], metric: MetricValue) -> bool:
    """Whether the metric's per-sample scores are all equal (unknown statistics: False)."""
    if metric.score_key is None:
        return False
    values = {r.scores.get(metric.score_key) for r in records} - {None}
    return len(values) <= 1


@pytest.mark.parametrize(("name", "options"), [(n, repr(o)) for n, o in CONFIGS])
def test_every_interval_contains_its_estimate(name: str, options: str, store: DataStore) -> None:
    STORE["store"] = store
    pool = _pool(name, options)
    checked: list[str] = []

    @settings(
        max_examples=4,
        deadline=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],  # shrinking re-runs whole benchmarks
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        picks=st.lists(st.integers(0, len(pool) - 1), min_size=1, max_size=40, unique=True),
        salt=st.text(min_size=0, max_size=4),
        seed=st.integers(0, 2**16),
    )
    def check(picks: list[int], salt: str, seed: int) -> None:
        bench = _bench(name, options, seed)
        backend = FakeBackend(salt=salt)
        bench.bind_backend(backend.capabilities)
        records = [
            score_record(bench, pool[i], _drive(bench, pool[i], backend)) for i in sorted(picks)
        ]
        for metric in bench.aggregate(records, seed=seed).metrics:
            for where, value, low, high in _intervals(metric):
                if value is None or low is None or high is None:
                    continue
                checked.append(where)
                assert low - 1e-9 <= value <= high + 1e-9, (name, options, where, low, value, high)
                if high - low <= 1e-12 and not _constant(records, metric):
                    pytest.fail(f"{name} {options} {where}: zero-width CI [{low}, {high}]")

    check()
    assert checked, f"{name} {options}: no metric reported an interval"
