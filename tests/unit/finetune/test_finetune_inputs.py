"""Fine-tuning inputs without a model: refusals, data readers, the batch order."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from biasaudit.errors import BackendError, DataError
from biasaudit.finetune import LoraSettings, read_examples, trainable_base
from biasaudit.finetune.trainer import batch_order


@pytest.mark.parametrize(
    ("spec", "hint"),
    [
        ("embedded", "fine-tune hf:embedded"),
        ("gguf:/models/x.gguf", "fine-tune hf:PATH.gguf"),
        ("openai:gpt-4o@http://127.0.0.1:8000/v1", "remote server"),
        ("replay:/tmp/r.jsonl", "replayed responses have no model"),
        ("hf:org/some-model", "hub ids are not downloaded"),
    ],
)
def test_untrainable_specs_are_refused_in_one_line(spec: str, hint: str) -> None:
    with pytest.raises(BackendError, match=f"cannot fine-tune '{spec}'.*{hint}") as info:
        trainable_base(spec)
    assert "\n" not in str(info.value)


def test_chat_and_alpaca_records(tmp_path: Path) -> None:
    path = tmp_path / "d.jsonl"
    chat = {"messages": [{"role": "user", "content": "Q?"}, {"role": "assistant", "content": "A"}]}
    alpaca = {"instruction": "Rewrite.", "input": "Biased.", "output": "Fair."}
    no_input = {"instruction": "Say hi.", "input": "", "output": "Hi."}
    path.write_text("\n".join(json.dumps(r) for r in (chat, alpaca, no_input)) + "\n")
    assert read_examples(path) == [
        chat["messages"],
        [
            {"role": "user", "content": "Rewrite.\n\nBiased."},
            {"role": "assistant", "content": "Fair."},
        ],
        [{"role": "user", "content": "Say hi."}, {"role": "assistant", "content": "Hi."}],
    ]
    whole = tmp_path / "d.json"
    whole.write_text(json.dumps([alpaca]))
    assert len(read_examples(whole)) == 1


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"messages": [{"role": "user", "content": "Q"}]}',
            "line 2: field 'messages' has no assistant",
        ),
        ('{"messages": [{"role": "bot", "content": "Q"}]}', r"line 2: field 'messages\[0\].role'"),
        ('{"instruction": "", "output": "x"}', "line 2: field 'instruction'"),
        ('{"prompt": "x"}', "line 2: needs 'messages'"),
        ("{not json", "line 2: invalid JSON"),
    ],
)
def test_bad_records_name_file_line_and_field(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "d.jsonl"
    good = '{"instruction": "I", "output": "O"}'
    path.write_text(good + "\n" + line + "\n")
    with pytest.raises(DataError, match=f"d.jsonl: {message}"):
        read_examples(path)


def test_batch_order_is_seeded_epochs_of_batches() -> None:
    settings = LoraSettings(batch_size=2, epochs=2, seed=3)
    order = batch_order(5, settings)
    # ceil(5 / 2) = 3 batches per epoch, 2 epochs; each epoch is a permutation of 0..4
    assert [len(b) for b in order] == [2, 2, 1, 2, 2, 1]
    assert sorted(i for b in order[:3] for i in b) == [0, 1, 2, 3, 4]
    assert sorted(i for b in order[3:] for i in b) == [0, 1, 2, 3, 4]
    assert batch_order(5, settings) == order
    assert batch_order(5, settings.model_copy(update={"seed": 4})) != order
    assert len(batch_order(5, settings.model_copy(update={"max_steps": 7}))) == 7


def test_plain_text_records_are_one_text_message(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text('{"text": "Nurses are kind."}\n{"text": "  "}\n')
    with pytest.raises(DataError, match="corpus.jsonl: line 2: field 'text' must be a non-empty"):
        read_examples(path)
    path.write_text('{"text": "Nurses are kind."}\n')
    assert read_examples(path) == [[{"role": "text", "content": "Nurses are kind."}]]
