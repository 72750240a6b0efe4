"""Which labels a permutation noise floor may shuffle, and at what level.

A permutation test is valid when, under the null hypothesis, the shuffled things are
exchangeable (Good 2005, ch. 3; Anderson & ter Braak 2003 on restricted permutations). The
metric declares `permute_within` (a block such as a template or a base sentence: labels move
only inside one) and `cluster_by` (samples that are not independent). For one breakdown the
design is chosen from the labels themselves:

1. **Nested in the blocks** (the label is constant within every `permute_within` level):
   shuffling inside a block changes nothing, and the old floor equalled the observed gap
   (p = 1). The block is the unit that carries the label, so whole blocks' labels are
   shuffled across blocks (a cluster-level permutation, unrestricted).
2. **Nested in the clusters** (constant within every `cluster_by` level, e.g. a template that
   belongs to one category): samples of one cluster are not exchangeable with others', so
   whole clusters' labels are shuffled (within the blocks, when declared).
3. Otherwise single samples' labels are shuffled within the blocks.

When no shuffle can change the gap (each group is a single unit, e.g. a breakdown by the
block key itself, or one sample per group), there is no floor and `Design.reason` says why;
the breakdown then records that reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Design:
    """How labels are shuffled: `units` move as wholes, only within `strata`."""

    strata: list[str] | None
    units: list[str] | None
    #: The declared key the strata come from, and the key whose levels move as wholes.
    within: str | None
    unit: str | None
    #: Why no permutation can move a label (then there is no floor).
    reason: str | None = None


def nested(labels: Sequence[str], keys: Sequence[str]) -> bool:
    """Whether every level of `keys` holds a single label."""
    seen: dict[str, str] = {}
    return all(
        seen.setdefault(key, label) == label for key, label in zip(keys, labels, strict=True)
    )


def _joined(outer: Sequence[str] | None, inner: Sequence[str]) -> list[str]:
    if outer is None:
        return list(inner)
    return [f"{a}\x1f{b}" for a, b in zip(outer, inner, strict=True)]


def permutation_design(
    labels: Sequence[str],
    *,
    within: str | None,
    blocks: Sequence[str] | None,
    cluster: str | None,
    clusters: Sequence[str] | None,
) -> Design:
    """The permutation design of one breakdown (see the module docstring)."""
    if within is not None and blocks is not None and nested(labels, blocks):
        design = Design(strata=None, units=list(blocks), within=None, unit=within)
    elif cluster is not None and clusters is not None and nested(labels, clusters):
        units = _joined(blocks, clusters)
        design = Design(strata=_list(blocks), units=units, within=within, unit=cluster)
    else:
        design = Design(strata=_list(blocks), units=None, within=within, unit=None)
    return replace(design, reason=_degenerate(labels, design))


def _list(values: Sequence[str] | None) -> list[str] | None:
    return None if values is None else list(values)


def _degenerate(labels: Sequence[str], design: Design) -> str | None:
    """Why no shuffle under `design` can change the gap, if so: each group is one unit.

    Then every permutation maps units to groups one to one, so the group means are the same
    set of unit means under new names and a symmetric gap cannot change. (Labels constant
    within every block cannot reach here: such a breakdown moves whole blocks.)
    """
    units = design.units if design.units is not None else [str(i) for i in range(len(labels))]
    units_of: dict[str, set[str]] = {}
    for unit, label in zip(units, labels, strict=True):
        units_of.setdefault(label, set()).add(unit)
    if all(len(members) == 1 for members in units_of.values()):
        return f"each group is a single {design.unit or 'sample'}: shuffling only renames groups"
    return None
