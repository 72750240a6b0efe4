"""The COBIAS benchmark end to end through the runner, with recorded responses (replay).

The replay backend answers from a file of request/response pairs written here by hand, so
every τ, cv and COBIAS below is computed by hand.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from biasaudit.api import evaluate, score
from biasaudit.benchmarks.cobias.aggregate import STATEMENT_COLUMNS
from biasaudit.benchmarks.cobias.ensemble import ensemble
from biasaudit.requests import LoglikelihoodRequest, PseudoLoglikelihoodRequest

DATASET = (
    "id,sentence,target_term,context_points\n"
    "s1,A b c.,A,A ___ b c.\n"
    "s2,No blanks here.,x,No blanks here.\n"
    "s3,Same words.,x,Same ___ words.\n"
    "s5,Broken one.,x,Broken ___ one.\n"
    "s6,(Men | Women) are bad.,x,(Men | Women) are ___ bad.\n"
)
VERSIONS = {
    "s1": ["\nA x b c.", "A y b c.", ""],
    "s2": ["No blanks here at all."],
    "s3": ["Same words.", "Same words."],
    "s5": ["Broken new one."],
    "s6": ["Men are very bad."],
}
# text -> per-token log-probabilities (tau = |mean|)
PLL = {
    "A b c.": [-1.0, -3.0],  # tau 2
    "A x b c.": [-3.0, -3.0],  # tau 3
    "A y b c.": [-1.0, -1.0],  # tau 1
    "Same words.": [-0.5, -1.5],  # tau 1
    "Broken one.": [-2.0],
}


def _write_inputs(tmp_path: Path) -> tuple[Path, Path]:
    dataset = tmp_path / "data.csv"
    dataset.write_text(DATASET, encoding="utf-8")
    contexts = tmp_path / "contexts.jsonl"
    contexts.write_text(
        "".join(json.dumps({"id": k, "versions": v}) + "\n" for k, v in VERSIONS.items())
    )
    return dataset, contexts


def _replay_pll(tmp_path: Path, scale: float = 1.0) -> Path:
    lines = []
    for text, logprobs in PLL.items():
        request = PseudoLoglikelihoodRequest(text=text)
        values = [v * scale for v in logprobs]
        response = {
            "kind": "pseudo_loglikelihood",
            "logprob": sum(values),
            "n_tokens": len(values),
            "token_logprobs": values,
        }
        lines.append({"request": request.model_dump(), "response": response})
    # "Broken new one." is missing on purpose: the replay answers it with an error
    path = tmp_path / f"replay-{scale}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def _run(tmp_path: Path, model: str, out: str, **options: Any) -> Any:
    dataset, contexts = _write_inputs(tmp_path)
    return evaluate(
        "cobias",
        model,
        options={"cobias": {"dataset": str(dataset), "contexts": str(contexts), **options}},
        output_dir=tmp_path / out,
        use_cache=False,
        progress=False,
    )


def test_scores_exclusions_and_tables(tmp_path: Path, data_dir: Path) -> None:
    run = _run(tmp_path, f"replay:{_replay_pll(tmp_path)}", "run")
    bench = run.benchmark("cobias")
    assert bench.options["estimator"] == "pll"  # "auto" settled from the backend
    table = bench.tables["statements"]
    assert table.columns == STATEMENT_COLUMNS
    rows = {r[0]: r for r in table.rows}
    # s1: tau(x) = 2, versions 3 and 1 (the empty version is dropped): cv = 50
    assert rows["s1"][3] == pytest.approx(50.0)
    assert rows["s1"][2] == pytest.approx(math.log(51) / (math.log(51) + 1))
    assert rows["s1"][4] == 2
    # s3: versions identical to the statement: cv = 0 and COBIAS = 0
    assert rows["s3"][2] == 0.0
    assert rows["s3"][3] == 0.0
    for sid in ("s2", "s5", "s6"):
        assert rows[sid][2] is None
    exclusions = dict(map(tuple, bench.tables["exclusions"].rows))
    # (a statement with an empty sentence is refused when the file is read: test_cobias_data)
    assert exclusions == {
        "error": 1,
        "no_context_points": 1,
        "unresolved_alternation": 1,
    }
    cobias_mean = bench.metric("cobias_mean")
    assert cobias_mean.value == pytest.approx((rows["s1"][2] + 0.0) / 2)
    assert cobias_mean.n == 2
    assert cobias_mean.n_excluded == 3
    assert "estimator=pll" in cobias_mean.description
    assert bench.metric("cv_mean").value == pytest.approx(25.0)
    assert bench.metric("share_no_context_added").value == pytest.approx(0.5)


def test_rescoring_a_run_gives_the_same_results(tmp_path: Path, data_dir: Path) -> None:
    run = _run(tmp_path, f"replay:{_replay_pll(tmp_path)}", "run")
    again = score(tmp_path / "run", write=False)
    assert again.benchmark("cobias").metrics == run.benchmark("cobias").metrics


def test_reference_compat_preset_changes_the_requests(tmp_path: Path, data_dir: Path) -> None:
    # the replay file holds default-preset requests only, so every request misses
    run = _run(
        tmp_path,
        f"replay:{_replay_pll(tmp_path)}",
        "run",
        preset="reference_compat",
        estimator="pll",
    )
    samples = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").open()]
    first = next(s for s in samples if s["sample_id"] == "s1")
    request = first["exchanges"][0]["request"]
    assert request["lowercase"] is True
    assert request["add_special_tokens"] is False
    assert run.benchmark("cobias").metric("cobias_mean").value is None


def test_causal_estimator_with_word_units(tmp_path: Path, data_dir: Path) -> None:
    lines = []
    for text, total in {"A b c.": -6.0, "A x b c.": -12.0, "A y b c.": -4.0}.items():
        request = LoglikelihoodRequest(context="", continuation=text)
        response = {"kind": "loglikelihood", "logprob": total, "n_tokens": 5, "is_greedy": False}
        lines.append({"request": request.model_dump(), "response": response})
    replay = tmp_path / "causal.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines))
    run = _run(tmp_path, f"replay:{replay}", "run", granularity="word", id_prefix="s1")
    bench = run.benchmark("cobias")
    assert bench.options["estimator"] == "causal"
    # words: 3, 4, 4 -> tau 2, 3, 1 -> cv 50
    assert bench.tables["statements"].rows[0][3] == pytest.approx(50.0)


def test_explicit_estimator_the_backend_lacks_is_refused(tmp_path: Path, data_dir: Path) -> None:
    from biasaudit.errors import CapabilityError

    with pytest.raises(CapabilityError, match="needs loglikelihood"):
        _run(tmp_path, f"replay:{_replay_pll(tmp_path)}", "run", estimator="causal")


def test_ensemble_averages_tau_before_cv(tmp_path: Path, data_dir: Path) -> None:
    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 1.0)}", "one")
    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 3.0)}", "two")
    _, aggregate = ensemble([tmp_path / "one", tmp_path / "two"])
    rows = {r[0]: r for r in aggregate.tables["statements"].rows}
    # averaged tau: x = (2 + 6) / 2 = 4, versions 6 and 2 -> cv = (4 + 4) / 2 / 4 x 100 = 100
    assert rows["s1"][3] == pytest.approx(100.0)
    assert rows["s5"][2] is None


def test_ensemble_writes_per_statement_tau(tmp_path: Path, data_dir: Path) -> None:
    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 1.0)}", "one")
    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 3.0)}", "two")
    _, aggregate = ensemble([tmp_path / "one", tmp_path / "two"])
    table = aggregate.tables["per_statement"]
    rows = {r[0]: dict(zip(table.columns, r, strict=True)) for r in table.rows}
    # hand values from PLL: s1 x = 2 (x3 = 6), versions 3, 1 (x3 = 9, 3)
    assert rows["s1"]["tau_original_by_run"] == [2.0, 6.0]
    assert rows["s1"]["tau_versions_by_run"] == [[3.0, 1.0], [9.0, 3.0]]
    assert rows["s1"]["tau_original"] == 4.0
    assert rows["s1"]["tau_versions"] == [6.0, 2.0]
    assert "s5" not in rows  # excluded in the runs: no τ to report


def test_ensemble_refuses_runs_on_different_tau_scales(tmp_path: Path, data_dir: Path) -> None:
    from biasaudit.errors import RunError

    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 1.0)}", "pll")
    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 3.0)}", "compat", preset="reference_compat")
    with pytest.raises(RunError, match="preset='reference_compat'"):
        ensemble([tmp_path / "pll", tmp_path / "compat"])
    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 3.0)}", "word", granularity="word")
    with pytest.raises(RunError, match="granularity='word'"):
        ensemble([tmp_path / "pll", tmp_path / "word"])
    with pytest.raises(RunError, match="the same run is given twice"):
        ensemble([tmp_path / "pll", tmp_path / "pll"])


def test_ratings_option_attaches_mean_human_ratings(tmp_path: Path, data_dir: Path) -> None:
    ratings = tmp_path / "ratings.csv"
    ratings.write_text("id,Annotator 1,Annotator 2\ns1,2,4\ns3,5,\n")
    run = _run(tmp_path, f"replay:{_replay_pll(tmp_path)}", "run", ratings=str(ratings))
    samples = {
        s["sample_id"]: s for s in map(json.loads, (tmp_path / "run" / "samples.jsonl").open())
    }
    assert samples["s1"]["data"]["human_rating"] == 3.0
    assert samples["s3"]["data"]["human_rating"] == 5.0
    assert "human_rating" not in samples["s2"]["data"]
    human = run.benchmark("cobias").metric("spearman_human")
    assert human.n == 2 and human.value is None  # too few statements for a correlation


def test_ensemble_reports_the_runs_rank_correlations(tmp_path: Path, data_dir: Path) -> None:
    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 1.0)}", "one")
    _run(tmp_path, f"replay:{_replay_pll(tmp_path, 3.0)}", "two")
    _, aggregate = ensemble([tmp_path / "one", tmp_path / "two"])
    table = aggregate.tables["model_correlations"]
    assert len(table.columns) == 3 and len(table.rows) == 2
    assert "2 statements" in table.description  # s1 and s3 are scored in both runs


def test_min_versions_excludes_thin_statements(tmp_path: Path, data_dir: Path) -> None:
    run = _run(tmp_path, f"replay:{_replay_pll(tmp_path)}", "run", min_versions=2)
    exclusions = dict(map(tuple, run.benchmark("cobias").tables["exclusions"].rows))
    # s5 has one version; s2 and s6 are excluded for other reasons first
    assert exclusions == {
        "no_context_points": 1,
        "too_few_versions": 1,
        "unresolved_alternation": 1,
    }


def test_own_dataset_needs_its_own_contexts(tmp_path: Path, store: Any) -> None:
    from biasaudit.benchmarks.cobias.benchmark import COBIAS
    from biasaudit.errors import DataError

    dataset, _ = _write_inputs(tmp_path)
    with pytest.raises(DataError, match="needs its own contexts"):
        COBIAS.from_dict({"dataset": str(dataset)}, store)


def test_run_with_two_models_then_the_ensemble_analysis(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from biasaudit.cli.app import main

    dataset, contexts = _write_inputs(tmp_path)
    one, three = _replay_pll(tmp_path, 1.0), _replay_pll(tmp_path, 3.0)
    out = tmp_path / "out"
    argv = ["run", "cobias", "-O", f"dataset={dataset}", "-O", f"contexts={contexts}"]
    argv += ["-m", f"replay:{one}", "-m", f"replay:{three}", "-o", str(out)]
    # The replay files lack one statement's request on purpose: a partial run (exit 3) unless
    # that loss is allowed.
    assert main([*argv, "--no-cache", "-q"]) == 3
    assert main([*argv, "--no-cache", "-q", "--overwrite", "--max-failed-samples", "1"]) == 0
    runs = sorted(str(p.parent) for p in out.glob("replay_*/results.json"))
    assert len(runs) == 2
    capsys.readouterr()
    assert main(["cobias", "ensemble", "--runs", *runs, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {r[0]: r for r in report["tables"]["statements"]["rows"]}
    assert rows["s1"][3] == pytest.approx(100.0)  # as in test_ensemble_averages_tau_before_cv
