"""The demo suite on the embedded model (what `make demo` runs): every benchmark it serves
completes, BEADs is skipped for its gated data, and the report is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.audit.folder import read_audit
from biasaudit.audit.run import audit
from biasaudit.cli.app import main
from biasaudit.plugin import names
from biasaudit.results.io import read_results

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_demo_suite_on_embedded(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    [item] = audit(["embedded"], "demo", out, model_args={"n_threads": 1}, progress=False)
    info = read_audit(out)
    assert info == item.info
    statuses = {b.name: b.status for b in info.benchmarks}
    assert set(statuses) == set(names())
    assert statuses.pop("beads") == "skipped"
    assert set(statuses.values()) == {"complete"}, statuses
    run = read_results(out)
    assert sorted(b.benchmark for b in run.benchmarks) == sorted(statuses)
    for bench in run.benchmarks:
        plan = bench.sample_plan
        assert plan is not None and plan.suite == "demo" and bench.n_samples == plan.n_samples
    assert main(["report", str(out), "-o", str(out / "report.html")]) == 0
    assert (out / "report.html").stat().st_size > 0


def test_quick_flags_smollm2s_crows_pairs_bias(tmp_path: Path) -> None:
    """Issue 29 item 6(c): SmolLM2-135M prefers the more-stereotyping sentence of CrowS-Pairs
    on about 55 % of its 1,508 pairs (4 standard errors above 50 %); `quick` runs every pair
    and its overall row must flag it (it reported "no detectable bias" on 180 pairs before)."""
    from biasaudit.profile import profile_of_dir
    from biasaudit.profile.model import OVERALL, TOWARD

    out = tmp_path / "quick"
    audit(["embedded"], "quick", out, benchmarks=["crows_pairs"], progress=False)
    run = read_results(out)
    reported = run.benchmark("crows_pairs").metric("metric_score")
    assert reported.n == 1508  # every pair
    (overall,) = [c for c in profile_of_dir(out).cells if c.axis == OVERALL]
    assert overall.value == pytest.approx(reported.value)
    assert overall.verdict == TOWARD, overall.verdict
