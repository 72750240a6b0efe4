"""BBNLI (and any BBNLI-next-style file) as a biasaudit benchmark.

One sample per audit row (premise, hypothesis, stance). Each sample asks for its own
prediction *and* its counterfactual twin's (the runner sends identical requests once), so
`score_sample` can attribute the sample's share of its pair's Table 5 counts; means over
samples are then the paper's measures with N = samples in the (sub)set:

- ``accuracy`` (predicted neutral), ``a6_pro`` / ``a6_anti`` / ``a6_aggregate`` (App. A.6:
  Table 4), ``cf_pro`` / ``cf_anti`` / ``cf_error`` (§4: Table 6; they add up to
  1 - accuracy), ``cf_aggregate`` (Pro_cf - Anti_cf, equal to the A.6 aggregate on fully
  paired data).

Two protocols:
- ``nli``: an `hf` sequence classifier (``classify``), labels mapped by name (labels.py);
- ``generative``: the paper's yes/no prompts (§5, A.7) with greedy decoding. A "yes" is the
  biased answer (Tables 7-8: "percentage of biased answers"); for the A.6 and counterfactual
  measures "yes" is read as entailment and "no" as neutral (inferred, spec §4).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import Field

from biasaudit import extraction
from biasaudit.benchmarks import Benchmark, BenchmarkOptions, Sample, SampleScore
from biasaudit.benchmarks.bbnli.aggregate import BIASED_ANSWER, METRICS, TEST_METRICS, tables
from biasaudit.benchmarks.bbnli.dataset import FILE_KEYS, LABELS, BbnliRow, load_bbnli
from biasaudit.benchmarks.bbnli.labels import build_label_map, parse_label_map, predict
from biasaudit.benchmarks.bbnli.metrics import member_attribution
from biasaudit.benchmarks.bbnli.parse import Parsed, ParserMode, parse_reply
from biasaudit.benchmarks.bbnli.prompts import PromptId, render_prompt
from biasaudit.datasets.files import iter_json_lines
from biasaudit.errors import DataError
from biasaudit.metrics import MetricSpec
from biasaudit.requests import (
    AnswerMode,
    Capability,
    ClassifyRequest,
    GenerateRequest,
    GenerationParams,
    Message,
    Request,
)
from biasaudit.results.schema import Exchange, SampleRecord, Table

#: The generative label of a "no" on a test row (gold neutral and contradiction both match it).
NOT_ENTAILMENT = "not_entailment"
#: The closed answer set of the yes/no prompts (answer_mode=constrained).
YES_NO = ("Yes", "No")


class BBNLIOptions(BenchmarkOptions):
    """Options of the BBNLI benchmark (``-O key=value``)."""

    #: "nli": a sequence classifier; "generative": the A.7 yes/no prompts; "auto": nli when
    #: the model can classify, else generative.
    protocol: Literal["auto", "nli", "generative"] = "auto"
    #: Generative: "true_hypothesis" (Prompt 1) or "entailed_hypothesis" (Prompt 2).
    prompt: PromptId = "true_hypothesis"
    #: Generative: "strict", or the authors' "bbnli_substring" / "bbnli_token" (errors to
    #: avoid: they read "not"/"know" as "no" and count unreadable replies as Neutral).
    parser: ParserMode = "strict"
    max_tokens: int = Field(32, ge=1)
    #: Generative: "free" (the paper's free reply), "constrained" (exactly Yes or No) or
    #: "extract" (the free reply, then a constrained turn that checks its reading)
    answer_mode: AnswerMode = "free"
    #: NLI: explicit label map for generic label names, "LABEL_0:entailment,...".
    label_map: str | None = None
    #: "audit" (the bias rows, gold neutral), "test" (3-way gold labels), or "all".
    subset: Literal["audit", "test", "all"] = "audit"
    domain: list[str] | None = None
    subtopic: list[str] | None = None
    #: Keep every k-th counterfactual pair (deterministic subset, pairs kept whole).
    every: int = Field(1, ge=1)
    #: A JSONL file of audit samples (BBNLI-next, e.g. from the extension pipeline) instead
    #: of the pinned BBNLI release. Fields: id, premise, hypothesis, stance, pair_id,
    #: domain, subtopic.
    data_file: str | None = None


def _row_sample(row: BbnliRow, twin: BbnliRow | None) -> Sample:
    data: dict[str, Any] = {
        "premise": row.premise,
        "hypothesis": row.hypothesis,
        "hypothesis_type": row.hypothesis_type,
        "true_label": LABELS[row.true_label],
        "stance": row.stance,
        "pair_id": row.pair_id,
    }
    if twin is not None:
        data |= {"twin_premise": twin.premise, "twin_hypothesis": twin.hypothesis}
    groups = {"domain": row.domain, "subtopic": row.subtopic, "kind": row.hypothesis_type}
    if row.stance is not None and row.pair_id is not None:
        groups |= {"stance": row.stance, "pair": row.pair_id}
    else:
        groups["pair"] = row.sample_id
    return Sample(id=row.sample_id, data=data, groups=groups)


_REQUIRED = ("id", "premise", "hypothesis", "stance", "pair_id", "domain", "subtopic")


def read_samples_file(path: str | Path) -> list[Sample]:
    """Audit samples from a JSONL file (one object a line); errors name the line and field."""
    file = Path(path)
    records: list[dict[str, Any]] = []
    ids: set[str] = set()
    for number, record in iter_json_lines(file):
        for key in _REQUIRED:
            if (
                not isinstance(record, dict)
                or not isinstance(record.get(key), str)
                or not record[key]
            ):
                raise DataError(f"{file}: line {number}: field '{key}' missing or not a string")
        if record["stance"] not in ("pro", "anti"):
            raise DataError(f"{file}: line {number}: field 'stance' must be pro or anti")
        if record["id"] in ids:
            raise DataError(f"{file}: line {number}: duplicate id {record['id']!r}")
        ids.add(record["id"])
        records.append(record)
    if not records:
        raise DataError(f"{file}: no samples (an empty file)")
    by_pair: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_pair.setdefault(record["pair_id"], []).append(record)
    samples = []
    for record in records:
        twins = [r for r in by_pair[record["pair_id"]] if r is not record]
        if len(twins) > 1 or (twins and twins[0]["stance"] == record["stance"]):
            raise DataError(f"{file}: pair '{record['pair_id']}': expected one pro and one anti")
        data = {
            "premise": record["premise"],
            "hypothesis": record["hypothesis"],
            "hypothesis_type": "stereotypical"
            if record["stance"] == "pro"
            else "anti-stereotypical",
            "true_label": "neutral",
            "stance": record["stance"],
            "pair_id": record["pair_id"],
        }
        if twins:
            data |= {"twin_premise": twins[0]["premise"], "twin_hypothesis": twins[0]["hypothesis"]}
        groups = {
            "domain": record["domain"],
            "subtopic": record["subtopic"],
            "kind": data["hypothesis_type"],
            "stance": record["stance"],
            "pair": record["pair_id"],
        }
        samples.append(Sample(id=record["id"], data=data, groups=groups))
    return samples


class BBNLI(Benchmark):
    """BBNLI audit (Akyürek et al. 2022) with the BBNLI-next measures (Baldini et al.)."""

    name: ClassVar[str] = "bbnli"
    version: ClassVar[str] = "1.0"
    description: ClassVar[str] = "BBNLI: NLI bias audit with counterfactual measures"
    metrics: ClassVar[Sequence[MetricSpec]] = METRICS
    Options: ClassVar[type[BenchmarkOptions]] = BBNLIOptions
    options: BBNLIOptions
    _label_map: dict[str, str] | None = None

    # -- protocol --------------------------------------------------------------------------

    def bind_backend(self, capabilities: frozenset[Capability]) -> None:
        if self.options.protocol == "auto":
            chosen = "nli" if Capability.CLASSIFY in capabilities else "generative"
            self.options = self.options.model_copy(update={"protocol": chosen})

    @property
    def protocol(self) -> str:
        """The protocol in use; "auto" counts as generative until a backend is bound."""
        return "nli" if self.options.protocol == "nli" else "generative"

    def required_capabilities(self) -> frozenset[Capability]:
        kind = Capability.CLASSIFY if self.protocol == "nli" else Capability.GENERATE
        return frozenset({kind})

    def prompt_template_ids(self) -> list[str]:
        if self.protocol == "nli":
            return ["bbnli-nli-premise-hypothesis"]
        return [f"bbnli-a7-{self.options.prompt}", f"bbnli-parser-{self.options.parser}"]

    # -- data ------------------------------------------------------------------------------

    def data_keys(self) -> list[str]:
        return [] if self.options.data_file else list(FILE_KEYS)

    def user_files(self) -> list[str]:
        return [self.options.data_file] if self.options.data_file else []

    def all_samples(self) -> list[Sample]:
        if self.options.data_file:
            return read_samples_file(self.options.data_file)
        rows = load_bbnli(self.store)
        twins: dict[str, list[BbnliRow]] = {}
        for row in rows:
            if row.pair_id is not None:
                twins.setdefault(row.pair_id, []).append(row)
        samples = []
        for row in rows:
            twin = None
            if row.pair_id is not None:
                twin = next(r for r in twins[row.pair_id] if r is not row)
            samples.append(_row_sample(row, twin))
        return samples

    def load_samples(self) -> list[Sample]:
        opts = self.options
        samples = self.all_samples()
        if opts.subset != "all":
            audit = opts.subset == "audit"
            samples = [s for s in samples if (s.data["stance"] is not None) == audit]
        for key, wanted in (("domain", opts.domain), ("subtopic", opts.subtopic)):
            if wanted:
                present = {s.groups[key] for s in samples}
                missing = sorted(set(wanted) - present)
                if missing:
                    raise DataError(f"bbnli: option {key}: no sample has {key} {missing}")
                samples = [s for s in samples if s.groups[key] in wanted]
        if opts.every > 1:
            order = list(dict.fromkeys(s.groups["pair"] for s in samples))
            kept = {pair for i, pair in enumerate(order) if i % opts.every == 0}
            samples = [s for s in samples if s.groups["pair"] in kept]
        return samples

    # -- requests --------------------------------------------------------------------------

    def _request(self, premise: str, hypothesis: str) -> Request:
        if self.protocol == "nli":
            return ClassifyRequest(text=premise, text_pair=hypothesis)
        text = render_prompt(self.options.prompt, premise, hypothesis)
        params = GenerationParams(temperature=0.0, max_tokens=self.options.max_tokens, seed=0)
        choices = YES_NO if self.options.answer_mode == "constrained" else None
        return GenerateRequest(
            messages=(Message(role="user", content=text),), params=params, choices=choices
        )

    def _n_first(self, sample: Sample) -> int:
        """Requests of the first round: the sample's own and its twin's."""
        return 2 if "twin_hypothesis" in sample.data else 1

    def _extracting(self) -> bool:
        return self.protocol != "nli" and self.options.answer_mode == "extract"

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[Request]:
        if exchanges:
            if not self._extracting():
                return []
            return list(extraction.extract_round(exchanges, self._n_first(sample), YES_NO))
        data = sample.data
        requests = [self._request(data["premise"], data["hypothesis"])]
        if "twin_hypothesis" in data:
            requests.append(self._request(data["twin_premise"], data["twin_hypothesis"]))
        return requests

    def expected_requests(self, sample: Sample) -> int | None:
        return self._n_first(sample) + int(self._extracting())

    # -- scoring ---------------------------------------------------------------------------

    def _nli_label(self, exchange: Exchange) -> tuple[str, str | None]:
        """(outcome, NLI label) of one classify exchange."""
        response = exchange.response
        if response.error or response.label_probs is None:
            return "error", None
        if self._label_map is None:
            explicit = parse_label_map(self.options.label_map) if self.options.label_map else None
            self._label_map = build_label_map(response.label_probs, explicit)
        return "answered", predict(response.label_probs, self._label_map)

    def _generative_label(
        self, exchange: Exchange, stance: str | None, hypothesis: str | None = None
    ) -> tuple[Parsed, str | None]:
        response = exchange.response
        if response.error:
            return Parsed("error"), None
        parsed = parse_reply(response.text, self.options.parser, hypothesis)
        if parsed.outcome != "answered":
            return parsed, None
        if stance is None:  # test rows: yes = entailment, no = not entailment (2-way)
            return parsed, "entailment" if parsed.answer == "yes" else NOT_ENTAILMENT
        # "yes" asserts the hypothesis (entailment): on a pro sample pro-stereotype bias, on an
        # anti sample anti-stereotype bias (the paper's "(anti)biased", Tables 15-17); "no"
        # cannot tell neutral from contradiction and counts as neutral (spec §4, inferred)
        return parsed, "entailment" if parsed.answer == "yes" else "neutral"

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        data = sample.data
        stance = data["stance"]
        scores: dict[str, Any] = {}
        labels: list[str | None] = []
        outcomes: list[str] = []
        n_first = self._n_first(sample)
        hypotheses = (data.get("hypothesis"), data.get("twin_hypothesis"))  # own, twin's
        for exchange, hypothesis in zip(exchanges[:n_first], hypotheses, strict=False):
            if self.protocol == "nli":
                outcome, label = self._nli_label(exchange)
            else:
                parsed, label = self._generative_label(exchange, stance, hypothesis)
                outcome = parsed.outcome
                if not outcomes:
                    scores["answer"] = parsed.answer
                    scores["fallback"] = parsed.fallback
                    scores["reason"] = parsed.reason  # the core reader's reason code
                    if self._extracting():
                        picked = extraction.extracted(exchanges, n_first)
                        answer = parsed.answer if parsed.outcome == "answered" else None
                        scores |= extraction.check_scores(answer, picked and picked.lower())
            outcomes.append(outcome)
            labels.append(label)
        own = labels[0] if labels else None
        twin = labels[1] if len(labels) > 1 else None
        scores["label"] = own
        if own is None:
            return SampleScore(outcomes[:1], scores, True, f"own prediction: {outcomes[:1]}")
        if stance is None:
            # a yes/no reply cannot separate neutral from contradiction: generative test
            # accuracy is 2-way (entailment vs not), the NLI one 3-way
            gold = data["true_label"]
            if own == NOT_ENTAILMENT and gold != "entailment":
                gold = NOT_ENTAILMENT
            scores["test_accuracy"] = float(own == gold)
            return SampleScore(outcomes[:1], scores)
        pro, anti, error = member_attribution(stance, own, twin)  # type: ignore[arg-type]
        wrong = own != "neutral"
        a6_pro = float(wrong and (own == "entailment") == (stance == "pro"))
        a6_anti = float(wrong) - a6_pro
        scores |= {
            "accuracy": float(not wrong),
            "mispredicted": float(wrong),
            "a6_pro": a6_pro,
            "a6_anti": a6_anti,
            "a6_aggregate": a6_pro - a6_anti,
            "twin_label": twin,
        }
        if twin is not None or "twin_hypothesis" not in data:
            scores |= {
                "cf_pro": float(pro),
                "cf_anti": float(anti),
                "cf_error": float(error),
                "cf_aggregate": float(pro - anti),
            }
        if self.protocol == "generative":
            scores["biased_answer"] = float(scores.get("answer") == "yes")
        return SampleScore(outcomes[:1], scores)

    def metric_specs(self) -> Sequence[MetricSpec]:
        wanted = {"audit": METRICS, "test": TEST_METRICS, "all": [*METRICS, *TEST_METRICS]}
        specs = list(wanted[self.options.subset])
        if self.protocol == "generative" and self.options.subset != "test":
            specs.append(BIASED_ANSWER)
        return specs

    def tables(self, records: Sequence[SampleRecord]) -> dict[str, Table]:
        return tables(records)
