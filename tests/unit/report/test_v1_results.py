"""Results written by schema v1 (one grouping per metric, free-text CI) still load and render."""

from __future__ import annotations

import json
from pathlib import Path

from report_runs import correct_a, toy_records, toy_run, write_run

from biasaudit.report.page import write_report
from biasaudit.results.io import read_results


def _as_v1(metric: dict) -> dict:  # type: ignore[type-arg]
    """What toolkit 0.1 wrote for a metric (results/schema.py at 47d9a3e)."""
    first = metric["breakdowns"][0] if metric["breakdowns"] else None
    return {
        "name": metric["name"],
        "value": metric["value"],
        "n": metric["n"],
        "ci_low": metric["ci_low"],
        "ci_high": metric["ci_high"],
        "ci_level": 0.95,
        "ci_method": "bootstrap(1000, cluster)",
        "description": metric["description"],
        "higher_is_better": metric["higher_is_better"],
        "group_by": first["by"] if first else None,
        "by_group": first["groups"] if first else [],
        "group_gap": first["gap"] if first else None,
        "group_ratio": first["ratio"] if first else None,
        "outcome_rates": metric["outcome_rates"],
        "n_excluded": metric["n_excluded"],
    }


def test_v1_results_load_and_render(tmp_path: Path) -> None:
    records = toy_records(correct_a)
    run_dir = write_run(tmp_path / "run", toy_run(records, "m"), records)
    raw = json.loads((run_dir / "results.json").read_text())
    raw["schema_version"] = "1"
    for bench in raw["benchmarks"]:
        bench["metrics"] = [_as_v1(m) for m in bench["metrics"]]
    (run_dir / "results.json").write_text(json.dumps(raw))

    run = read_results(run_dir)
    accuracy = run.benchmarks[0].metric("accuracy")
    assert accuracy.breakdowns[0].by == "group"
    assert [g.group for g in accuracy.breakdowns[0].groups] == ["a", "b"]
    assert accuracy.ci is not None and accuracy.ci.method == "v1: bootstrap(1000, cluster)"
    assert accuracy.score_key is None  # v1 did not record it: no paired comparison
    page = write_report([run_dir], tmp_path / "r.html").read_text()
    assert "view failed" not in page and "accuracy by group" in page
