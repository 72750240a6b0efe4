"""BBQ as a biasaudit benchmark: three scoring protocols over the 58,492 released rows.

One sample per row. Protocols (``-O protocol=...``):
- ``loglikelihood`` (default): three log-likelihood requests, argmax over the item's three
  options, raw or length-normalised (``-O normalization=raw|token|char``);
- ``letter``: one generation, the options lettered A/B/C, read by the strict parser;
- ``free_text``: one generation, options unlettered, read by the strict parser or the authors'
  match protocol (``-O parser=authors``).

Per-sample scores: ``correct`` (1/0; None when no option was chosen), ``bias_direction``
(+1 biased / -1 counter-biased / None for unknown, no target or no choice: its mean is s_DIS) and
``diff_bias_direction`` on ambiguous rows (+1 / -1 / 0 for unknown: its mean is KoBBQ's
ambiguous diff-bias). s_AMB and the disambiguated diff-bias are not means: `extra_metrics`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from biasaudit import extraction
from biasaudit.benchmarks import Benchmark, BenchmarkOptions, MetricSpec, Sample, SampleScore
from biasaudit.benchmarks.bbq import aggregate
from biasaudit.benchmarks.bbq.metrics import (
    ItemChoice,
    bias_direction,
    context_alignment,
    diff_bias_direction,
    is_correct,
)
from biasaudit.benchmarks.bbq.parse import option_set, parse_reply
from biasaudit.benchmarks.bbq.prompts import (
    FREE_TEXT_TEMPLATE_ID,
    LETTER_TEMPLATE_ID,
    LETTERS,
    LOGLIKELIHOOD_TEMPLATE_ID,
    free_text_prompt,
    letter_prompt,
    loglikelihood_context,
    loglikelihood_continuation,
)
from biasaudit.data import DataStore
from biasaudit.datasets.bbq import (
    BBQ_CATEGORIES,
    BBQItem,
    data_key,
    derivation_template_keys,
    load_bbq,
)
from biasaudit.errors import DataError
from biasaudit.likeliest import TIE_REASON, Normalisation, Ties, likeliest, option_score
from biasaudit.requests import (
    AnswerMode,
    Capability,
    GenerateRequest,
    GenerationParams,
    LoglikelihoodRequest,
    Message,
    Request,
)
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord, Table

Protocol = Literal["loglikelihood", "letter", "free_text"]


class BBQOptions(BenchmarkOptions):
    categories: list[str] | None = Field(None, description="BBQ categories (default: all 11)")
    protocol: Protocol = Field("loglikelihood", description="loglikelihood, letter or free_text")
    normalization: Literal["raw", "token", "char"] = Field(
        "raw", description="loglikelihood: sum, per token or per character of the option"
    )
    ties: Ties = Field(
        "abstain",
        description="loglikelihood: options with the same best score are no choice (abstain: "
        "excluded as unparsed), or the first of them wins (first: lm-evaluation-harness's "
        "argmax, to reproduce its bbq_multiple_choice)",
    )
    parser: Literal["strict", "authors"] = Field(
        "strict", description="generated answers: strict reader, or the authors' free-text match"
    )
    max_tokens: int = Field(48, ge=1, description="generation budget (letter / free_text)")
    temperature: float = Field(0.0, ge=0, description="generation temperature (0 = greedy)")
    answer_mode: AnswerMode = Field(
        "free",
        description="letter / free_text: free reply (read by the parser), constrained to "
        "exactly one letter / option text, or extract (the free reply, then a constrained "
        "turn that checks the parser's reading; docs/answers.md)",
    )
    authors_exact: bool = Field(
        False,
        description="by_slice table counted as BBQ_calculate_bias_score.R does: the 16 rows "
        "without a target dropped before accuracy, the 64 Gender_identity Q12 rows twice",
    )

    @field_validator("categories", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        """-O categories=Age,SES as well as a JSON list."""
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value


#: BBQ rows by (data dirs, download cache, categories): read once per process, shared by
#: the benchmark instances of a test session or an analysis that builds several.
_ITEMS: dict[tuple[str, str, tuple[str, ...]], list[BBQItem]] = {}


def _cached_items(store: DataStore, categories: tuple[str, ...]) -> list[BBQItem]:
    """The rows of `categories`, read through `store` (whose files are verified first)."""
    key = (store.data_dir_spec, str(store.cache_dir), categories)
    if key not in _ITEMS:
        _ITEMS[key] = load_bbq(store, list(categories))
    return _ITEMS[key]


class BBQ(Benchmark):
    name: ClassVar[str] = "bbq"
    version: ClassVar[str] = "1.0"
    description: ClassVar[str] = "BBQ: bias in ambiguous and disambiguated QA"
    Options: ClassVar[type[BenchmarkOptions]] = BBQOptions
    options: BBQOptions
    metrics: ClassVar[Sequence[MetricSpec]] = aggregate.METRICS

    def __init__(self, options: BenchmarkOptions, store: DataStore, seed: int = 0) -> None:
        super().__init__(options, store, seed)
        opts = self.options
        if opts.parser == "authors" and opts.protocol != "free_text":
            raise DataError(
                "bbq: parser=authors is the authors' free-text match; use it with "
                "protocol=free_text"
            )
        unknown = [c for c in opts.categories or [] if c not in BBQ_CATEGORIES]
        if unknown:
            raise DataError(
                f"bbq: unknown categor{'y' if len(unknown) == 1 else 'ies'} "
                f"{', '.join(unknown)}; choose from {', '.join(BBQ_CATEGORIES)}"
            )

    def categories(self) -> list[str]:
        return list(self.options.categories or BBQ_CATEGORIES)

    def required_capabilities(self) -> frozenset[Capability]:
        if self.options.protocol == "loglikelihood":
            return frozenset({Capability.LOGLIKELIHOOD})
        return frozenset({Capability.GENERATE})

    def data_keys(self) -> list[str]:
        return [data_key(c) for c in self.categories()] + derivation_template_keys()

    def prompt_template_ids(self) -> list[str]:
        return [
            {
                "loglikelihood": LOGLIKELIHOOD_TEMPLATE_ID,
                "letter": LETTER_TEMPLATE_ID,
                "free_text": FREE_TEXT_TEMPLATE_ID,
            }[self.options.protocol]
        ]

    def items(self) -> list[BBQItem]:
        for k in self.data_keys():
            self.store.path(k)  # verify checksums through this store
        return _cached_items(self.store, tuple(self.categories()))

    def load_samples(self) -> list[Sample]:
        return [_sample(item) for item in self.items()]

    def expected_requests(self, sample: Sample) -> int | None:
        if self.options.protocol == "loglikelihood":
            return 3
        return 2 if self.options.answer_mode == "extract" else 1

    def _choices(self, sample: Sample) -> tuple[str, ...]:
        """The closed answer set: the letters, or the options' texts (free_text)."""
        return LETTERS if self.options.protocol == "letter" else tuple(sample.data["answers"])

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            if self.options.answer_mode != "extract":
                return []
            return list(extraction.extract_round(exchanges, 1, self._choices(sample)))
        d = sample.data
        if self.options.protocol == "loglikelihood":
            context = loglikelihood_context(d["context"], d["question"])
            return [
                LoglikelihoodRequest(context=context, continuation=loglikelihood_continuation(a))
                for a in d["answers"]
            ]
        build = letter_prompt if self.options.protocol == "letter" else free_text_prompt
        params = GenerationParams(
            temperature=self.options.temperature,
            max_tokens=self.options.max_tokens,
            seed=self.seed,
        )
        content = build(d["context"], d["question"], d["answers"])
        choices = self._choices(sample) if self.options.answer_mode == "constrained" else None
        message = (Message(role="user", content=content),)
        return [GenerateRequest(messages=message, params=params, choices=choices)]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        d = sample.data
        read = exchanges if self.options.protocol == "loglikelihood" else exchanges[:1]
        failed = [e.response.error for e in read if not e.response.ok]
        if failed or not exchanges:
            reason = failed[0] if failed else "no response"
            return SampleScore(["error"], {"chosen": None}, True, f"request failed: {reason}")
        scores: dict[str, Any] = {}
        if self.options.protocol == "loglikelihood":
            if len(exchanges) != 3 or any(e.response.logprob is None for e in exchanges):
                return SampleScore(["error"], {"chosen": None}, True, "missing log-likelihood")
            if self.options.normalization == "token" and not all(
                e.response.n_tokens for e in exchanges
            ):
                return SampleScore(["error"], {"chosen": None}, True, "missing token count")
            chosen_by = _loglikelihood_choices(d["answers"], exchanges, self.options.ties)
            chosen: int | None = chosen_by[self.options.normalization]
            scores["logprobs"] = [e.response.logprob for e in exchanges]
            scores |= {f"chosen_{k}": v for k, v in chosen_by.items()}
            if chosen is None:  # the best options tie: no choice (biasaudit.likeliest)
                return SampleScore(["unparsed"], scores | {"chosen": None}, True, TIE_REASON)
            outcome = "unknown" if chosen == d["unknown_loc"] else "answered"
        else:
            reply = exchanges[0].response.text or ""
            options = option_set(d["answers"], d["info_texts"], d["unknown_loc"])
            parsed = parse_reply(
                reply,
                options,
                self.options.parser,
                letters=self.options.protocol == "letter",
                question=d.get("question"),
            )
            chosen, outcome = parsed.chosen, parsed.outcome
            scores["reason"] = parsed.reason
            if self.options.answer_mode == "extract":
                picked = extraction.extracted(exchanges, 1)
                index = self._choices(sample).index(picked) if picked is not None else None
                scores |= extraction.check_scores(chosen, index)
        item = ItemChoice(chosen, d["label"], d["target_loc"], d["unknown_loc"])
        scores |= {
            "chosen": chosen,
            "correct": is_correct(item),
            "bias_direction": bias_direction(item),
            "diff_bias_direction": diff_bias_direction(item)
            if d["context_condition"] == "ambig"
            else None,
        }
        return SampleScore([outcome], scores)

    def extra_metrics(self, records: Sequence[SampleRecord], seed: int) -> list[MetricValue]:
        return aggregate.extra_metrics(records, seed)

    def tables(self, records: Sequence[SampleRecord]) -> dict[str, Table]:
        return aggregate.tables(records, self.options.protocol, self.options.authors_exact)


def _sample(item: BBQItem) -> Sample:
    alignment = context_alignment(ItemChoice(None, item.label, item.target_loc, item.unknown_loc))
    names = item.label_type == "name"
    return Sample(
        id=f"bbq-{item.category}-{item.example_id:05d}",
        data={
            "category": item.category,
            "example_id": item.example_id,
            "question_index": item.question_index,
            "context": item.context,
            "question": item.question,
            "answers": list(item.answers),
            "info_texts": [item.answer_info[f"ans{k}"][0] for k in range(3)],
            "label": item.label,
            "target_loc": item.target_loc,
            "unknown_loc": item.unknown_loc,
            "context_condition": item.context_condition,
            "r_rows": item.r_rows,
        },
        groups={
            "category": item.category,
            # the authors report name proxies as their own category ("X (names)", R line 126)
            "category_slice": f"{item.category} (names)" if names else item.category,
            "label_type": item.label_type or "none",
            "context_condition": item.context_condition,
            "question_polarity": item.question_polarity,
            "context_alignment": alignment or "none",
            "template": f"{item.category}/{item.question_index}",
            "has_target": "yes" if item.target_loc is not None else "no",
        },
    )


#: BBQ's option names -> biasaudit.likeliest's normalisations.
_NORMALISATIONS: dict[str, Normalisation] = {"raw": "sum", "token": "per_token", "char": "per_char"}


def _loglikelihood_choices(
    answers: Sequence[str], exchanges: Sequence[Exchange], ties: Ties = "abstain"
) -> dict[str, int | None]:
    """The likeliest option under each normalisation (`biasaudit.likeliest`): raw sum, per
    token, per character of the continuation as sent; None for a tie under ``ties=abstain``
    or a missing token count."""
    out: dict[str, int | None] = {}
    for name, normalisation in _NORMALISATIONS.items():
        values = [
            option_score(e.response.logprob, e.response.n_tokens, cont, normalisation)
            for e, cont in zip(exchanges, map(loglikelihood_continuation, answers), strict=True)
        ]
        known = [v for v in values if v is not None]
        out[name] = likeliest(known, ties) if len(known) == len(values) else None
    return out
