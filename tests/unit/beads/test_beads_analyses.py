"""The rewrite analysis end to end on the conformance suite's deterministic fake backend."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from biasaudit.analysis import Context
from biasaudit.benchmarks.beads.analyses import RewriteArgs, rewrite
from biasaudit.data import DataStore
from biasaudit.datasets.files import read_json_lines
from biasaudit.models.spec import BACKENDS


@pytest.fixture(autouse=True)
def fake_backend(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    yield


def test_rewrite_analysis_records_judge_and_writes_pairs(store: DataStore, tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        RewriteArgs(model="fake")  # type: ignore[call-arg]  # no default judge
    ctx = Context(store=store, output_dir=tmp_path, progress=False, use_cache=False)
    result = rewrite(RewriteArgs(model="fake", judge="fake", embedder="fake", limit=3), ctx)
    rows = read_json_lines(tmp_path / "rewrites.jsonl")
    kinds = [r["kind"] for r in rows]
    assert kinds.count("original") == 3 and kinds.count("reference") == 3
    judge = json.loads((tmp_path / "judge_results.json").read_text())
    assert judge["model"]["spec"] == "fake"
    assert judge["result"]["tables"]["judge_prompts"]["rows"][0][0] == "bias"
    names = {m.name for m in result.metrics}
    assert {"bias", "toxicity", "faithfulness", "meaning_similarity"} <= names
    by_kind = result.tables["by_kind"]
    assert {row[1] for row in by_kind.rows} <= {"original", "reference", "model"}
    assert any("judge: fake" in note for note in result.notes)
