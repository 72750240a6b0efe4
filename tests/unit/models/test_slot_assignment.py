"""Slot assignment of the batched llama.cpp decoder (pure functions, no model)."""

from __future__ import annotations

from biasaudit.models.llamacpp.slots import assign_slots, common_prefix


def test_common_prefix() -> None:
    assert common_prefix([1, 2, 3], [1, 2, 4, 5]) == 2
    assert common_prefix([], [1]) == 0
    assert common_prefix([1, 2], [1, 2]) == 2


def test_each_prompt_goes_to_the_slot_holding_its_conversation() -> None:
    cached = [[9, 9], [1, 2, 3, 4], [1, 2, 7], []]
    # prompt 0 continues slot 1 (4 shared), prompt 1 continues slot 2 (3 shared);
    # prompt 2 shares 2 tokens with slots 1 and 2, both taken: it gets slot 0 (no
    # shared prefix, first free in order), not slot 3
    prompts = [[1, 2, 3, 4, 5], [1, 2, 7, 8], [1, 2, 5]]
    assert assign_slots(cached, prompts) == [1, 2, 0]


def test_slots_are_distinct_even_for_equal_prompts() -> None:
    assert assign_slots([[5, 6], [5, 6], [0]], [[5, 6, 7], [5, 6, 7]]) == [0, 1]
