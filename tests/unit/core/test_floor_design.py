"""The permutation design of one breakdown (biasaudit.metrics.floors), case by case.

Oracle: the three designs of the module docstring applied by hand to small label tables
(which key is constant within which level is read off the table written next to each case).
"""

from __future__ import annotations

import pytest

from biasaudit.metrics.floors import Design, nested, permutation_design

SEP = "\x1f"


def test_nested_means_one_label_per_level() -> None:
    assert nested(["a", "a", "b"], ["k1", "k1", "k2"])  # k1 -> a, k2 -> b
    assert not nested(["a", "b", "b"], ["k1", "k1", "k2"])  # k1 holds a and b
    assert nested([], [])
    with pytest.raises(ValueError):
        nested(["a", "b"], ["k1"])  # one key per label, never truncated


def test_label_constant_within_blocks_moves_whole_blocks_unrestricted() -> None:
    # blocks t1..t4 each hold one label: a, b, a, b
    labels = ["a", "a", "b", "b", "a", "a", "b", "b"]
    blocks = ["t1", "t1", "t2", "t2", "t3", "t3", "t4", "t4"]
    clusters = ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"]
    design = permutation_design(
        labels, within="template", blocks=blocks, cluster="c", clusters=clusters
    )
    assert design == Design(strata=None, units=blocks, within=None, unit="template")


def test_label_constant_within_clusters_moves_whole_clusters_within_blocks() -> None:
    # blocks s1 (samples 0-3), s2 (4-7) hold both labels; clusters c1..c4 one label each
    labels = ["a", "a", "b", "b", "a", "a", "b", "b"]
    blocks = ["s1"] * 4 + ["s2"] * 4
    clusters = ["c1", "c1", "c2", "c2", "c1", "c1", "c2", "c2"]
    design = permutation_design(labels, within="s", blocks=blocks, cluster="c", clusters=clusters)
    # the cluster ids repeat across blocks: a unit is (block, cluster)
    units = [f"s1{SEP}c1"] * 2 + [f"s1{SEP}c2"] * 2 + [f"s2{SEP}c1"] * 2 + [f"s2{SEP}c2"] * 2
    assert design == Design(strata=blocks, units=units, within="s", unit="c")
    # no blocks declared: the clusters themselves (a: c1, c3; b: c2, c4), shuffled across
    # the whole sample
    clusters = ["c1", "c1", "c2", "c2", "c3", "c3", "c4", "c4"]
    design = permutation_design(labels, within=None, blocks=None, cluster="c", clusters=clusters)
    assert design == Design(strata=None, units=clusters, within=None, unit="c")


def test_label_varying_within_blocks_and_clusters_moves_single_samples() -> None:
    labels = ["a", "b", "a", "b"]
    blocks = ["s1", "s1", "s2", "s2"]
    clusters = ["c1", "c1", "c2", "c2"]  # each cluster holds both labels
    design = permutation_design(labels, within="s", blocks=blocks, cluster="c", clusters=clusters)
    assert design == Design(strata=blocks, units=None, within="s", unit=None)
    assert design.strata is not blocks  # a copy: the caller's list is not shared
    plain = permutation_design(labels, within=None, blocks=None, cluster=None, clusters=None)
    assert plain == Design(strata=None, units=None, within=None, unit=None)


def test_a_block_key_without_block_values_is_not_a_design() -> None:
    # `within` named but no values (and the reverse): the declared key is not used
    labels = ["a", "a", "b", "b"]
    keys = ["k1", "k1", "k2", "k2"]
    assert permutation_design(labels, within="t", blocks=None, cluster=None, clusters=None) == (
        Design(strata=None, units=None, within="t", unit=None)
    )
    assert permutation_design(labels, within=None, blocks=keys, cluster=None, clusters=None) == (
        Design(strata=keys, units=None, within=None, unit=None)
    )
    assert permutation_design(labels, within=None, blocks=None, cluster="c", clusters=None) == (
        Design(strata=None, units=None, within=None, unit=None)
    )
    assert permutation_design(labels, within=None, blocks=None, cluster=None, clusters=keys) == (
        Design(strata=None, units=None, within=None, unit=None)
    )


@pytest.mark.parametrize(
    ("labels", "blocks", "clusters", "reason"),
    [
        # one sample per group, no keys
        (["a", "b", "c"], None, None, "each group is a single sample"),
        # label constant within blocks, one block per group: whole blocks only rename groups
        (["a", "a", "b", "b"], ["t1", "t1", "t2", "t2"], None, "each group is a single t"),
        # label constant within clusters, one cluster per group
        (["a", "a", "b", "b"], None, ["c1", "c1", "c2", "c2"], "each group is a single c"),
    ],
)
def test_each_group_a_single_unit_has_no_floor(
    labels: list[str], blocks: list[str] | None, clusters: list[str] | None, reason: str
) -> None:
    design = permutation_design(
        labels,
        within=None if blocks is None else "t",
        blocks=blocks,
        cluster=None if clusters is None else "c",
        clusters=clusters,
    )
    assert design.reason == f"{reason}: shuffling only renames groups"


def test_a_group_with_two_units_has_a_floor() -> None:
    # group a has samples 0 and 2 (two units), b has one: a shuffle can change the gap
    design = permutation_design(
        ["a", "b", "a"], within=None, blocks=None, cluster=None, clusters=None
    )
    assert design.reason is None
    # blocks constant per label, but group a spans blocks t1 and t3
    design = permutation_design(
        ["a", "b", "a"], within="t", blocks=["t1", "t2", "t3"], cluster=None, clusters=None
    )
    assert design.unit == "t" and design.reason is None


def test_blocks_and_clusters_of_different_lengths_are_refused() -> None:
    # no `within`: the blocks are only joined with the clusters, and must align with them
    with pytest.raises(ValueError):
        permutation_design(
            ["a", "a", "b", "b"], within=None, blocks=["s1", "s1", "s2"], cluster="c",
            clusters=["c1", "c1", "c2", "c2"],
        )  # fmt: skip
