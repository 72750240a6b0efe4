"""Constrained answers: make a backend return exactly one of a closed set of answers.

A `GenerateRequest` with `choices` (``-O answer_mode=constrained``) asks for one of them and
nothing else. Each backend constrains decoding its own way:

- llama.cpp (`embedded`, `gguf`): a GBNF grammar whose root is the alternation of the
  choices as string literals (`gbnf`), passed to llama-cpp-python as a ``LlamaGrammar``;
- transformers (`hf`): a logits mask over the choices' token sequences (`ChoiceTrie`: after
  the tokens generated so far, only a token that continues some choice, or end-of-sequence
  once a whole choice is out, keeps its score);
- OpenAI-compatible servers: vLLM's ``guided_choice`` request field, probed once before the
  run (`probe_guided_choice`), refused in one line when the server ignores or rejects it.

`checked_choice` is the last guard: a reply that is not exactly one choice (a token budget
too small, a server that ignored the constraint) becomes an error, never an answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from biasaudit.requests import Capability, Response

#: Extra tokens allowed beyond the longest choice (the end-of-sequence token, and slack).
TOKEN_SLACK = 2

#: Answers no unconstrained model would give, so a server that ignores the field is caught.
PROBE_CHOICES = ("zebra-7", "quokka-3")


def _literal(text: str) -> str:
    """`text` as a GBNF string literal: backslash, quote and control characters escaped;
    other characters (any Unicode) stay as they are (GBNF literals are UTF-8)."""
    out = []
    for char in text:
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\r":
            out.append("\\r")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\x{ord(char):02X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def gbnf(choices: Sequence[str]) -> str:
    """A GBNF grammar that accepts exactly the strings in `choices`."""
    if not choices:
        raise ValueError("a grammar needs at least one choice")
    return "root ::= " + " | ".join(_literal(c) for c in choices) + "\n"


class ChoiceTrie:
    """The token sequences of the choices, for a logits mask (transformers' `hf` backend)."""

    def __init__(self, sequences: Sequence[Sequence[int]], eos_ids: set[int]) -> None:
        if not sequences or any(not s for s in sequences):
            raise ValueError("every choice needs at least one token")
        self.sequences = [tuple(s) for s in sequences]
        self.eos_ids = set(eos_ids)

    @property
    def longest(self) -> int:
        return max(len(s) for s in self.sequences)

    def allowed(self, generated: Sequence[int]) -> set[int]:
        """Tokens that may follow `generated`: the next token of every choice it starts, and
        end-of-sequence when it is a whole choice. Empty when `generated` left the trie (a
        finished row: the caller leaves its scores alone)."""
        done = tuple(generated)
        n = len(done)
        allowed = {s[n] for s in self.sequences if len(s) > n and s[:n] == done}
        if done in self.sequences:
            allowed |= self.eos_ids
        return allowed

    def match(self, generated: Sequence[int]) -> int | None:
        """Index of the choice `generated` spells (up to its end-of-sequence token), or None.
        Read from the tokens, not the decoded text: a lower-casing tokenizer would not give
        "Yes" back."""
        kept: list[int] = []
        for token in generated:
            if token in self.eos_ids:
                break
            kept.append(token)
        done = tuple(kept)
        return self.sequences.index(done) if done in self.sequences else None


def token_budget(max_tokens: int, longest_choice: int) -> int:
    """Enough new tokens to finish the longest choice, whatever the request's max_tokens."""
    return max(max_tokens, longest_choice + TOKEN_SLACK)


def checked_choice(text: str | None, choices: Sequence[str], finish_reason: str | None) -> Response:
    """The response for a constrained reply: the choice itself, or an error saying why not."""
    if text is not None and text in choices:
        return Response(kind=Capability.GENERATE, text=text, finish_reason=finish_reason)
    return Response(
        kind=Capability.GENERATE,
        error=f"constrained reply {text!r} is not one of the choices {list(choices)}",
    )


def llama_grammar_args(choices: Sequence[str], max_tokens: int) -> dict[str, Any]:
    """llama-cpp-python arguments that constrain one completion to `choices`: the grammar
    and a token budget that fits the longest choice however it is split into tokens (the
    grammar may take a choice in pieces smaller than its usual tokens, down to single bytes,
    so the budget is its UTF-8 length)."""
    from llama_cpp import LlamaGrammar

    return {
        "grammar": LlamaGrammar.from_string(gbnf(choices), verbose=False),
        "max_tokens": token_budget(max_tokens, longest_bytes(choices)),
    }


def longest_bytes(choices: Sequence[str]) -> int:
    """UTF-8 length of the longest choice: no tokenizer needs more tokens than that."""
    return max(len(c.encode("utf-8")) for c in choices)


#: The probe's question; any unconstrained model answers it with something else.
PROBE_PROMPT = "Name an animal."


def guided_choice_problem(url: str, response: Response, choices: Sequence[str]) -> str | None:
    """Why the server at `url` cannot constrain (from its answer to the probe), or None."""
    if response.error is not None:
        return f"the server at {url} refused guided_choice ({response.error})"
    if response.text not in choices:
        return (
            f"the server at {url} ignored guided_choice: asked to pick one of "
            f"{list(choices)}, it answered {response.text!r}"
        )
    return None
