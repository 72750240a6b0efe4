"""The second reader: ``-O answer_mode=extract`` (docs/answers.md, "A second reader").

After the free reply (read by the benchmark's text reader, as in ``answer_mode=free``), one
more turn asks the same model for its final answer, constrained to the closed answer set
(`GenerateRequest.choices`: a grammar, a logits mask or a server's guided choice, as
``answer_mode=constrained``). The follow-up is an ordinary request: batched, cached and
stored in samples.jsonl like any other, so `biasaudit score` re-reads it without a model.

The benchmark's measurement stays the text reader's; the extraction only checks it. Each
sample gets three scores:

- ``extracted``: the answer the constrained turn chose (None when it failed);
- ``readers_agree``: 1.0 when the text reader's answer is the extracted one, 0.0 when it is
  another, None when the text reader gave no answer (nothing to check) or the turn failed;
- ``readers``: ``"agree"``, ``"disagree"`` (the sample marked for a person to read),
  ``"text_abstained"`` or ``"no_extraction"``.

The metric `READER_AGREEMENT` (mean of ``readers_agree``, with its interval and n) is in
every run in this mode, and the validity gate ``readers_agree`` fails the benchmark when it
is below `Gates.min_reader_agreement` (0.9): then the text reader, the prompt or the model's
replies are not what the numbers assume, and a person must read the marked samples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from pydantic import BaseModel

from biasaudit.metrics.frame import MetricSpec
from biasaudit.requests import GenerateRequest, GenerationParams, Message
from biasaudit.results.schema import Exchange, SampleRecord, Table

#: The name of the agreement metric (the validity gate looks for it).
READER_AGREEMENT = "reader_agreement"
#: Generous: a backend stops a constrained reply as soon as a whole choice is out.
EXTRACT_MAX_TOKENS = 64


class CheckScores(BaseModel):
    """The check's per-sample scores, for a benchmark's `Scores` model to inherit (absent
    outside extract mode). ``extracted`` is in the benchmark's own terms (an option index,
    a label, a list of per-turn answers)."""

    extracted: Any = None
    readers_agree: float | None = None
    readers: Literal["agree", "disagree", "text_abstained", "no_extraction"] | None = None


def instruction(choices: Sequence[str]) -> str:
    """The follow-up turn's text, naming every answer of the closed set."""
    listed = ", ".join(f'"{c.strip()}"' for c in choices)
    return f"What is your final answer? Reply with exactly one of: {listed}."


def follow_up(first: GenerateRequest, reply: str, choices: Sequence[str]) -> GenerateRequest:
    """The constrained turn after `first` was answered with `reply`.

    A chat request continues the conversation (the reply as the assistant's turn, the
    instruction as the user's); a completion prompt gets the reply, the instruction and
    "Answer: " appended (as CALM's own prompts end). Greedy, with the first request's seed.
    """
    params = GenerationParams(
        temperature=0.0, max_tokens=EXTRACT_MAX_TOKENS, seed=first.params.seed
    )
    if first.messages is not None:
        messages = (
            *first.messages,
            Message(role="assistant", content=reply),
            Message(role="user", content=instruction(choices)),
        )
        return GenerateRequest(messages=messages, params=params, choices=tuple(choices))
    prompt = f"{first.prompt}{reply}\n\n{instruction(choices)}\nAnswer: "
    return GenerateRequest(prompt=prompt, params=params, choices=tuple(choices))


def extract_round(
    exchanges: Sequence[Exchange], n_first: int, choices: Sequence[str] | None
) -> list[GenerateRequest]:
    """The round after the first `n_first` exchanges: one follow-up to the first reply.

    Empty once it was sent, when the first request failed, when it was not a generation or
    when there is no closed set (`choices` None: e.g. CALM's free-form QA).
    """
    if len(exchanges) != n_first or not choices or len(choices) < 2:
        return []
    first = exchanges[0]
    if not isinstance(first.request, GenerateRequest) or not first.response.ok:
        return []
    return [follow_up(first.request, first.response.text or "", choices)]


def extracted(exchanges: Sequence[Exchange], n_first: int) -> str | None:
    """The answer of the constrained turn (exchange `n_first`), None when absent or failed."""
    if len(exchanges) <= n_first:
        return None
    exchange = exchanges[n_first]
    choices = getattr(exchange.request, "choices", None) or ()
    text = exchange.response.text if exchange.response.ok else None
    return text if text in choices else None


def check_scores(read: Any, extraction: Any) -> dict[str, Any]:
    """The per-sample scores of the check: the text reader's answer `read` (None: it gave
    none) against the `extraction` (None: failed), both in the same terms."""
    if extraction is None:
        verdict, agree = "no_extraction", None
    elif read is None:
        verdict, agree = "text_abstained", None
    else:
        verdict = "agree" if read == extraction else "disagree"
        agree = float(read == extraction)
    return {"extracted": extraction, "readers_agree": agree, "readers": verdict}


def combine(checks: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One sample's check from several turns' (STOP): ``extracted`` lists every turn's,
    ``readers_agree`` is the share of the checked turns that agree (None: none checked),
    ``readers`` is "disagree" when any turn disagrees, else the first turn's verdict kind
    among "agree", "text_abstained", "no_extraction"."""
    agree = [c["readers_agree"] for c in checks if c["readers_agree"] is not None]
    verdicts = [c["readers"] for c in checks]
    order = ("disagree", "agree", "text_abstained", "no_extraction")
    return {
        "extracted": [c["extracted"] for c in checks],
        "readers_agree": sum(agree) / len(agree) if agree else None,
        "readers": next((v for v in order if v in verdicts), "no_extraction"),
    }


def tables(records: Iterable[SampleRecord]) -> dict[str, Table]:
    """``reader_check``: samples per verdict; ``reader_disagreements``: the marked samples
    (id and the extracted answer), for a person to read. One pass over `records`."""
    verdicts: Counter[str] = Counter()
    marked: list[list[Any]] = []
    for record in records:
        verdict = record.scores.get("readers")
        if verdict is None:
            continue
        verdicts[verdict] += 1
        if verdict == "disagree":
            marked.append([record.sample_id, record.scores.get("extracted")])
    check = Table(
        description="answer_mode=extract: samples per verdict of the text reader against the "
        "constrained follow-up",
        columns=["readers", "samples"],
        rows=[[verdict, verdicts[verdict]] for verdict in sorted(verdicts)],
    )
    disagreements = Table(
        description="answer_mode=extract: the samples whose text reading differs from the "
        "model's own final answer (read these)",
        columns=["sample_id", "extracted"],
        rows=marked,
    )
    return {"reader_check": check, "reader_disagreements": disagreements}


def metric_specs(options: Any) -> list[MetricSpec]:
    """The agreement metric when a benchmark's options ask for extraction, else none."""
    return [agreement_spec()] if getattr(options, "answer_mode", None) == "extract" else []


def agreement_spec() -> MetricSpec:
    """The agreement metric every benchmark adds in extract mode."""
    return MetricSpec(
        name=READER_AGREEMENT,
        score="readers_agree",
        description=(
            "answer_mode=extract: share of the samples the text reader answered whose answer "
            "is the one the model chose in the constrained follow-up turn"
        ),
        higher_is_better=True,
        outcomes="none",
        scale=1.0,
    )
