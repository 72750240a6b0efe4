"""`biasaudit cobias ...` analyses without a model: diagnostics (ED only), human agreement,
verification, import, errors. Generation runs through the engine on the replay backend."""

from __future__ import annotations

import csv
import hashlib
import json
import pickle
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from biasaudit.benchmarks.cobias.data import Statement
from biasaudit.benchmarks.cobias.generation import (
    ContextsOptions,
    ContextsTask,
    PointsOptions,
    PointsTask,
)
from biasaudit.benchmarks.cobias.verification import EXPORT_COLUMNS
from biasaudit.cli.app import main
from biasaudit.discovery import open_store
from biasaudit.requests import Capability, Response


class _Evil:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        import os

        return os.system, ("echo pwned",)


def _dataset(tmp_path: Path) -> Path:
    path = tmp_path / "d.csv"
    path.write_text(
        "id,sentence,target_term,context_points\n"
        "1,I am a male nurse.,male,I am a male nurse ___.\n"
        "2,The women are rude.,women,The ___ women are rude ___.\n"
    )
    return path


def _json(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_diagnostics_ed_only_and_filtering(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    contexts = tmp_path / "c.jsonl"
    contexts.write_text(
        json.dumps({"id": "1", "versions": ["I am a male nurse in the ICU.", "I am a male nurse."]})
        + "\n"
        + json.dumps({"id": "2", "versions": ["\nThe young women are rude today."]})
        + "\n"
    )
    filtered = tmp_path / "f.jsonl"
    code = main(
        [
            "cobias",
            "diagnostics",
            "--dataset",
            str(_dataset(tmp_path)),
            "--contexts",
            str(contexts),
            "--no-embed",
            "--ed-threshold",
            "3",
            "--filtered-file",
            str(filtered),
            "--json",
        ]
    )
    assert code == 0
    report = _json(capsys)
    metrics = {m["name"]: m["value"] for m in report["metrics"]}
    # reference ED ("___." is a word, not a blank): id 1: 4 and 3 ("nurse" vs "nurse."),
    # id 2: 2 ("___." deleted, "today." inserted) -> mean of 3.5 and 2
    assert metrics["ed_mean"] == pytest.approx(2.75)
    assert metrics["share_above_ed_threshold"] == pytest.approx(1 / 3)
    kept = [json.loads(line) for line in filtered.open()]
    assert kept == [
        {"id": "1", "versions": ["I am a male nurse."]},
        {"id": "2", "versions": ["The young women are rude today."]},
    ]
    assert "ss_con" not in metrics
    assert report["files"] == [str(filtered)]


def test_malicious_pickle_folder_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pkl"
    folder.mkdir()
    (folder / "1.pkl").write_bytes(pickle.dumps(_Evil()))
    argv = ["cobias", "diagnostics", "--dataset", str(_dataset(tmp_path)), "--no-embed"]
    code = main([*argv, "--contexts", str(folder)])
    err = capsys.readouterr().err
    assert code == 2
    assert "1.pkl: rejected pickle" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_human_agreement_scores_against_ratings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scores = tmp_path / "s.csv"
    scores.write_text("id,cobias\na,0.1\nb,0.2\nc,0.3\nd,0.4\n")
    ratings = tmp_path / "r.csv"
    ratings.write_text("id,Annotator 1,Annotator 2\na,2,2\nb,1,1\nc,4,4\nd,3,3\n")
    argv = ["cobias", "human-agreement", "--scores", str(scores), "--ratings", str(ratings)]
    assert main([*argv, "--json"]) == 0
    metrics = {m["name"]: m for m in _json(capsys)["metrics"]}
    # ranks 1234 vs 2143: 1 - 6 * (1 + 1 + 1 + 1) / (4 * 15) = 0.6
    assert metrics["spearman_human"]["value"] == pytest.approx(0.6)
    assert metrics["spearman_human"]["n"] == 4
    # two raters who always agree: alpha = 1 at every level
    assert metrics["krippendorff_alpha_interval"]["value"] == pytest.approx(1.0)
    assert metrics["krippendorff_alpha_ordinal"]["value"] == pytest.approx(1.0)
    assert main(argv) == 0
    assert "spearman_human" in capsys.readouterr().out


def test_bad_inputs_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "no.csv")
    assert main(["cobias", "human-agreement", "--scores", missing, "--ratings", missing]) == 2
    duplicate = tmp_path / "dup.csv"
    duplicate.write_text("id,sentence\n1,a\n1,b\n")
    argv = ["cobias", "diagnostics", "--dataset", str(duplicate), "--no-embed"]
    assert main([*argv, "--contexts", str(duplicate)]) == 2
    assert "row 3: duplicate id '1'" in capsys.readouterr().err
    two = [*argv, "--contexts", "a.jsonl", "b.jsonl", "--filtered-file", "f.jsonl"]
    assert main(two) == 2
    assert "--filtered-file takes a single --contexts" in capsys.readouterr().err
    # a file-writing analysis without --file or --output
    assert main(["cobias", "verify-export", "--dataset", str(_dataset(tmp_path))]) == 2
    assert "pass --output DIR" in capsys.readouterr().err
    # the old name of human-agreement clashed with `biasaudit validate`
    assert main(["cobias", "validate"]) == 2
    assert "no analysis 'validate'" in capsys.readouterr().err


def test_diagnostics_compares_several_context_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({"id": "2", "versions": ["The young women are rude ___."]}) + "\n")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "2", "versions": ["Completely different words here."]}) + "\n")
    argv = ["cobias", "diagnostics", "--dataset", str(_dataset(tmp_path)), "--no-embed"]
    code = main([*argv, "--contexts", str(good), str(bad), "--ed-threshold", "2", "--json"])
    assert code == 0
    tables = _json(capsys)["tables"]
    rows = {row[0]: row for row in tables["generators"]["rows"]}
    # "young" fills the first blank, "___." is kept: no edit outside the blanks
    assert rows[str(good)][1] == 0 and rows[str(good)][-1] == "yes"
    assert rows[str(bad)][-1] == "no (ED >= 2)"
    assert {f"diagnostics {good}", f"diagnostics {bad}"} <= set(tables)


def test_verify_export_then_summarize(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dataset = tmp_path / "four.csv"
    dataset.write_text(
        "id,sentence,context_points\n"
        "1,A b.,A ___ b.\n2,C d.,C ___ d.\n3,E f.,E ___ f.\n4,G h.,G ___ h.\n"
    )
    argv = ["cobias", "verify-export", "--dataset", str(dataset), "--output", str(tmp_path)]
    assert main(argv) == 0
    capsys.readouterr()
    sheet = tmp_path / "verification_sheet.csv"
    rows = list(csv.DictReader(sheet.open()))
    assert list(rows[0]) == EXPORT_COLUMNS and [r["id"] for r in rows] == ["1", "2", "3", "4"]
    votes = {"1": "yyy", "2": "yyn", "3": "nnn", "4": "nny"}
    sheets = []
    for annotator in range(3):
        path = tmp_path / f"ann{annotator}.csv"
        with path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, EXPORT_COLUMNS)
            writer.writeheader()
            for row in rows:
                label = {"y": "yes", "n": "no"}[votes[row["id"]][annotator]]
                writer.writerow({**row, "label": label})
        sheets.append(str(path))
    accepted = tmp_path / "ok.csv"
    summarize = ["cobias", "verify-summarize", "--labels", *sheets, "--json"]
    assert main([*summarize, "--dataset", str(dataset), "--accepted", str(accepted)]) == 0
    out = _json(capsys)
    metrics = {m["name"]: m["value"] for m in out["metrics"]}
    # counts [3,0] [2,1] [0,3] [1,2]: P_i = 1, 1/3, 1, 1/3 -> P = 2/3; p_yes = 1/2 -> Pe = 1/2
    assert metrics["fleiss_kappa"] == pytest.approx((2 / 3 - 1 / 2) / (1 - 1 / 2))
    assert metrics["acceptance_rate"] == pytest.approx(0.5)
    assert metrics["perfect_agreement"] == pytest.approx(0.5)
    assert metrics["cohen_kappa"] is None  # three annotators
    table = out["tables"]["agreement"]
    assert table["columns"] == ["class", "100.00%", "66.67%"]
    assert table["rows"] == [["yes", 1, 1], ["no", 1, 1]]
    assert [r["id"] for r in csv.DictReader(accepted.open())] == ["1", "2"]
    assert main([*summarize[:-1], "--accepted", str(accepted)]) == 2
    assert "--accepted needs --dataset" in capsys.readouterr().err


def test_import_crows_pairs(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cs.csv"
    argv = ["cobias", "import", "--source", "crows-pairs", "--file", str(out), "--json"]
    assert main([*argv, "--data-dir", str(data_dir)]) == 0
    result = _json(capsys)
    release = data_dir / "downstream/crows_pairs/crows_pairs_anonymized.csv"
    released = list(csv.DictReader(release.open(encoding="utf-8")))
    written = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(written) == len(released)
    assert result["files"] == [str(out)]
    counts = Counter(r["bias_type"] for r in released)
    assert result["tables"]["bias_types"]["rows"] == [[k, counts[k]] for k in sorted(counts)]


def _replay(path: Path, job: Any, answers: dict[str, list[str]]) -> None:
    """Recorded answers for the first round of `job`'s requests (the replay backend's input)."""
    with path.open("w", encoding="utf-8") as handle:
        for sample in job.load_samples():
            for request, text in zip(
                job.next_requests(sample, []), answers[sample.id], strict=True
            ):
                response = Response(kind=Capability.GENERATE, text=text)
                line = {
                    "request": request.model_dump(mode="json"),
                    "response": response.model_dump(mode="json"),
                }
                handle.write(json.dumps(line) + "\n")


def test_generate_points_and_contexts_through_the_engine(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store(data_dir)
    statements = [
        Statement("1", "I am a male nurse.", "male"),
        Statement("2", "The women are rude.", "women"),
    ]
    dataset = tmp_path / "plain.csv"
    dataset.write_text(
        "id,sentence,target_term\n1,I am a male nurse.,male\n2,The women are rude.,women\n"
    )
    examples = tmp_path / "examples.csv"
    examples.write_text("id,sentence,context_points\n9,He is tall.,He is ___ tall.\n")
    points_job = PointsTask(
        PointsOptions(max_attempts=1),
        store,
        0,
        statements,
        [Statement("9", "He is tall.", "", "He is ___ tall.")],
    )
    replay = tmp_path / "points.jsonl"
    _replay(
        replay,
        points_job,
        {"1": ["Output: I am a ___ male nurse ___."], "2": ["The women are rude."]},
    )
    points = tmp_path / "points.csv"
    argv = ["cobias", "generate-points", "--dataset", str(dataset), "--examples", str(examples)]
    argv += ["--model", f"replay:{replay}", "--max-attempts", "1", "--file", str(points)]
    assert main([*argv, "--no-cache", "-q", "--json"]) == 0
    metrics = {m["name"]: m["value"] for m in _json(capsys)["metrics"]}
    assert metrics["valid_rate"] == pytest.approx(1 / 2)
    assert metrics["blanks_mean"] == pytest.approx(2.0)
    rows = list(csv.DictReader(points.open()))
    assert [r["context_points"] for r in rows] == [
        "I am a ___ male nurse ___.",
        "The women are rude.",
    ]
    assert [r["points_valid"] for r in rows] == ["True", "False"]

    templated = [Statement("1", "I am a male nurse.", "male", "I am a ___ male nurse ___.")]
    options = ContextsOptions(n_generate=2, postprocess="first_line")
    contexts_job = ContextsTask(options, store, 0, templated)
    replay = tmp_path / "contexts.jsonl"
    answers = ["I am a young male nurse here.\nExplanation: ...", "I am a male nurse at night."]
    _replay(replay, contexts_job, {"1": answers})
    argv = ["cobias", "generate-contexts", "--dataset", str(points), "--limit", "1"]
    argv += ["--model", f"replay:{replay}", "--n-generate", "2", "--postprocess", "first_line"]
    assert main([*argv, "--output", str(tmp_path / "gen"), "--no-cache", "-q"]) == 0
    lines = [json.loads(x) for x in (tmp_path / "gen" / "contexts.jsonl").open()]
    assert [x["versions"] for x in lines] == [
        ["I am a young male nurse here.", "I am a male nurse at night."]
    ]
    sha = hashlib.sha256(replay.read_bytes()).hexdigest()
    assert lines[0]["model"] == {"spec": f"replay:{replay}", "fingerprint": f"replay|{sha}"}
    assert lines[0]["settings"]["n_generate"] == 2


def test_scoring_without_a_model_refuses_a_job_that_sends_requests(data_dir: Path) -> None:
    from biasaudit.analysis import Context
    from biasaudit.errors import RunError

    store = open_store(data_dir)
    job = PointsTask(PointsOptions(), store, 0, [Statement("1", "I am a nurse.", "")], [])
    with pytest.raises(RunError, match="'cobias-points' sends requests: it needs a model"):
        Context(store).score(job)
