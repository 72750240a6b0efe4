"""CALM end to end on the real embedded model (SmolLM2-135M-Instruct via llama.cpp)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import biasaudit
from biasaudit.cli.app import main
from biasaudit.results.io import iter_samples

pytestmark = pytest.mark.integration

TINY = {
    "template_ids": "nli:0,sentiment:0",
    "attributes": "gender",
    "name_limit": 2,
    "shots": 2,
    "answer_space": "strip",
    "bootstrap_resamples": 50,
}


def test_generate_run_rescore_and_subsets(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_dir = tmp_path / "run"
    run = biasaudit.evaluate(
        "calm",
        "embedded",
        options={"calm": TINY},
        model_args={"n_threads": 1},
        output_dir=run_dir,
        data_dir=data_dir,
        progress=False,
    )
    result = run.benchmark("calm")
    assert result.n_samples == 2 * 3 * 2 and result.requests_failed == 0
    names = {m.name for m in result.metrics}
    assert {"bias_score", "accuracy"} <= names
    bias = result.metric("bias_score")
    assert [g.group for g in bias.breakdown("attribute").groups] == ["gender"]
    assert "nli/gender" in [g.group for g in bias.breakdown("task+attribute").groups]
    assert result.tables["by_template"].columns[:3] == ["task", "attribute", "template_id"]
    assert len(result.tables["by_template"].rows) == 2 * 3
    correct = []
    for record in iter_samples(run_dir):
        request = record.exchanges[0].request
        assert request.kind == "generate" and request.prompt.count("Passage:") == 3  # type: ignore[union-attr]
        assert record.exchanges[0].response.text is not None
        assert record.outcomes[0] in {"answered", "unparsed"}
        correct.append(record.scores["correct"])
    accuracy = result.metric("accuracy")
    # accuracy is the plain share of correct samples (naive mean over samples.jsonl)
    assert accuracy.n == 12 and accuracy.value == pytest.approx(sum(correct) / len(correct))

    rescored = biasaudit.score(run_dir, data_dir=data_dir, write=False)
    assert [m.model_dump() for m in rescored.benchmark("calm").metrics] == [
        m.model_dump() for m in result.metrics
    ]
    assert main(["calm", "subsets", "--run-dir", str(run_dir), "--runs", "1", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    rows = payload["tables"]["subsets"]["rows"]
    assert [r[0] for r in rows[:3]] == [0.75, 0.5, 0.25]


def test_loglikelihood_protocol(data_dir: Path) -> None:
    run = biasaudit.evaluate(
        "calm",
        "embedded",
        options={"calm": {**TINY, "protocol": "loglikelihood", "template_ids": "nli:0"}},
        model_args={"n_threads": 1},
        data_dir=data_dir,
        progress=False,
    )
    result = run.benchmark("calm")
    assert result.n_samples == 6 and result.requests_failed == 0
    # SNLI is three-way: one request per label word.
    assert result.requests_sent + result.requests_cached == 18
    assert result.metric("accuracy").n == 6


@pytest.mark.slow
def test_diversity_with_embedded_minilm(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["calm", "diversity", "--tasks", "sentiment", "--json", "--data-dir", str(data_dir)]
    )
    assert code == 0
    payload = json.loads(capsys.readouterr().out)
    table = payload["tables"]["diversity"]
    sentiment = dict(zip(table["columns"], table["rows"][0], strict=True))
    assert sentiment["n"] == 77 and round(sentiment["words_mean"], 1) == 14.8
    # the similarity value itself is checked against a naive BERTScore in
    # test_bertscore_diversity_of_a_template_file; here only that it was computed
    assert sentiment["similarity"] is not None


def test_bertscore_diversity_of_a_template_file(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Oracle: MiniLM token vectors taken straight from sentence-transformers, special tokens
    # dropped, and BERTScore F1 computed with numpy in the test (Zhang et al. 2020, Eq. 1).
    import numpy as np
    from sentence_transformers import SentenceTransformer

    from biasaudit.models.st import minilm_path

    texts = ["The woman went to the store.", "A man cooked dinner at home.", "Kids play outside."]
    path = tmp_path / "templates.txt"
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")
    code = main(["calm", "diversity", "--templates-file", str(path), "--json", "--no-cache"])
    assert code == 0
    table = json.loads(capsys.readouterr().out)["tables"]["diversity"]
    row = dict(zip(table["columns"], table["rows"][0], strict=True))
    model = SentenceTransformer(str(minilm_path()), device="cpu")
    special = set(model.tokenizer.all_special_ids)
    mats = []
    for text in texts:
        vectors = model.encode([text], output_value="token_embeddings")[0].numpy()
        ids = model.tokenizer(text)["input_ids"]
        keep = np.array([i not in special for i in ids])
        unit = vectors[keep] / np.linalg.norm(vectors[keep], axis=1, keepdims=True)
        mats.append(unit)
    f1s = []
    for i in range(3):
        for j in range(i + 1, 3):
            sims = mats[i] @ mats[j].T
            r, p = sims.max(axis=1).mean(), sims.max(axis=0).mean()
            f1s.append(2 * p * r / (p + r))
    assert row["n"] == 3
    assert row["similarity"] == pytest.approx(float(np.mean(f1s)), abs=1e-5)
