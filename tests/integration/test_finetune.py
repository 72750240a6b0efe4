"""LoRA fine-tuning on a tiny local Llama (random weights, real WordPiece tokenizer): the loss
mask, the first loss against a hand-computed cross-entropy, reproducibility to the byte,
resuming, reuse, and the merged model served by the hf backend."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from tests.conformance import tiny_models

from biasaudit.errors import RunError
from biasaudit.finetune import LoraSettings, finetune
from biasaudit.finetune.encode import IGNORE, ChatEncoder

pytestmark = pytest.mark.integration

EXAMPLES = [
    [
        {"role": "system", "content": "Judge each step."},
        {"role": "user", "content": f"Step {i}: is this appropriate?"},
        {"role": "assistant", "content": "yes" if i % 2 else "no"},
        {"role": "user", "content": "And now?"},
        {"role": "assistant", "content": "no"},
    ]
    for i in range(6)
]
SETTINGS = LoraSettings(max_steps=4, batch_size=2, save_every=2, dropout=0.1, seed=7)


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiny") / "lm"
    return tiny_models.build_causal_lm(folder, tiny_models.real_tokenizer(), chat_template=True)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _tokenizer(folder: Path) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(folder), local_files_only=True)


def test_only_assistant_tokens_are_learned(tiny_lm: Path) -> None:
    tokenizer = _tokenizer(tiny_lm)
    encoded = ChatEncoder(tokenizer, 256).encode(EXAMPLES[1])
    learned = [
        t for t, label in zip(encoded.input_ids, encoded.labels, strict=True) if label != IGNORE
    ]
    # the template renders "role: content\n"; the two replies are "yes" and "no"
    assert tokenizer.decode(learned) == "yes no"
    assert all(
        label in (IGNORE, token)
        for token, label in zip(encoded.input_ids, encoded.labels, strict=True)
    )
    full = tokenizer.apply_chat_template(EXAMPLES[1], tokenize=False)
    assert encoded.input_ids == tokenizer(full, add_special_tokens=False)["input_ids"]


def test_first_loss_is_the_base_models_cross_entropy(tiny_lm: Path, tmp_path: Path) -> None:
    import torch
    from transformers import AutoModelForCausalLM

    settings = SETTINGS.model_copy(update={"max_steps": 1, "batch_size": 1})
    result = finetune(f"hf:{tiny_lm}", EXAMPLES, tmp_path / "ft", settings, progress=False)
    # LoRA's B starts at zero, so step 1 sees the base model: mean -log p over learned tokens
    from biasaudit.finetune.trainer import batch_order

    [first] = batch_order(len(EXAMPLES), settings)[0]
    encoded = ChatEncoder(_tokenizer(tiny_lm), settings.max_length).encode(EXAMPLES[first])
    model = AutoModelForCausalLM.from_pretrained(str(tiny_lm), local_files_only=True).eval()
    with torch.no_grad():
        logits = model(torch.tensor([encoded.input_ids])).logits[0]
    terms = [
        -torch.log_softmax(logits[i - 1], dim=-1)[token].item()
        for i, token in enumerate(encoded.labels)
        if token != IGNORE
    ]
    assert result.losses[0] == pytest.approx(sum(terms) / len(terms), rel=1e-5)


def test_same_seed_same_adapter_bytes_and_resume(tiny_lm: Path, tmp_path: Path) -> None:
    spec = f"hf:{tiny_lm}"
    one = finetune(spec, EXAMPLES, tmp_path / "a", SETTINGS, progress=False)
    finetune(spec, EXAMPLES, tmp_path / "b", SETTINGS, progress=False)
    adapter = Path("adapter") / "adapter_model.safetensors"
    assert _sha(tmp_path / "a" / adapter) == _sha(tmp_path / "b" / adapter)
    other = finetune(
        spec, EXAMPLES, tmp_path / "c", SETTINGS.model_copy(update={"seed": 8}), progress=False
    )
    assert _sha(tmp_path / "c" / adapter) != _sha(tmp_path / "a" / adapter)
    assert other.losses != one.losses

    # interrupted after 2 of 4 steps, then resumed: the same bytes as the straight run
    part = finetune(spec, EXAMPLES, tmp_path / "d", SETTINGS, progress=False, stop_after=2)
    assert part.provenance.status == "partial" and part.model_spec is None
    assert not (tmp_path / "d" / "model").exists()
    done = finetune(spec, EXAMPLES, tmp_path / "d", SETTINGS, progress=False)
    assert done.provenance.status == "complete" and done.losses == one.losses
    assert _sha(tmp_path / "d" / adapter) == _sha(tmp_path / "a" / adapter)
    assert sorted(p.name for p in (tmp_path / "d" / "checkpoints").iterdir()) == [
        "step-000002",
        "step-000004",
    ]
    # a finished folder is reused without training; another data set is refused
    again = finetune(spec, EXAMPLES, tmp_path / "a", SETTINGS, progress=False)
    assert again.provenance == one.provenance
    with pytest.raises(RunError, match="holds a fine-tune of another"):
        finetune(spec, EXAMPLES[:3], tmp_path / "a", SETTINGS, progress=False)

    record = json.loads((tmp_path / "a" / "provenance.json").read_text())
    assert record["base_sha256"] == one.provenance.base_sha256 and len(record["data_sha256"]) == 64
    assert record["settings"]["seed"] == 7 and record["steps_done"] == 4
    rows = (tmp_path / "a" / "loss.csv").read_text().splitlines()
    assert rows[0] == "step,loss" and len(rows) == 5
    assert (tmp_path / "a" / "loss.svg").read_text().startswith("<svg")


def test_merged_model_is_a_model_spec(tiny_lm: Path, tmp_path: Path) -> None:
    """hf:OUT/model scores like the base model with the adapter applied by peft."""
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    from biasaudit.models import load_backend
    from biasaudit.requests import LoglikelihoodRequest

    result = finetune(f"hf:{tiny_lm}", EXAMPLES, tmp_path / "ft", SETTINGS, progress=False)
    assert result.model_spec == f"hf:{tmp_path / 'ft' / 'model'}"
    backend = load_backend(result.model_spec, {"threads": 1})
    [response] = backend.loglikelihood(
        [LoglikelihoodRequest(context="user: is it fine?\nassistant:", continuation=" yes")]
    )
    tokenizer = _tokenizer(tiny_lm)
    base = AutoModelForCausalLM.from_pretrained(str(tiny_lm), local_files_only=True)
    tuned = PeftModel.from_pretrained(base, str(tmp_path / "ft" / "adapter")).eval()
    context = tokenizer("user: is it fine?\nassistant:")["input_ids"]  # [CLS] ... (BOS)
    context = context[:-1]  # without the trailing [SEP]
    full = tokenizer("user: is it fine?\nassistant: yes")["input_ids"][:-1]
    with torch.no_grad():
        logits = tuned(torch.tensor([full])).logits[0]
    expected = sum(
        torch.log_softmax(logits[i - 1], dim=-1)[full[i]].item()
        for i in range(len(context), len(full))
    )
    assert response.logprob == pytest.approx(expected, abs=1e-4)
    with torch.no_grad(), tuned.disable_adapter():
        plain = tuned(torch.tensor([full])).logits[0]
    untuned = sum(
        torch.log_softmax(plain[i - 1], dim=-1)[full[i]].item()
        for i in range(len(context), len(full))
    )
    assert abs(untuned - expected) > 1e-4  # the adapter changed the model


def test_cli_trains_and_refuses(
    tiny_lm: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from biasaudit.cli.app import main

    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"messages": m}) + "\n" for m in EXAMPLES))
    out = tmp_path / "out"
    argv = ["finetune", "--model", f"hf:{tiny_lm}", "--data", str(data), "-o", str(out), "-q"]
    assert main([*argv, "--lora", "max_steps=2", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (
        printed["analysis"] == "finetune" and len(printed["tables"]["training_loss"]["rows"]) == 2
    )
    assert f"merged model: hf:{out / 'model'}" in printed["notes"]
    assert (
        main(["finetune", "--model", "embedded", "--data", str(data), "-o", str(tmp_path / "x")])
        == 2
    )
    assert "cannot fine-tune 'embedded'" in capsys.readouterr().err


# --- issue 33 item 8 (reliability-3 M3): inputs that were tracebacks ---------------------------


def _data_file(folder: Path, kind: str) -> Path:
    good = "".join(json.dumps({"messages": m}) + "\n" for m in EXAMPLES)
    path = folder / f"{kind}.jsonl"
    if kind == "not-utf8":
        path.write_bytes(b'{"messages": "\xff"}\n')
    elif kind == "utf16":
        path.write_bytes(good.encode("utf-16"))
    elif kind == "deep":
        path.write_text("[" * 200_000 + "]" * 200_000 + "\n")
    else:
        path.write_text(good)
    return path


@pytest.mark.parametrize(
    ("data", "extra", "words"),
    [
        ("not-utf8", [], "not-utf8.jsonl: line 1: not UTF-8"),
        ("utf16", [], "utf16.jsonl: line 1: not UTF-8"),
        ("deep", [], "deep.jsonl: line 1: JSON nested too deeply"),
        ("good", ["--lora", "device=cuda:7"], "--lora device=cuda:7: this machine's torch sees"),
        ("good", ["--lora", "device=nosuch"], "option 'device' for --lora"),
        ("good", ["--lora", 'target_modules=["nosuch"]'], "--lora target_modules=['nosuch']"),
        ("good", ["-o", "A_FILE"], "not a directory (--output names a folder)"),
        ("good", ["-o", "A_FILE/sub"], "cannot create"),
    ],
)
def test_bad_finetune_inputs_are_one_line(
    tiny_lm: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    data: str,
    extra: list[str],
    words: str,
) -> None:
    from biasaudit.cli.app import main

    (tmp_path / "A_FILE").write_text("not a folder")
    extra = [e.replace("A_FILE", str(tmp_path / "A_FILE")) for e in extra]
    out = ["-o", str(tmp_path / "out")] if "-o" not in extra else []
    argv = ["finetune", "--model", f"hf:{tiny_lm}", "--data", str(_data_file(tmp_path, data))]
    assert main([*argv, *out, *extra, "--lora", "max_steps=1", "-q"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "Traceback" not in err[0], err


def test_a_complete_finetune_without_its_loss_csv_is_reused(tiny_lm: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    settings = LoraSettings(max_steps=2, batch_size=2, save_every=1, seed=7)
    first = finetune(f"hf:{tiny_lm}", EXAMPLES, out, settings, progress=False)
    (out / "loss.csv").unlink()  # lost after the fine-tune completed
    again = finetune(f"hf:{tiny_lm}", EXAMPLES, out, settings, progress=False)
    assert again.complete and again.losses == pytest.approx(first.losses, abs=1e-6)
    assert (out / "loss.csv").is_file()  # written back from the last checkpoint


def test_a_plain_text_example_is_learned_as_the_backend_scores_it(
    tiny_lm: Path, tmp_path: Path
) -> None:
    """The first loss of a plain-text fine-tune is the base model's mean -log p of the text
    as the hf backend's log-likelihood computes it (context "": BOS, then the text)."""
    from biasaudit.models import load_backend
    from biasaudit.requests import LoglikelihoodRequest

    text = "the nurse said she was tired"
    example = [{"role": "text", "content": text}]
    settings = SETTINGS.model_copy(update={"max_steps": 1, "batch_size": 1})
    result = finetune(f"hf:{tiny_lm}", [example], tmp_path / "ft", settings, progress=False)
    backend = load_backend(f"hf:{tiny_lm}")
    (response,) = backend.loglikelihood([LoglikelihoodRequest(context="", continuation=text)])
    backend.close()
    assert response.logprob is not None and response.n_tokens
    assert result.losses[0] == pytest.approx(-response.logprob / response.n_tokens, rel=1e-4)
