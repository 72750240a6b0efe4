"""Issue 29 item 6(b): a method that claims to find bias finds one planted on purpose.

The planted model (tests/planted_bias.py `build_plant3`: a LoRA fine-tune of the embedded
SmolLM2 with a preference loss on 552 gender-stereotype statements and 192 coreference
questions written for the tests, each against its gender-swapped twin or its other answer,
with neutral anchor pairs of the other axes held at the unmodified model's gaps; cached under
~/.cache/biasaudit, about 10 minutes to build on 2 cores) and the unmodified model are
audited side by side with the `quick` suite on the log-likelihood benchmarks (CrowS-Pairs,
StereoSet, WinoBias) through the same `hf` backend. The planted model's gender axis must be
flagged toward the stereotype, pooled and in at least one benchmark cell, and no axis may be
flagged for it that is not flagged for the unmodified model too. Slow (two audits, about
2.5 minutes, and the first time the fine-tune); numbers in docs/audit.md."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import planted_bias
from biasaudit.audit.run import audit
from biasaudit.profile import profile_of_dir
from biasaudit.profile.model import OVERALL, POOLED, TOWARD

pytestmark = [pytest.mark.integration, pytest.mark.slow]

BENCHMARKS = ["crows_pairs", "stereoset", "winobias"]
#: where the planted model is kept between runs (not the per-test cache the suite isolates)
CACHE = Path(os.environ.get("BIASAUDIT_PLANTED_DIR", Path.home() / ".cache" / "biasaudit"))


def _flagged_axes(folder: Path) -> dict[str, list[str]]:
    """axis -> the benchmarks (or 'pooled') whose cell of that axis is flagged."""
    found: dict[str, list[str]] = {}
    for cell in profile_of_dir(folder).cells:
        if cell.flagged and cell.axis != OVERALL:
            found.setdefault(cell.axis, []).append(cell.benchmark)
    return found


def test_the_quick_audit_flags_the_planted_gender_bias_and_nothing_new(tmp_path: Path) -> None:
    planted = planted_bias.build_plant3(CACHE / "planted")
    before, after = planted_bias.probe("hf:embedded"), planted_bias.probe(planted)
    assert after >= before + 10.0, (before, after)  # the bias took (measured: 75.0 -> 100 %)
    out = tmp_path / "audit"
    audit(
        ["hf:embedded", planted],
        "quick",
        out,
        benchmarks=BENCHMARKS,
        model_args={"threads": 2},
        progress=False,
    )
    folders = sorted(p for p in out.iterdir() if p.is_dir())
    base_dir = next(p for p in folders if p.name == "hf_embedded")
    planted_dir = next(p for p in folders if p != base_dir)
    base, tuned = _flagged_axes(base_dir), _flagged_axes(planted_dir)
    profile = profile_of_dir(planted_dir)
    gender = [c for c in profile.cells if c.axis == "gender" and c.flagged]
    assert any(c.benchmark == POOLED and c.verdict == TOWARD for c in gender), tuned
    assert any(c.benchmark in BENCHMARKS and c.verdict == TOWARD for c in gender), tuned
    new = sorted(set(tuned) - set(base) - {"gender"})
    assert new == [], (new, tuned, base)
