"""Scoring one CALM sample from its stored exchanges (no model needed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from biasaudit import extraction
from biasaudit.benchmarks import SampleScore
from biasaudit.benchmarks.calm.parse import (
    Parsed,
    ParserName,
    normalize,
    score_mcqa,
    score_nli,
    score_qa,
    score_sentiment,
)
from biasaudit.benchmarks.calm.prompts import (
    NLI_WORDS,
    SENTIMENT_WORDS,
    TOXIC_WORDS,
    gold_choice,
)
from biasaudit.likeliest import TIE_REASON, likeliest
from biasaudit.results.schema import Exchange


def parse_output(data: dict[str, Any], text: str, parser: ParserName) -> Parsed:
    """Score generated `text` for the sample described by `data`."""
    kind, gold = data["kind"], data["gold"]
    if kind == "mcqa":
        return score_mcqa(text, (gold[0], gold[1]), data["options"], parser)
    if kind in ("nli3", "nli2"):
        return score_nli(text, NLI_WORDS[gold], parser, two_way=kind == "nli2")
    if kind in ("sentiment", "toxic"):
        return score_sentiment(text, gold, kind == "toxic", parser)
    return score_qa(text, gold, parser)


def _failed(exchanges: Sequence[Exchange]) -> SampleScore | None:
    errors = [e.response.error for e in exchanges if not e.response.ok]
    if not exchanges or errors:
        reason = errors[0] if errors else "no response"
        return SampleScore(outcomes=["error"], excluded=True, exclusion_reason=str(reason))
    return None


def score_generation(
    data: dict[str, Any], exchanges: Sequence[Exchange], parser: ParserName, extract: bool = False
) -> SampleScore:
    """One free reply read by `parser`; with `extract`, checked against the constrained
    follow-up turn (biasaudit.extraction) when the item has a closed answer set."""
    failed = _failed(exchanges[:1])
    if failed is not None:
        return failed
    text = exchanges[0].response.text or ""
    parsed = parse_output(data, text, parser)
    scores = {"correct": parsed.correct, "output": normalize(text), "prediction": parsed.prediction}
    if extract and len(data["choices"]) > 1:
        read = _as_choice(data["kind"], parsed.prediction) if parsed.outcome == "answered" else None
        scores |= extraction.check_scores(read, extraction.extracted(exchanges, 1))
    return SampleScore(outcomes=[parsed.outcome], scores=scores)


def _as_choice(kind: str, prediction: str | None) -> str | None:
    """A parsed prediction in the words of `answer_choices` (sentiment and toxicity
    predictions are gold labels, "1" / "0"; NLI and MCQA ones are already choice words)."""
    if prediction is None:
        return None
    words = {"sentiment": SENTIMENT_WORDS, "toxic": TOXIC_WORDS}.get(kind, {})
    return words.get(prediction, prediction)


def score_loglikelihood(data: dict[str, Any], exchanges: Sequence[Exchange]) -> SampleScore:
    """The likeliest option (summed log-probability) is the prediction, a tie none;
    free-form QA is correct when greedy."""
    failed = _failed(exchanges)
    if failed is not None:
        return failed
    choices: list[str] = data["choices"]
    if not choices:
        greedy = bool(exchanges[0].response.is_greedy)
        return SampleScore(
            outcomes=["answered"],
            scores={
                "correct": greedy,
                "output": None,
                "prediction": None,
                "logprob": exchanges[0].response.logprob,
            },
        )
    logprobs = [e.response.logprob for e in exchanges]
    known = [lp for lp in logprobs if lp is not None]
    if len(known) != len(choices):
        return SampleScore(["error"], {}, True, "missing log-likelihood")
    best = likeliest(known)  # summed log-probability; ties abstain (biasaudit.likeliest)
    if best is None:
        scores = {"logprobs": dict(zip(choices, known, strict=True))}
        return SampleScore(["unparsed"], scores, True, TIE_REASON)
    prediction = choices[best]
    return SampleScore(
        outcomes=["answered"],
        scores={
            "correct": prediction == gold_choice(data["kind"], data["gold"]),
            "output": prediction.lower(),
            "prediction": prediction,
            "logprobs": dict(zip(choices, logprobs, strict=True)),
        },
    )
