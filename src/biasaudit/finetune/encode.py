"""Conversations as token ids with a loss mask on the assistant turns.

The conversation is rendered the way the `hf` backend renders a chat request at evaluation
time: with the tokenizer's chat template, or, for a tokenizer without one, as the plain
"System: / User: / Assistant:" transcript (where the backend's stop strings end a reply, so no
EOS is learned). The tokens of an assistant turn are those that rendering the
conversation up to and including that turn adds to the rendering up to the turn's generation
prompt; every other token has label -100 (no loss). A template whose shorter rendering is not
a prefix of the longer one cannot be masked this way and is refused.

A plain-text example (one message of role ``text``) is the tokenizer's special prefix (as
the `hf` backend prefixes a log-likelihood request) and the text, every text token learned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from biasaudit.errors import DataError
from biasaudit.finetune.data import TEXT, Messages
from biasaudit.models.hf import special_prefix
from biasaudit.models.transcript import ROLE_LABELS, render_transcript
from biasaudit.requests import Message

IGNORE = -100


@dataclass(frozen=True)
class Encoded:
    input_ids: list[int]
    labels: list[int]  # IGNORE where the token is not learned

    @property
    def n_learned(self) -> int:
        return sum(label != IGNORE for label in self.labels)


def _transcript(messages: Messages, generation_prompt: bool) -> str:
    """The hf backend's transcript (`render_transcript`), or the same with the reply."""
    if generation_prompt:
        return render_transcript([Message.model_validate(m) for m in messages])
    return "\n\n".join(f"{ROLE_LABELS[m['role']]}: {m['content'].strip()}" for m in messages)


class ChatEncoder:
    """Token ids and labels of conversations for one tokenizer."""

    def __init__(self, tokenizer: Any, max_length: int) -> None:
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.templated = bool(getattr(tokenizer, "chat_template", None))
        self.prefix = special_prefix(tokenizer)  # as the hf backend prefixes a transcript

    def _ids(self, messages: Messages, generation_prompt: bool) -> list[int]:
        if self.templated:
            text = self.tokenizer.apply_chat_template(
                messages, add_generation_prompt=generation_prompt, tokenize=False
            )
            return list(self.tokenizer(str(text), add_special_tokens=False)["input_ids"])
        body = _transcript(messages, generation_prompt)
        return self.prefix + list(self.tokenizer(body, add_special_tokens=False)["input_ids"])

    def encode(self, messages: Messages, where: str = "example") -> Encoded:
        if len(messages) == 1 and messages[0]["role"] == TEXT:
            return self._encode_text(messages[0]["content"], where)
        ids: list[int] = []
        labels: list[int] = []
        for i, message in enumerate(messages):
            if message["role"] != "assistant":
                continue
            before = self._ids(messages[:i], generation_prompt=True)
            after = self._ids(messages[: i + 1], generation_prompt=False)
            if after[: len(before)] != before or before[: len(ids)] != ids:
                raise DataError(
                    f"{where}: the chat template does not render turn {i} as a continuation "
                    "of the previous turns; its assistant tokens cannot be masked"
                )
            labels += [IGNORE] * (len(before) - len(ids)) + after[len(before) :]
            ids = after
        ids, labels = ids[: self.max_length], labels[: self.max_length]
        if not any(label != IGNORE for label in labels):
            raise DataError(f"{where}: no assistant token left within max_length={self.max_length}")
        return Encoded(ids, labels)

    def _encode_text(self, text: str, where: str) -> Encoded:
        """The special prefix and the text, every text token learned (see the docstring)."""
        body = list(self.tokenizer(text, add_special_tokens=False)["input_ids"])
        ids = (self.prefix + body)[: self.max_length]
        labels = [IGNORE] * min(len(self.prefix), len(ids)) + ids[len(self.prefix) :]
        if not any(label != IGNORE for label in labels):
            raise DataError(f"{where}: no text token within max_length={self.max_length}")
        return Encoded(ids, labels)

    def encode_all(self, examples: Sequence[Messages]) -> list[Encoded]:
        return [self.encode(m, f"example {n}") for n, m in enumerate(examples, start=1)]
