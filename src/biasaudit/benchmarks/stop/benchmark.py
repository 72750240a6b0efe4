"""STOP as a biasaudit benchmark: one sample per progression, one request per round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field, field_validator

from biasaudit import extraction
from biasaudit.benchmarks import Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.stop import aggregate
from biasaudit.benchmarks.stop import metrics as m
from biasaudit.benchmarks.stop.data import (
    FULL_KEY,
    N_SENTENCES,
    Progression,
    check_filter,
    filter_progressions,
    load_progressions,
)
from biasaudit.benchmarks.stop.parse import TOOLKIT_OUTCOME, Answer, ParserMode, parse_response
from biasaudit.benchmarks.stop.prompts import INSTRUCTIONS, chat_messages, flat_prompt
from biasaudit.benchmarks.stop.protocol import Conversation, next_turn, replay
from biasaudit.data import DataStore
from biasaudit.metrics import MetricSpec
from biasaudit.requests import (
    AnswerMode,
    Capability,
    GenerateRequest,
    GenerationParams,
    Message,
    Request,
)
from biasaudit.results.schema import Exchange, MetricValue, SampleRecord, Table

#: Decoding presets. "paper" is the authors' setting (code, spec §3.3); "default" differs
#: only in being greedy, so runs are deterministic.
PRESETS: dict[str, dict[str, Any]] = {
    "default": {"temperature": 0.0, "max_tokens": 100, "stop": (".", "\n")},
    "paper": {"temperature": 0.7, "max_tokens": 100, "stop": (".", "\n")},
}


#: The closed answer set of every STOP turn (answer_mode=constrained).
YES_NO = ("Yes", "No")


def _is_check(exchange: Exchange) -> bool:
    """A constrained follow-up of answer_mode=extract (free turns carry no closed set)."""
    return getattr(exchange.request, "choices", None) is not None


class STOPOptions(BenchmarkOptions):
    """Options of the STOP benchmark (``-O key=value``)."""

    #: Decoding preset; temperature / max_tokens / stop override single fields of it.
    preset: Literal["default", "paper"] = "default"
    temperature: float | None = Field(None, ge=0)
    max_tokens: int | None = Field(None, ge=1)
    stop: list[str] | None = None
    #: Instruction wording: "code" (what produced the released scores) or "paper".
    instruction: Literal["code", "paper"] = "code"
    #: "flat": the authors' single growing user message; "chat": a multi-turn message list.
    history: Literal["flat", "chat"] = "flat"
    #: Chat history only: the instruction opens the first user turn or is a system message.
    instruction_role: Literal["user", "system"] = "user"
    #: "strict" commits to the answer given; "faithful" is the authors' substring test.
    parser: ParserMode = "strict"
    #: "free" (the paper's protocol: the model replies freely) or "constrained" (every reply
    #: is exactly Yes or No; an option, not the paper's measurement), or "extract" (after
    #: each free reply, a constrained side turn checks its reading; not in the history)
    answer_mode: AnswerMode = "free"
    #: Refused / empty / unparsed sentence replies: count as not-"no" (the authors' rule),
    #: as "no", or exclude the progression (reported in n_excluded).
    non_answer: Literal["not_no", "as_no", "exclude"] = "not_no"
    #: Stop showing sentences after the first "no"; unseen sentences count as "no".
    stop_on_first_no: bool = False
    counterfactual: bool = True
    #: Spread across groups: population standard deviation or max - min.
    spread: Literal["sd", "range"] = "sd"
    #: Only these severities (every STOP file, custom ones too, uses these three words).
    severity: list[Literal["low", "moderate", "high"]] | None = None
    demographic: list[str] | None = None
    sub_demographic: list[str] | None = None
    seed_id: list[int] | None = None
    #: A STOP-format JSON file instead of the pinned release (its sha256 is not pinned).
    data_file: str | None = None
    #: Custom data only: append the question to sentences that lack it.
    append_question: bool = False

    @field_validator("severity", "demographic", "sub_demographic", "seed_id", mode="before")
    @classmethod
    def _split_commas(cls, value: Any) -> Any:
        """-O severity=low,high arrives as one string; a single number as an int."""
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("stop", mode="before")
    @classmethod
    def _one_stop(cls, value: Any) -> Any:
        """A single stop string (-O stop=X); a JSON list gives several."""
        return [value] if isinstance(value, str) else value


class STOP(Benchmark):
    """Sensitivity Testing on Offensive Progressions (Morabito et al., EMNLP 2024)."""

    name: ClassVar[str] = "stop"
    version: ClassVar[str] = "1.0"
    description: ClassVar[str] = "STOP: sensitivity to offensive progressions"
    Options: ClassVar[type[BenchmarkOptions]] = STOPOptions
    options: STOPOptions
    metrics: ClassVar[Sequence[MetricSpec]] = aggregate.METRICS
    Scores: ClassVar[type[BaseModel] | None] = aggregate.STOPScores

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({Capability.GENERATE})

    def data_keys(self) -> list[str]:
        return [] if self.options.data_file else [FULL_KEY]

    def user_files(self) -> list[str]:
        return [self.options.data_file] if self.options.data_file else []

    def prompt_template_ids(self) -> list[str]:
        opts = self.options
        history = f"chat-{opts.instruction_role}" if opts.history == "chat" else "flat"
        return [f"stop-instruction-{opts.instruction}", f"stop-history-{history}"]

    def __init__(self, options: BenchmarkOptions, store: DataStore, seed: int = 0) -> None:
        super().__init__(options, store, seed)
        # Resolve the preset into the options, so results.json records the decoding used.
        opts, preset = self.options, PRESETS[self.options.preset]
        self.options = opts.model_copy(
            update={
                "temperature": preset["temperature"]
                if opts.temperature is None
                else opts.temperature,
                "max_tokens": preset["max_tokens"] if opts.max_tokens is None else opts.max_tokens,
                "stop": list(preset["stop"]) if opts.stop is None else list(opts.stop),
            }
        )

    def generation_params(self) -> GenerationParams:
        opts = self.options
        assert (
            opts.temperature is not None and opts.max_tokens is not None and opts.stop is not None
        )
        return GenerationParams(
            temperature=opts.temperature,
            max_tokens=opts.max_tokens,
            stop=tuple(opts.stop),
            # greedy decoding does not depend on the seed: leaving it out of the request
            # lets runs with another --seed reuse the cache
            seed=self.seed if opts.temperature > 0 else 0,
        )

    def progressions(self) -> list[Progression]:
        opts = self.options
        if opts.data_file:
            loaded = load_progressions(opts.data_file, append_question=opts.append_question)
        else:
            loaded = load_progressions(self.store.path(FULL_KEY))
        for name in ("severity", "demographic", "sub_demographic", "seed_id"):
            present = {getattr(p, name) for p in loaded}
            check_filter(f"stop: option {name}", name, getattr(opts, name), present)
        return filter_progressions(
            loaded,
            severity=opts.severity,
            demographic=opts.demographic,
            sub_demographic=opts.sub_demographic,
            seed_id=opts.seed_id,
        )

    def load_samples(self) -> list[Sample]:
        return [
            Sample(
                id=f"stop-{p.index:03d}",
                data=p.to_dict(),
                groups={
                    "severity": p.severity,
                    "demographic": p.demographic,
                    "sub_demographic": p.sub_demographic,
                },
            )
            for p in self.progressions()
        ]

    def expected_requests(self, sample: Sample) -> int | None:
        if self.options.stop_on_first_no:
            return None
        turns = N_SENTENCES + int(self.options.counterfactual)
        return 2 * turns if self.options.answer_mode == "extract" else turns

    def _replay(self, exchanges: Sequence[Exchange]) -> Conversation:
        """The conversation of the free turns (extract mode's checks are side turns)."""
        if self.options.answer_mode == "extract":
            exchanges = [e for e in exchanges if not _is_check(e)]
        return replay(exchanges, self.options.parser, self.options.stop_on_first_no)

    def _checks(self, exchanges: Sequence[Exchange]) -> list[dict[str, Any]]:
        """answer_mode=extract: each free turn's reading against the check that follows it."""
        checks = []
        for i, exchange in enumerate(exchanges):
            if _is_check(exchange):
                continue
            answer = parse_response(exchange.response, self.options.parser).value
            read = answer if answer in ("yes", "no") else None
            picked = extraction.extracted(exchanges[i:], 1)
            checks.append(extraction.check_scores(read, picked and picked.lower()))
        return checks

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        opts = self.options
        if opts.answer_mode == "extract" and exchanges and not _is_check(exchanges[-1]):
            check = extraction.extract_round(exchanges[-1:], 1, YES_NO)
            if check:
                return list(check)
        conversation = self._replay(exchanges)
        turn = next_turn(conversation, opts.stop_on_first_no, opts.counterfactual)
        if turn is None:
            return []
        sentences: list[str] = sample.data["prompts"]
        text = sample.data["cfprompt"] if turn == N_SENTENCES else sentences[turn]
        shown = sentences[: len(conversation.answers)]
        instruction = INSTRUCTIONS[opts.instruction]
        params = self.generation_params()
        choices = YES_NO if opts.answer_mode == "constrained" else None
        if opts.history == "chat":
            messages = chat_messages(
                instruction,
                list(zip(shown, conversation.replies, strict=True)),
                text,
                opts.instruction_role,
            )
            return [GenerateRequest(messages=messages, params=params, choices=choices)]
        prompt = flat_prompt(instruction, list(zip(shown, conversation.answers, strict=True)), text)
        message = (Message(role="user", content=prompt),)
        return [GenerateRequest(messages=message, params=params, choices=choices)]

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        opts = self.options
        conversation = self._replay(exchanges)
        answers = [a.value for a in conversation.answers]
        outcomes = [TOOLKIT_OUTCOME[a] for a in conversation.answers]
        if conversation.cf_answer is not None:
            outcomes.append(TOOLKIT_OUTCOME[conversation.cf_answer])
        scores: dict[str, Any] = {
            "answers": answers,
            "cf_answer": conversation.cf_answer.value if conversation.cf_answer else None,
        }
        if opts.answer_mode == "extract":
            scores |= extraction.combine(self._checks(exchanges))
        if conversation.failed:
            step = len(answers) if conversation.cf_answer is None else "cf"
            return SampleScore(outcomes, scores, True, f"request failed at step {step}")
        if not conversation.sentences_done(opts.stop_on_first_no):
            return SampleScore(
                outcomes, scores, True, f"only {len(answers)} of 5 sentences answered"
            )
        non_answers = [a for a in conversation.answers if a not in (Answer.YES, Answer.NO)]
        if non_answers and opts.non_answer == "exclude":
            return SampleScore(
                outcomes, scores, True, f"{len(non_answers)} sentence(s) not answered"
            )
        # Impute the unseen sentences after the first *real* "no" (where the conversation
        # stopped) before non-answers become "no", so as_no never overwrites a real answer.
        effective = m.answers_after_stop(answers) if opts.stop_on_first_no else list(answers)
        effective = [
            "no" if a not in ("yes", "no") and opts.non_answer == "as_no" else a for a in effective
        ]
        n_no = m.no_count(effective)
        severity = sample.data["severity"]
        scores |= {
            "effective_answers": effective,
            "no_count": n_no,
            "sensitivity": m.sensitivity(n_no),
            "first_no_step": m.first_no_step(effective),
            "correct": m.is_correct(n_no, severity),
            "answered_share": (len(answers) - len(non_answers)) / len(answers),
            "cf_no": None
            if conversation.cf_answer is None
            else conversation.cf_answer == Answer.NO,
        }
        return SampleScore(outcomes, scores)

    def extra_metrics(self, records: Sequence[SampleRecord], seed: int) -> list[MetricValue]:
        return aggregate.extra_metrics(records, seed, spread=self.options.spread)

    def tables(self, records: Sequence[SampleRecord]) -> dict[str, Table]:
        return aggregate.tables(records)
