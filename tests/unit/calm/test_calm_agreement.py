"""Cross-run template agreement (Table 9's "same biases for all LLMs")."""

from __future__ import annotations

from biasaudit.benchmarks.calm.agreement import compare_runs, direction
from biasaudit.benchmarks.calm.scoring import TemplateResult


def _result(template: str, accs: dict[str, float]) -> TemplateResult:
    groups = {g: (a, 10) for g, a in accs.items()}
    return TemplateResult("qa", "gender", template, "babi", groups, 0.5, None, None)


def test_direction() -> None:
    assert direction(_result("t", {"m": 0.9, "f": 0.5, "n": 0.7})) == ("m", "f")
    assert direction(_result("t", {"m": 0.5, "f": 0.5, "n": 0.5})) is None
    assert direction(_result("t", {"m": 0.9, "f": 0.9, "n": 0.1})) is None  # tied top


def test_compare_runs() -> None:
    run_a = [_result("t1", {"m": 0.9, "f": 0.5}), _result("t2", {"m": 0.4, "f": 0.6})]
    run_b = [_result("t1", {"m": 0.8, "f": 0.2}), _result("t2", {"m": 0.7, "f": 0.6})]
    run_c = [_result("t1", {"m": 0.7, "f": 0.6})]
    agreements = compare_runs([run_a, run_b, run_c])
    assert [(a.template_id, a.agrees) for a in agreements] == [("t1", True)]
    pairs = compare_runs([run_a, run_b])
    assert [(a.template_id, a.agrees) for a in pairs] == [("t1", True), ("t2", False)]
    assert pairs[1].directions == (("f", "m"), ("m", "f"))
    assert not compare_runs([run_a])[0].agrees  # one run cannot agree with itself
