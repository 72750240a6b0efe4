"""Permutation noise floors find a planted gap in every benchmark's floor-bearing metric.

Synthetic sample records carry each benchmark's real group, cluster, stratum and
permute-within keys; a gap is planted in one breakdown at a time under three designs
(the label varies within blocks and clusters; constant within each `permute_within` block;
constant within each cluster), and the floor's p-value must be < 0.05. With no gap the
p-values must behave like a null's. The oracle is a naive permutation loop written here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from biasaudit import plugin
from biasaudit.benchmarks.beads.benchmark import BIAS_RATE
from biasaudit.data import DataStore
from biasaudit.metrics.frame import MetricSpec, frame
from biasaudit.results.schema import Breakdown, SampleRecord

SRC = Path(__file__).resolve().parents[3] / "src" / "biasaudit" / "benchmarks"
#: (benchmark, options) whose metric_specs() hold every floor-bearing MetricSpec.
CONFIGS = [
    ("stop", {}),
    ("bbnli", {}),
    ("bbq", {}),
    ("stereoset", {}),
    ("crows_pairs", {"scorer": "loglikelihood"}),
    ("beads", {"task": "variation"}),
    ("beads", {"task": "stereotype"}),
    ("winobias", {}),
]
BLOCKS, PER_BLOCK = 12, 10


def _floor_specs(store: DataStore) -> Iterator[tuple[str, MetricSpec]]:
    for name, options in CONFIGS:
        bench = plugin.benchmark_class(name).from_dict(options, store, 0)
        for spec in bench.metric_specs():
            if spec.noise_floor:
                yield f"{name}:{options.get('task', '')}:{spec.name}", spec
    yield "beads:fill:bias_rate", BIAS_RATE


def test_every_floor_declaration_is_covered(store: DataStore) -> None:
    """Each benchmark that declares a floor (in its source, or in the specs its default
    options give, e.g. a declarative task) appears in CONFIGS (BEADs' fill: BIAS_RATE)."""
    declaring = {
        path.relative_to(SRC).parts[0]
        for path in SRC.rglob("*.py")
        if re.search(r"noise_floor=True", path.read_text())
    }
    for name in plugin.names():
        if not plugin.get_spec(name).benchmark.startswith("biasaudit."):
            continue  # an installed plug-in (examples/winobias-plugin) is not this project's
        bench = plugin.benchmark_class(name).from_dict({}, store, 0)
        if any(spec.noise_floor for spec in bench.metric_specs()):
            declaring.add(name)
    assert declaring <= {name for name, _ in CONFIGS}


def _records(
    spec: MetricSpec, by: str, design: str, gap: float, rng: np.random.Generator
) -> list[SampleRecord]:
    """BLOCKS x PER_BLOCK records; group g of `by` scores 1 with p = 0.5 -/+ gap / 2."""
    parts = by.split("+")
    records = []
    for block in range(BLOCKS):
        for i in range(PER_BLOCK):
            g = block % 2 if design == "nested_block" else i % 2
            groups = dict(spec.where)
            for key in (spec.stratify_by, spec.permute_within):
                if key and key not in groups:
                    groups[key] = f"b{block}"
            if spec.cluster_by and spec.cluster_by != spec.permute_within:
                pair = f"{i % 2}-{i // 4}" if design == "nested_cluster" else str(i // 2)
                groups[spec.cluster_by] = f"c{block}-{pair}"
            for key in spec.group_by:
                for part in key.split("+"):
                    groups.setdefault(part, "x")
            for part in parts:
                groups[part] = f"{part}{g}"
            p = 0.5 + (gap / 2 if g else -gap / 2)
            records.append(
                SampleRecord(
                    benchmark="synthetic",
                    sample_id=f"{block}-{i}",
                    sample_hash=f"{block}-{i}",
                    groups=groups,
                    scores={spec.score: float(rng.random() < p)},
                    outcomes=["answered"],
                )
            )
    return records


def _designs(spec: MetricSpec) -> list[str]:
    designs = ["crossed"]
    if spec.permute_within:
        designs.append("nested_block")
    if spec.cluster_by and spec.cluster_by != spec.permute_within:
        designs.append("nested_cluster")
    return designs


def _cases(store: DataStore) -> Iterator[tuple[str, MetricSpec, str, str]]:
    for name, spec in _floor_specs(store):
        for by in spec.group_by:
            if any(part in spec.where for part in by.split("+")):
                continue
            for design in _designs(spec):
                yield name, spec, by, design


def _breakdown(records: list[SampleRecord], spec: MetricSpec, by: str) -> Breakdown:
    return next(b for b in frame(records, spec, seed=3).breakdowns if b.by == by)


def test_planted_gap_is_found(store: DataStore) -> None:
    rng = np.random.default_rng(0)
    checked = 0
    for name, spec, by, design in _cases(store):
        records = _records(spec, by, design, gap=0.8, rng=rng)
        breakdown = _breakdown(records, spec, by)
        where = f"{name} by {by} ({design})"
        if by == spec.permute_within:
            # A breakdown by the block key itself: no shuffle can separate group and block.
            assert breakdown.noise_floor is None, where
            assert breakdown.noise_floor_reason, where
            continue
        floor = breakdown.noise_floor
        assert floor is not None, f"{where}: {breakdown.noise_floor_reason}"
        assert floor.p_value is not None and floor.p_value < 0.05, where
        if design == "nested_block":
            assert floor.permuted_unit == spec.permute_within, where
        elif design == "nested_cluster":
            assert floor.permuted_unit == spec.cluster_by, where
            assert floor.permuted_within == spec.permute_within, where
        else:
            assert floor.permuted_unit is None, where
        checked += 1
    assert checked >= 40


def test_null_p_values_are_not_tiny(store: DataStore) -> None:
    """No gap: over 20 datasets per case, p-values average near 0.5 and rarely fall < 0.05."""
    rng = np.random.default_rng(1)
    seen = {
        (spec.group_by[0], spec.permute_within, spec.cluster_by): (name, spec)
        for name, spec in _floor_specs(store)
    }
    for name, spec in seen.values():
        by = next(b for b in spec.group_by if not any(p in spec.where for p in b.split("+")))
        if by == spec.permute_within:
            continue
        for design in _designs(spec):
            ps = []
            for _ in range(20):
                floor = _breakdown(_records(spec, by, design, 0.0, rng), spec, by).noise_floor
                assert floor is not None and floor.p_value is not None
                ps.append(floor.p_value)
            where = f"{name} by {by} ({design})"
            assert 0.3 <= float(np.mean(ps)) <= 0.75, (where, ps)
            assert sum(p < 0.05 for p in ps) <= 4, (where, ps)


def _naive_p(
    values: list[float],
    labels: list[str],
    units: list[str],
    strata: list[str],
    rng: np.random.Generator,
    n: int = 2000,
) -> float:
    """Shuffle the labels of whole units within strata; p = (1 + #{gap >= observed}) / (1 + n)."""

    def gap(lab: list[str]) -> float:
        pairs = list(zip(values, lab, strict=True))
        means = [np.mean([v for v, g in pairs if g == name]) for name in set(lab)]
        return float(max(means) - min(means))

    unit_label = dict(zip(units, labels, strict=True))
    unit_stratum = dict(zip(units, strata, strict=True))
    observed = gap(labels)
    hits = 0
    for _ in range(n):
        moved = dict(unit_label)
        for stratum in sorted(set(strata)):  # a fixed order: set order follows PYTHONHASHSEED
            members = [u for u in unit_label if unit_stratum[u] == stratum]
            shuffled = rng.permutation([unit_label[u] for u in members])
            moved.update(zip(members, shuffled, strict=True))
        hits += gap([moved[u] for u in units]) >= observed - 1e-12
    return (1 + hits) / (1 + n)


@pytest.mark.parametrize("design", ["crossed", "nested_block", "nested_cluster"])
def test_p_value_matches_a_naive_loop(design: str) -> None:
    """A moderate gap: the floor's p-value agrees with the naive loop within Monte Carlo error."""
    spec = MetricSpec(
        name="m",
        score="s",
        group_by=["g"],
        cluster_by="c",
        noise_floor=True,
        permute_within="t",
        n_permutations=2000,
    )
    if design == "nested_block":
        spec = spec.model_copy(update={"cluster_by": None})
    rng = np.random.default_rng(7)
    records = _records(spec, "g", design, gap=0.2, rng=rng)
    floor = _breakdown(records, spec, "g").noise_floor
    assert floor is not None and floor.p_value is not None
    values = [r.scores["s"] for r in records]
    labels = [r.groups["g"] for r in records]
    blocks = [r.groups["t"] for r in records]
    if design == "nested_block":
        units, strata = blocks, ["" for _ in records]
    elif design == "nested_cluster":
        units, strata = [r.groups["c"] for r in records], blocks
    else:
        units, strata = [r.sample_id for r in records], blocks
    expected = _naive_p(values, labels, units, strata, np.random.default_rng(8))
    assert 0.005 < expected < 0.6  # a moderate case, where the two can disagree
    assert floor.p_value == pytest.approx(expected, abs=0.04), (floor.p_value, expected)


def test_clustered_null_is_not_called_a_gap() -> None:
    """No group effect, a strong cluster effect, the label constant within each cluster
    (cluster ids repeat across templates): shuffling single samples would find a 'gap'
    (p ~ 0.001); shuffling whole clusters within templates agrees with the naive loop."""
    rng = np.random.default_rng(21)
    records = []
    for block in range(4):
        for cluster in range(6):
            effect = rng.normal(0, 1)
            for i in range(30):
                records.append(
                    SampleRecord(
                        benchmark="synthetic",
                        sample_id=f"{block}-{cluster}-{i}",
                        sample_hash="h",
                        groups={"g": f"g{cluster % 2}", "c": f"c{cluster}", "t": f"t{block}"},
                        scores={"s": effect + rng.normal(0, 0.1)},
                    )
                )
    spec = MetricSpec(
        name="m", score="s", group_by=["g"], cluster_by="c", permute_within="t",
        noise_floor=True, n_permutations=2000,
    )  # fmt: skip
    floor = _breakdown(records, spec, "g").noise_floor
    assert floor is not None and floor.p_value is not None and floor.permuted_unit == "c"
    values = [r.scores["s"] for r in records]
    labels = [r.groups["g"] for r in records]
    blocks = [r.groups["t"] for r in records]
    units = [f"{r.groups['t']}/{r.groups['c']}" for r in records]
    rng_oracle = np.random.default_rng(22)
    expected = _naive_p(values, labels, units, blocks, rng_oracle, n=1000)
    by_sample = _naive_p(values, labels, [r.sample_id for r in records], blocks, rng_oracle, 500)
    assert by_sample < 0.01 < expected
    assert floor.p_value == pytest.approx(expected, abs=0.04)


def test_one_sample_per_group_has_no_floor() -> None:
    records = [
        SampleRecord(
            benchmark="synthetic",
            sample_id=str(i),
            sample_hash="h",
            groups={"g": f"g{i}", "t": "t0" if i < 2 else "t1"},
            scores={"s": float(i)},
        )
        for i in range(3)
    ]
    spec = MetricSpec(name="m", score="s", group_by=["g"], permute_within="t", noise_floor=True)
    breakdown = _breakdown(records, spec, "g")
    assert breakdown.gap == 2.0 and breakdown.noise_floor is None
    assert breakdown.noise_floor_reason == (
        "each group is a single sample: shuffling only renames groups"
    )
