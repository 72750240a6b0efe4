"""A declarative multiple-choice benchmark (WinoBias) on a real causal LM against an
lm-evaluation-harness-style computation done naively here: one forward pass over context +
option, the option tokens' log-softmax summed (``acc``) and divided by the option's length in
characters (``acc_norm``), the argmax taken. The model is the tiny random llama of
tiny_models (its numbers mean nothing; the pipeline from data to choice is what is checked).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from biasaudit import api
from biasaudit.datasets.files import read_json_lines


def _naive(model: Any, tokenizer: Any, context: str, continuation: str) -> float:
    import torch

    context_ids = tokenizer(context)["input_ids"][:-1]  # [CLS] text, without [SEP]
    option_ids = tokenizer(continuation, add_special_tokens=False)["input_ids"]
    with torch.no_grad():
        logits = model(torch.tensor([context_ids + option_ids])).logits[0].double()
    log_probs = torch.log_softmax(logits, dim=-1)
    start = len(context_ids) - 1
    return float(sum(log_probs[start + i, t] for i, t in enumerate(option_ids)))


@pytest.mark.parametrize("normalisation", ["sum", "per_char"])
def test_winobias_choices_match_a_naive_harness(
    normalisation: str, tiny_causal_lm: Path, tmp_path: Path, data_dir: Path
) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    where = {"split": ["test"], "type": ["1"], "stereotype": ["pro"]}
    run = api.evaluate(
        "winobias",
        f"hf:{tiny_causal_lm}",
        options={"winobias": {"where": where, "normalisation": normalisation}},
        output_dir=tmp_path,
        data_dir=data_dir,
        limit=4,
        progress=False,
        use_cache=False,
    )
    tokenizer = AutoTokenizer.from_pretrained(str(tiny_causal_lm))
    model = AutoModelForCausalLM.from_pretrained(str(tiny_causal_lm)).eval()
    raw = (data_dir / "winobias/pro_stereotyped_type1.txt.test").read_text().splitlines()
    records = read_json_lines(tmp_path / "samples.jsonl")
    assert [r["sample_id"] for r in records] == [f"pro-type1-test-{i}" for i in (1, 2, 3, 4)]
    correct = []
    for line, record in zip(raw, records, strict=False):
        sentence = line.split(" ", 1)[1].replace("[", "").replace("]", "")
        pronoun = line.rsplit("[", 1)[1].split("]")[0] if line.count("[") == 2 else None
        context = record["data"]["context"]
        assert context.startswith(sentence + "\n")  # the template starts with the sentence
        if pronoun:
            assert f'who does "{pronoun.lower()}" refer to?' in context
        values = []
        for option in record["data"]["options"]:
            logprob = _naive(model, tokenizer, context, option)
            values.append(logprob / (len(option) if normalisation == "per_char" else 1))
        chosen = max(range(len(values)), key=values.__getitem__)
        assert record["scores"]["scores"] == pytest.approx(values, abs=1e-4)
        assert record["scores"]["chosen"] == chosen
        correct.append(float(chosen == record["data"]["gold"]))
    assert run.benchmark("winobias").metric("accuracy").value == pytest.approx(sum(correct) / 4)
