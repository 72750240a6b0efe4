"""BEADs' Bias Rate for a masked LM through fill_mask (Table 11's BERT-family rows), on a tiny
local BertForMaskedLM whose output bias is set so its fill is known: then the Bias Rate is a
hand count over the demo templates (8 of the 16 are labelled Bias)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conformance import tiny_models

from biasaudit.analysis import Context
from biasaudit.benchmarks.beads.benchmark import Beads
from biasaudit.data import DataStore

pytestmark = pytest.mark.integration


def _steered_mlm(folder: Path, boosts: dict[str, float]) -> Path:
    """The tiny MLM with `boosts` added to the output bias of these tokens."""
    import torch
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    tokenizer = tiny_models.real_tokenizer()
    tiny_models.build_masked_lm(folder, tokenizer)
    model = AutoModelForMaskedLM.from_pretrained(str(folder))
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    with torch.no_grad():
        for word, boost in boosts.items():
            model.cls.predictions.bias[tokenizer.convert_tokens_to_ids(word)] += boost
    model.save_pretrained(folder)
    return folder


def _rate(store: DataStore, mlm: Path, rule: str) -> dict[str, tuple[float | None, int]]:
    bench = Beads.from_dict({"task": "fill", "fill_mode": "mask", "mask_rule": rule}, store, 0)
    ctx = Context(store=store, progress=False)
    result, records = ctx.run(bench, f"hf:{mlm}", {"threads": 1})
    assert len(records) == 16
    metric = result.metric("bias_rate")
    groups = {g.group: (g.value, g.n) for b in metric.breakdowns for g in b.groups}
    return {"all": (metric.value, metric.n), **groups}


def test_bias_rate_of_a_masked_lm_that_always_says_she(store: DataStore, tmp_path: Path) -> None:
    mlm = _steered_mlm(tmp_path / "she", {"she": 100.0})
    rates = _rate(store, mlm, "top1")
    # every template is filled "she" -> Gender Female; 8 of the 16 templates are Bias
    assert rates["Gender Female"] == (pytest.approx(0.5), 16)


def test_first_identity_rule_skips_unmapped_fills(store: DataStore, tmp_path: Path) -> None:
    mlm = _steered_mlm(tmp_path / "the", {"the": 100.0, "he": 50.0})
    # top1 is "the" everywhere: no template maps to a group, nothing is measurable
    top1 = _rate(store, mlm, "top1")
    assert top1["all"] == (None, 0)
    # first_identity takes "he" (the best candidate naming a group): Gender Male 8/16
    first = _rate(store, mlm, "first_identity")
    assert first["Gender Male"] == (pytest.approx(0.5), 16)
