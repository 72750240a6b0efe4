"""The BBNLI-next pipeline end to end on one released subtopic, with tiny local models.

A 2-layer BertForMaskedLM and four 2-layer NLI classifiers with random weights (the real
MiniLM WordPiece tokenizer, tests/conformance/tiny_models.py): their fills and labels mean
nothing; the mechanics (requests through the engine and cache, stage files, manifest counts,
pairing, resumability) are what is checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.conformance import tiny_models

from biasaudit.analysis import Context, analysis_of
from biasaudit.benchmarks.bbnli.benchmark import BBNLI
from biasaudit.data import DataStore

pytestmark = pytest.mark.integration
torch = pytest.importorskip("torch")


def _classifier(folder: Path, tokenizer: Any, seed: int, order: list[str]) -> Path:
    from transformers import BertForSequenceClassification

    torch.manual_seed(seed)
    labels = dict(enumerate(order))
    config = tiny_models._bert_config(
        tokenizer, num_labels=3, id2label=labels, label2id={v: k for k, v in labels.items()}
    )
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("bbnli-tiny")
    tokenizer = tiny_models.real_tokenizer()
    orders = [
        ["entailment", "neutral", "contradiction"],  # ynie order
        ["CONTRADICTION", "NEUTRAL", "ENTAILMENT"],  # BBNLI / mnli order, upper case
        ["contradiction", "entailment", "neutral"],  # cross-encoder order
        ["entailment", "neutral", "contradiction"],
    ]
    out = {"mlm": "hf:" + str(tiny_models.build_masked_lm(folder / "mlm", tokenizer))}
    for i, order in enumerate(orders):
        out[f"nli{i}"] = "hf:" + str(
            _classifier(folder / f"nli{i}", tokenizer, seed=i + 1, order=order)
        )
    return out


def _analysis(name: str, args: dict[str, Any], ctx: Context) -> Any:
    analysis = analysis_of("bbnli", name)
    return analysis.run(analysis.Args(**args), ctx)


def test_pipeline_end_to_end(models: dict[str, str], store: DataStore, tmp_path: Path) -> None:
    ctx = Context(
        store=store, output_dir=tmp_path / "out", progress=False, cache_path=tmp_path / "c.db"
    )
    one = {"threads": 1}
    gen = _analysis(
        "extend-generate",
        {
            "mlm": models["mlm"],
            "mlm_args": one,
            "top_k": 3,
            "subtopics": ["jewish woman is to kids"],
        },
        ctx,
    )
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    masked = manifest["generate"]["masked_samples"]["all"]
    generated = manifest["generate"]["generated"]["all"]
    assert masked > 0 and 0 < generated <= 3 * masked
    assert gen.files
    filt = _analysis(
        "extend-filter",
        {
            "filter_models": [models["nli0"], models["nli1"], models["nli2"]],
            "held_out": [models["nli3"]],
            "model_args": one,
        },
        ctx,
    )
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    kept = manifest["filter"]["kept"]["all"]
    table12 = manifest["filter"]["mispredicted (Table 12)"]
    # the filter keeps exactly the samples some filter model mispredicts
    rows = [json.loads(line) for line in (tmp_path / "out" / "filtered.jsonl").open()]
    assert len(rows) == kept
    filters = [models["nli0"], models["nli1"], models["nli2"]]
    assert all(any(r["predictions"][m] != "neutral" for m in filters) for r in rows)
    assert kept <= sum(table12[m]["all"] for m in filters)
    assert "CONTENT WARNING" in " ".join(filt.notes)
    fin = _analysis("extend-finish", {"accept_all": True}, ctx)
    final = [json.loads(line) for line in (tmp_path / "out" / "bbnli_next.jsonl").open()]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["finish"]["final (Table 3 layout)"]["all"] == len(final)
    assert len(final) % 2 == 0 and fin.files
    pairs: dict[str, list[dict[str, Any]]] = {}
    for record in final:
        pairs.setdefault(record["pair_id"], []).append(record)
    for members in pairs.values():
        assert sorted(m["stance"] for m in members) == ["anti", "pro"]
        assert members[0]["premise"] == members[1]["premise"]
    assert len({(r["premise"], r["hypothesis"]) for r in final}) == len(final)

    # a re-run of a stage is served from the cache (no model calls): same outputs
    before = (tmp_path / "out" / "filtered.jsonl").read_bytes()
    _analysis(
        "extend-filter",
        {"filter_models": filters, "held_out": [models["nli3"]], "model_args": one},
        ctx,
    )
    assert (tmp_path / "out" / "filtered.jsonl").read_bytes() == before

    # evaluating the extended file: the A.6 / counterfactual identity on a real run
    bench = BBNLI.from_dict({"data_file": str(tmp_path / "out" / "bbnli_next.jsonl")}, store)
    result, _ = ctx.run(bench, models["nli3"], one)
    values = {m.name: m.value for m in result.metrics}
    assert values["a6_pro"] == pytest.approx(values["cf_pro"] + values["cf_error"] / 2)
    assert values["a6_anti"] == pytest.approx(values["cf_anti"] + values["cf_error"] / 2)
    assert values["cf_pro"] + values["cf_anti"] + values["cf_error"] == pytest.approx(
        1 - values["accuracy"]
    )
