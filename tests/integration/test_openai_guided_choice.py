"""Constrained answers over OpenAI-compatible HTTP, against the loopback fake server.

The fake is not a model: in ``guided`` mode it answers one of the request's ``guided_choice``
entries picked by a hash of the messages (`expected_text`, the oracle); in ``ok`` mode it
ignores the field (a server without guided decoding); in ``strict`` mode it answers an
unknown field with HTTP 400 (OpenAI's own API).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI, expected_text

import biasaudit
from biasaudit.errors import CapabilityError
from biasaudit.models import load_backend
from biasaudit.requests import GenerateRequest, GenerationParams, Message

pytestmark = pytest.mark.integration

QUESTIONS = ["Is it fine? Answer yes or no.", "Which one? A. x B. y", "Pick.", "Again?"]


def _request(question: str, choices: tuple[str, ...] | None) -> GenerateRequest:
    messages = (Message(role="user", content=question),)
    return GenerateRequest(
        messages=messages, params=GenerationParams(max_tokens=2), choices=choices
    )


def test_guided_server_answers_within_the_closed_set() -> None:
    with FakeOpenAI(mode="guided") as server:
        backend = load_backend(f"openai:m@{server.base_url}", {})
        assert backend.choice_support() is None
        requests = [_request(q, ("Yes", "No", "Can't say")) for q in QUESTIONS]
        responses = backend.generate(requests)
        sent = [json.loads(key.split(" ", 1)[1]) for key in server.posts]
        backend.close()
    bodies = [b for b in sent if b.get("guided_choice") == ["Yes", "No", "Can't say"]]
    assert len(bodies) == len(QUESTIONS)
    # the budget fits the longest choice (9 bytes + 2), above the request's max_tokens 2
    assert {b["max_tokens"] for b in bodies} == {11}
    by_question = {b["messages"][0]["content"]: expected_text(b, "guided") for b in bodies}
    for request, response in zip(requests, responses, strict=True):
        assert request.messages is not None
        assert response.error is None
        assert response.text == by_question[request.messages[0].content]


@pytest.mark.parametrize(
    ("mode", "reason"),
    [("ok", "ignored guided_choice: asked to pick one of"), ("strict", "refused guided_choice")],
)
def test_a_server_that_cannot_constrain_is_refused_before_the_run(
    tmp_path: Path, data_dir: Path, mode: str, reason: str
) -> None:
    with FakeOpenAI(mode=mode) as server:
        backend = load_backend(f"openai:m@{server.base_url}", {})
        problem = backend.choice_support()
        backend.close()
        assert problem is not None and reason in problem
        with pytest.raises(CapabilityError, match="answer_mode=constrained: the server at"):
            biasaudit.evaluate(
                "bbnli", f"openai:m@{server.base_url}", data_dir=data_dir, limit=2,
                options={"bbnli": {"protocol": "generative", "answer_mode": "constrained"}},
                output_dir=tmp_path / "out", use_cache=False, progress=False,
            )  # fmt: skip
        # only start-up probes reached the server: no sample's Yes/No request
        bodies = [json.loads(key.split(" ", 1)[1]) for key in server.posts]
        assert [b for b in bodies if b.get("guided_choice") == ["Yes", "No"]] == []
        assert {tuple(b["guided_choice"]) for b in bodies if "guided_choice" in b} == {
            ("zebra-7", "quokka-3")
        }
    # the free mode still runs on the same kind of server
    with FakeOpenAI(mode=mode) as server:
        run = biasaudit.evaluate(
            "bbnli", f"openai:m@{server.base_url}", data_dir=data_dir, limit=2,
            options={"bbnli": {"protocol": "generative"}}, use_cache=False, progress=False,
        )  # fmt: skip
        assert run.benchmarks[0].options["answer_mode"] == "free"
