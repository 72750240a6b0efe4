"""The verdict of every tested profile cell: a finding, negligible, or inconclusive with an MDE.

After Benjamini-Hochberg over every tested cell of the profile (benchmark cells, overall rows
and pooled axes together) at `alpha`:

- **a finding** (`bias toward stereotype` / `bias against stereotype`, or the benchmark's own
  wording) when the cell's adjusted p-value q <= alpha and its effect is not 0;
- **negligible: |effect| < margin** when not a finding and the cell's 95 % CI lies inside
  (-margin, +margin), the benchmark's declared equivalence margin (`Effect.margin`): two
  one-sided tests at 2.5 % each (Schuirmann 1987), conservative against the usual 5 %;
- **inconclusive: could not detect less than X** otherwise, X the minimum detectable effect.

Every tested cell carries its MDE (`biasaudit.metrics.power`): 80 % power, two-sided, at the
level BH applied to it (`bh_alpha`: alpha (R+1)/m for an unflagged cell, R flagged of m), with
the standard error read off the cell's bootstrap CI.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from biasaudit.metrics.power import bh_alpha, cell_se, mde_from_se
from biasaudit.metrics.tests import benjamini_hochberg
from biasaudit.profile.model import AGAINST, INCONCLUSIVE, NEGLIGIBLE, TOWARD, ProfileCell

#: benchmark -> (verdict of a positive, of a negative flagged effect)
Wording = Callable[[str], tuple[str, str]]


def _num(value: float) -> str:
    return f"{value:.3g}"


def cell_mde(cell: ProfileCell, alpha_used: float) -> float | None:
    if cell.ci_low is None or cell.ci_high is None or cell.ci_high < cell.ci_low:
        return None
    return mde_from_se(cell_se(cell.ci_low, cell.ci_high, cell.effect, cell.p_value), alpha_used)


def quiet_verdict(cell: ProfileCell) -> str:
    """The verdict of a tested cell that is not a finding."""
    margin = cell.margin
    if (
        margin is not None
        and cell.ci_low is not None
        and cell.ci_high is not None
        and -margin < cell.ci_low
        and cell.ci_high < margin
    ):
        return f"{NEGLIGIBLE}: |effect| < {_num(margin)}"
    if cell.mde is None:
        return f"{INCONCLUSIVE}: no interval to size what could be missed"
    return f"{INCONCLUSIVE}: could not detect less than {_num(cell.mde)}"


def apply_verdicts(
    cells: Sequence[ProfileCell], alpha: float, wording: Wording | None = None
) -> int:
    """Set q-values, MDEs and verdicts of the tested cells; return how many were tested."""
    tested = [c for c in cells if c.p_value is not None]
    qs = benjamini_hochberg([c.p_value or 0.0 for c in tested])
    found = [
        q <= alpha and c.effect is not None and c.effect != 0
        for c, q in zip(tested, qs, strict=True)
    ]
    for cell, q, flagged in zip(tested, qs, found, strict=True):
        cell.q_value = q
        cell.alpha_used = bh_alpha(alpha, len(tested), sum(found), flagged)
        cell.mde = cell_mde(cell, cell.alpha_used)
        if flagged:
            positive, negative = wording(cell.benchmark) if wording else (TOWARD, AGAINST)
            cell.verdict = positive if (cell.effect or 0.0) > 0 else negative
        else:
            cell.verdict = quiet_verdict(cell)
    return len(tested)
