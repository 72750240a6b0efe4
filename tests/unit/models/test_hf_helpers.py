"""Pure helpers of the hf backend: word grouping, sampling, stopping, padding, projection."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from biasaudit.errors import BackendError, BiasauditError, UnknownNameError
from biasaudit.models.hf import HFArgs, HFBackend, detect_task, resolve_source, word_groups
from biasaudit.requests import GenerationParams

torch = pytest.importorskip("torch")
_torch_utils = pytest.importorskip("biasaudit.models.hf.torch_utils")


def test_reading_capabilities_does_not_import_torch() -> None:
    code = (
        "import sys; from biasaudit.models.hf import HFBackend; "
        "from biasaudit.models.st import SentenceTransformerBackend as S; "
        "HFBackend.possible_capabilities, S.possible_capabilities; "
        "print(any(m in sys.modules for m in ('torch', 'transformers', 'sentence_transformers')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
    assert {c.value for c in HFBackend.possible_capabilities} == {
        "loglikelihood",
        "generate",
        "pseudo_loglikelihood",
        "classify",
        "fill_mask",
    }


# -- word grouping ----------------------------------------------------------------------


def test_word_groups_join_subword_tokens() -> None:
    text = "unbelievably tired nurses"
    # un ##believ ##ably | tired | nurse ##s, as (start, end) character spans
    offsets = [(0, 2), (2, 8), (8, 12), (13, 18), (19, 24), (24, 25)]
    assert word_groups(offsets, range(6), text) == [[0, 1, 2], [3], [4, 5]]


def test_word_groups_skip_unscored_positions() -> None:
    text = "a b"
    offsets = [(0, 0), (0, 1), (2, 3), (0, 0)]  # [CLS] a b [SEP]
    assert word_groups(offsets, [1, 2], text) == [[1], [2]]


def test_whitespace_only_tokens_join_the_next_word_or_the_last() -> None:
    text = "a  b "
    # "a", a lone "▁" token spanning the double space, "b", and a trailing space token
    offsets = [(0, 1), (1, 3), (3, 4), (4, 5)]
    assert word_groups(offsets, range(4), text) == [[0], [1, 2, 3]]


def test_punctuation_stays_with_its_whitespace_word() -> None:
    text = "can't stop."
    offsets = [(0, 3), (3, 4), (4, 5), (6, 10), (10, 11)]  # can ' t stop .
    assert word_groups(offsets, range(5), text) == [[0, 1, 2], [3, 4]]


# -- spec and args ----------------------------------------------------------------------


def test_missing_local_folder_is_a_backend_error(tmp_path: Path) -> None:
    with pytest.raises(BackendError, match="model folder not found"):
        resolve_source(str(tmp_path / "nope"), HFArgs())
    with pytest.raises(BackendError, match="needs a model"):
        resolve_source("", HFArgs())
    with pytest.raises(BackendError, match="GGUF file not found"):
        resolve_source(str(tmp_path), HFArgs(gguf_file="missing.gguf"))
    (tmp_path / "weights.bin").write_bytes(b"")
    with pytest.raises(BackendError, match="is a file"):
        resolve_source(str(tmp_path / "weights.bin"), HFArgs())


def test_sources_resolve_to_folder_and_gguf_name(tmp_path: Path) -> None:
    gguf = tmp_path / "model.Q4.gguf"
    gguf.write_bytes(b"GGUF")
    source = resolve_source(str(gguf), HFArgs())
    assert (source.name_or_path, source.gguf_file, source.local) == (
        str(tmp_path.resolve()),
        "model.Q4.gguf",
        True,
    )
    hub = resolve_source("org/model", HFArgs(revision="main"))
    assert (hub.name_or_path, hub.local) == ("org/model", False)
    embedded = resolve_source("embedded", HFArgs())
    assert embedded.gguf_file == "SmolLM2-135M-Instruct.Q4_1.gguf"


def test_unknown_and_invalid_args_are_named() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'dtype'"):
        HFBackend("org/model", dtyp="float16")
    with pytest.raises(BiasauditError, match="dtype"):
        HFBackend("org/model", dtype="float64")
    with pytest.raises(BiasauditError, match="threads"):
        HFBackend("org/model", threads=0)


def test_task_is_detected_from_the_architecture() -> None:
    from transformers import BertConfig, LlamaConfig

    assert detect_task(BertConfig(architectures=["BertForMaskedLM"])) == "masked"
    assert detect_task(BertConfig(architectures=["BertForSequenceClassification"])) == "classifier"
    assert detect_task(LlamaConfig(architectures=["LlamaForCausalLM"])) == "causal"
    assert detect_task(LlamaConfig()) == "causal"  # GGUF-style config without architectures
    with pytest.raises(BackendError, match="task=causal"):
        detect_task(BertConfig(architectures=["BertModel"]))


# -- sampling and stopping -------------------------------------------------------------------


def _draws(logits: list[float], temperature: float, top_p: float, n: int = 200) -> set[int]:
    generator = torch.Generator().manual_seed(0)
    tensor = torch.tensor(logits)
    return {_torch_utils.sample_token(tensor, temperature, top_p, generator) for _ in range(n)}


def test_top_p_keeps_the_smallest_prefix_reaching_p() -> None:
    logits = torch.log(torch.tensor([0.5, 0.3, 0.2])).tolist()
    assert _draws(logits, 1.0, 0.5) == {0}  # 0.5 alone reaches p
    assert _draws(logits, 1.0, 0.6) == {0, 1}  # the crossing token is kept
    assert _draws(logits, 1.0, 1.0) == {0, 1, 2}
    assert _draws(logits, 0.01, 1.0) == {0}  # near-zero temperature is greedy


def test_row_sampler_is_seeded_per_row_and_leaves_greedy_rows() -> None:
    params = [GenerationParams(), GenerationParams(temperature=1.0, seed=5)]
    scores = torch.zeros((2, 10))
    scores[0, 3] = 1.0
    out = _torch_utils.RowSampler(params, torch.device("cpu"))(None, scores.clone())
    assert out[0].argmax() == 3 and torch.isfinite(out[0]).all()
    chosen = int(out[1].argmax())
    assert torch.isinf(out[1]).sum() == 9
    again = _torch_utils.RowSampler(params[1:], torch.device("cpu"))(None, torch.zeros((1, 10)))
    assert int(again[0].argmax()) == chosen


def _decode(tokens: list[int]) -> str:
    return "".join(chr(ord("a") + t) for t in tokens)


def test_finish_generation_cuts_at_eos_limit_and_first_stop() -> None:
    eos = {25}
    assert _torch_utils.finish_generation([0, 1, 25, 2], eos, 10, (), _decode) == ("ab", "stop")
    assert _torch_utils.finish_generation([0, 1, 2, 3], eos, 3, (), _decode) == ("abc", "length")
    assert _torch_utils.finish_generation([0, 1, 2, 3], eos, 4, ("d", "bc"), _decode) == (
        "a",
        "stop",
    )
    assert _torch_utils.finish_generation([0, 1], eos, 0, (), _decode) == ("", "length")


def test_row_stopper_applies_each_rows_limit_and_stops() -> None:
    stopper = _torch_utils.RowStopper(2, [3, 5, 5], [(), ("c",), ("z",)], _decode)
    ids = torch.tensor([[9, 9, 0, 1], [9, 9, 1, 2], [9, 9, 0, 1]])
    assert stopper(ids, None).tolist() == [False, True, False]
    longer = torch.cat([ids, ids[:, -1:]], dim=1)
    assert stopper(longer, None).tolist() == [True, True, False]


def test_pad_batch_pads_right_or_left() -> None:
    ids, mask = _torch_utils.pad_batch([[1, 2, 3], [4]], 0, torch.device("cpu"))
    assert ids.tolist() == [[1, 2, 3], [4, 0, 0]] and mask.tolist() == [[1, 1, 1], [1, 0, 0]]
    ids, mask = _torch_utils.pad_batch([[1, 2, 3], [4]], 0, torch.device("cpu"), left=True)
    assert ids.tolist() == [[1, 2, 3], [0, 0, 4]] and mask.tolist() == [[1, 1, 1], [0, 0, 1]]


# -- projection at selected positions -------------------------------------------------------


@pytest.mark.parametrize("kind", ["masked", "causal"])
def test_logits_at_equals_the_full_projection(kind: str) -> None:
    from transformers import BertConfig, BertForMaskedLM, LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    if kind == "masked":
        model = BertForMaskedLM(
            BertConfig(
                vocab_size=50,
                hidden_size=16,
                num_hidden_layers=1,
                num_attention_heads=2,
                intermediate_size=32,
            )
        )
    else:
        model = LlamaForCausalLM(
            LlamaConfig(
                vocab_size=50,
                hidden_size=16,
                intermediate_size=32,
                num_hidden_layers=1,
                num_attention_heads=2,
            )
        )
    model.eval()
    ids = torch.randint(0, 50, (3, 7))
    inputs = {"input_ids": ids, "attention_mask": torch.ones_like(ids)}
    rows, cols = torch.tensor([0, 2, 2, 1]), torch.tensor([6, 0, 3, 3])
    with torch.no_grad():
        full = model(**inputs).logits[rows, cols]
    selected = _torch_utils.logits_at(model, inputs, rows, cols)
    assert selected.shape == (4, 50)
    assert torch.allclose(selected, full, atol=1e-5)
    assert not model.get_output_embeddings()._forward_pre_hooks  # the hook is removed
