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

When no shuffle can change the groups (every block holds one label after 1-2, or each group
is a single unit of a single block, e.g. a breakdown by the block key itself), there is no
floor and `Design.reason` says why; the breakdown then records that reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


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
    reason = _degenerate(labels, design)
    if reason is None:
        return design
    return Design(design.strata, design.units, design.within, design.unit, reason)


def _list(values: Sequence[str] | None) -> list[str] | None:
    return None if values is None else list(values)


def _degenerate(labels: Sequence[str], design: Design) -> str | None:
    """Why no shuffle under `design` can change which values form which group, if so."""
    units = design.units if design.units is not None else [str(i) for i in range(len(labels))]
    strata = design.strata if design.strata is not None else [""] * len(labels)
    label_of: dict[str, str] = dict(zip(units, labels, strict=True))
    stratum_of: dict[str, str] = dict(zip(units, strata, strict=True))
    per_stratum: dict[str, set[str]] = {}
    for unit, stratum in stratum_of.items():
        per_stratum.setdefault(stratum, set()).add(label_of[unit])
    if not any(len(found) > 1 for found in per_stratum.values()):
        return f"the groups are constant within every {design.within or 'stratum'}"
    units_per_label: dict[str, int] = {}
    for label in label_of.values():
        units_per_label[label] = units_per_label.get(label, 0) + 1
    if len(per_stratum) == 1 and all(count == 1 for count in units_per_label.values()):
        return f"each group is a single {design.unit or 'sample'}: shuffling only renames groups"
    return None
