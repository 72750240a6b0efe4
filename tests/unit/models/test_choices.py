"""Constrained answers without a model: the GBNF grammar text, the token trie of the logits
mask, the final check, and the request hash (expected values written by hand)."""

from __future__ import annotations

import hashlib
import json

import pytest

from biasaudit.models.choices import (
    ChoiceTrie,
    checked_choice,
    gbnf,
    guided_choice_problem,
    longest_bytes,
    token_budget,
)
from biasaudit.requests import (
    Capability,
    GenerateRequest,
    GenerationParams,
    Message,
    Response,
    request_key,
)


def test_gbnf_escapes_quotes_backslashes_and_control_characters() -> None:
    grammar = gbnf(["A", 'say "hi"', "back\\slash", "two\nlines\ttab", "bell\x07", "ünï"])
    assert grammar == (
        'root ::= "A" | "say \\"hi\\"" | "back\\\\slash" | "two\\nlines\\ttab" | '
        '"bell\\x07" | "ünï"\n'
    )
    with pytest.raises(ValueError):
        gbnf([])


def test_llama_cpp_parses_the_escaped_grammar() -> None:
    llama_grammar = pytest.importorskip("llama_cpp").LlamaGrammar
    grammar = gbnf(['say "hi"', "back\\slash", "two\nlines", "Can't be determined", "ünï"])
    assert llama_grammar.from_string(grammar, verbose=False) is not None


def test_trie_allows_only_continuations_and_eos_after_a_whole_choice() -> None:
    eos = 99
    # choices (as token ids): [1, 2], [1, 3, 4], [5]; [1, 2] is also a prefix of nothing
    trie = ChoiceTrie([[1, 2], [1, 3, 4], [5]], {eos})
    assert trie.allowed([]) == {1, 5}
    assert trie.allowed([1]) == {2, 3}
    assert trie.allowed([1, 2]) == {eos}
    assert trie.allowed([1, 3]) == {4}
    assert trie.allowed([5]) == {eos}
    assert trie.allowed([7]) == set()  # left the trie (a finished row): no constraint
    assert trie.longest == 3
    # a choice that is a prefix of another: both the end and the continuation are allowed
    assert ChoiceTrie([[1], [1, 2]], {eos}).allowed([1]) == {2, eos}
    assert trie.match([1, 3, 4, eos, 0, 0]) == 1
    assert trie.match([1, 3, eos]) is None


def test_token_budget_and_bytes() -> None:
    assert token_budget(1, 3) == 5 and token_budget(48, 3) == 48
    assert longest_bytes(["A", "ünï"]) == 5  # ü and ï are two bytes each


def test_checked_choice_turns_anything_else_into_an_error() -> None:
    ok = checked_choice("No", ("Yes", "No"), "stop")
    assert (ok.text, ok.error) == ("No", None)
    for text in ("no", "No.", " No", None):
        assert checked_choice(text, ("Yes", "No"), "length").error is not None


def test_guided_choice_problem_names_the_server() -> None:
    url = "http://127.0.0.1:1/v1"
    answered = Response(kind=Capability.GENERATE, text="zebra-7")
    assert guided_choice_problem(url, answered, ("zebra-7", "quokka-3")) is None
    ignored = Response(kind=Capability.GENERATE, text="A cat.")
    assert guided_choice_problem(url, ignored, ("zebra-7", "quokka-3")) == (
        f"the server at {url} ignored guided_choice: asked to pick one of "
        "['zebra-7', 'quokka-3'], it answered 'A cat.'"
    )
    refused = Response(kind=Capability.GENERATE, error="HTTP 400: unknown field")
    assert "refused guided_choice (HTTP 400: unknown field)" in str(
        guided_choice_problem(url, refused, ("zebra-7", "quokka-3"))
    )


def test_request_hash_free_unchanged_and_constrained_apart() -> None:
    messages = (Message(role="user", content="Is it? Answer yes or no."),)
    params = GenerationParams(max_tokens=4)
    free = GenerateRequest(messages=messages, params=params)
    # the hash a free request had before `choices` existed: sorted-key JSON of its fields
    before = {
        "kind": "generate",
        "messages": [{"role": "user", "content": "Is it? Answer yes or no."}],
        "prompt": None,
        "params": {"temperature": 0.0, "max_tokens": 4, "top_p": 1.0, "stop": [], "seed": 0},
    }
    payload = json.dumps(before, sort_keys=True, ensure_ascii=False).encode()
    assert request_key(free) == hashlib.sha256(payload).hexdigest()
    constrained = GenerateRequest(messages=messages, params=params, choices=("Yes", "No"))
    assert request_key(constrained) != request_key(free)
    assert request_key(constrained) != request_key(
        GenerateRequest(messages=messages, params=params, choices=("No", "Yes"))
    )


@pytest.mark.parametrize("choices", [("Yes",), ("Yes", "Yes"), ("Yes", "")])
def test_choices_need_two_distinct_non_empty_answers(choices: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        GenerateRequest(prompt="x", choices=choices)
