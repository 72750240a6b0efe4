"""BEADs' masked-LM Bias Rate on a real (locally built) masked LM: all-MiniLM-L6-v2 with an
MLM head trained on WordNet glosses by scripts/build_minilm_mlm.py (a small build here).

Oracles: the head must beat the most-frequent-token baseline on held-out glosses (a random
head does not); each template's fill under the first_identity rule is recomputed by loading
the saved model with transformers and walking its top 100 at the mask; the Bias Rate per group
is the hand count of those fills against the gold labels read from the demo CSV with the csv
module.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from biasaudit.analysis import Context
from biasaudit.benchmarks.beads.benchmark import DEMO, Beads
from biasaudit.benchmarks.beads.biasrate import AMBIGUOUS, UNMAPPED, map_fill
from biasaudit.data import DataStore

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
WORDNET = Path("/usr/share/wordnet/data.noun")
TEMPLATES = DEMO / "4-Bias-Quantification-Demographics" / "demographic-template.csv"
#: the small build ranks function words first; its identity words come further down
TOP_K = 100


@pytest.fixture(scope="module")
def mlm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not WORDNET.is_file():
        pytest.skip("WordNet corpus missing: apt-get install wordnet-base")
    out = tmp_path_factory.mktemp("minilm-mlm")
    command = [sys.executable, str(ROOT / "scripts" / "build_minilm_mlm.py"), "--out", str(out)]
    command += ["--texts", "4000", "--held-out", "1000", "--epochs", "4", "--threads", "1"]
    subprocess.run(command, check=True, cwd=ROOT, capture_output=True, timeout=900)
    return out


def test_the_head_learned_to_fill_masks(mlm: Path) -> None:
    report = json.loads((mlm / "build.json").read_text())
    assert report["texts"]["trained"] == 4000
    assert report["held_out_top1_accuracy"] > report["held_out_most_frequent_token_accuracy"]
    config = json.loads((mlm / "config.json").read_text())
    assert config["architectures"] == ["BertForMaskedLM"]


def _naive_fills(mlm: Path, templates: list[str], top_k: int) -> list[str | None]:
    """Per template, the most probable of the top `top_k` word-pieces at the mask that names
    an identity group (App. C.2's "'She' or 'He'"; the first_identity rule), else None."""
    import torch
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(mlm))
    model = AutoModelForMaskedLM.from_pretrained(str(mlm)).eval()
    fills: list[str | None] = []
    for template in templates:
        text = template.replace("{identity mention}", tokenizer.mask_token)
        encoded = tokenizer(text, return_tensors="pt")
        at = encoded["input_ids"][0].tolist().index(tokenizer.mask_token_id)
        with torch.no_grad():
            logits = model(**encoded).logits[0, at]
        ranked = [str(tokenizer.convert_ids_to_tokens(int(i))) for i in logits.topk(top_k).indices]
        words = [t.removeprefix("##") for t in ranked]
        fills.append(next((w for w in words if map_fill(w) not in {UNMAPPED, AMBIGUOUS}), None))
    return fills


def test_bias_rate_of_the_local_masked_lm(mlm: Path, store: DataStore) -> None:
    with TEMPLATES.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    fills = _naive_fills(mlm, [r["text"] for r in rows], top_k=TOP_K)
    biased: dict[str, list[int]] = defaultdict(list)
    for fill, row in zip(fills, rows, strict=True):
        if fill is not None:
            biased[map_fill(fill)].append(int(row["label"] == "Bias"))
    assert biased, f"no template got an identity fill among the top {TOP_K}: nothing to compare"

    options = {
        "task": "fill",
        "fill_mode": "mask",
        "mask_rule": "first_identity",
        "mask_top_k": TOP_K,
    }
    bench = Beads.from_dict(options, store, 0)
    result, records = Context(store=store, progress=False).run(bench, f"hf:{mlm}", {"threads": 1})
    assert [r.scores["fills"] for r in records] == [[f] if f else [] for f in fills]
    metric = result.metric("bias_rate")
    assert metric.n == sum(len(v) for v in biased.values())
    groups = {g.group: (g.value, g.n) for b in metric.breakdowns for g in b.groups if g.n}
    expected = {g: (pytest.approx(sum(v) / len(v)), len(v)) for g, v in biased.items()}
    assert groups == expected
