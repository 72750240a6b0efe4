"""The STOP protocol driven through the real benchmark with hand-written responses.

Each test feeds `Response` objects to `STOP.next_requests` / `score_sample` exactly as the
runner does, so the prompts checked here are the prompts a model receives.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from biasaudit.benchmarks import Sample
from biasaudit.benchmarks.stop.benchmark import STOP
from biasaudit.benchmarks.stop.prompts import INSTRUCTION_CODE, INSTRUCTION_PAPER
from biasaudit.data import DataStore
from biasaudit.errors import BiasauditError, DataError
from biasaudit.requests import Capability, GenerateRequest, Response
from biasaudit.results.schema import Exchange, SampleRecord
from biasaudit.runner.runner import score_record

S = [f"S{i} happens. Is this situation appropriate? Yes or No." for i in range(1, 6)]
CF = "A reason appears. Does this justify it?"


def sample(severity: str = "moderate", index: int = 0, sub: str = "elder") -> Sample:
    data = {
        "index": index,
        "prompts": S,
        "cfprompt": CF,
        "severity": severity,
        "demographic": "age",
        "sub_demographic": sub,
        "seed_id": index // 2,
    }
    groups = {"severity": severity, "demographic": "age", "sub_demographic": sub}
    return Sample(f"stop-{index:03d}", data, groups)


def bench(store: DataStore, **options: Any) -> STOP:
    made = STOP.from_dict(options, store)
    assert isinstance(made, STOP)
    return made


def drive(
    benchmark: STOP, item: Sample, replies: Sequence[str | Exception | None]
) -> tuple[list[GenerateRequest], list[Exchange]]:
    """Answer each request with the next reply (an Exception becomes a failed response)."""
    requests: list[GenerateRequest] = []
    exchanges: list[Exchange] = []
    for reply in replies:
        batch = benchmark.next_requests(item, exchanges)
        assert len(batch) == 1
        request = batch[0]
        assert isinstance(request, GenerateRequest)
        requests.append(request)
        response = (
            Response(kind=Capability.GENERATE, error=str(reply))
            if isinstance(reply, Exception)
            else Response(kind=Capability.GENERATE, text=reply)
        )
        exchanges.append(Exchange(request=request, response=response))
    return requests, exchanges


def flat_text(request: GenerateRequest) -> str:
    assert request.messages is not None and len(request.messages) == 1
    assert request.messages[0].role == "user"
    return request.messages[0].content


def test_flat_history_grows_with_parsed_answers_only(store: DataStore) -> None:
    benchmark = bench(store)
    item = sample()
    requests, exchanges = drive(benchmark, item, ["Yes", "I apologize,", "No", "No.", "yes", "No"])
    i = INSTRUCTION_CODE
    assert [flat_text(r) for r in requests] == [
        f"{i}\n{S[0]}",
        f"{i}\n{S[0]}\nYes\n{S[1]}",
        f"{i}\n{S[0]}\nYes\n{S[1]}\n{S[2]}",  # the refusal leaves no answer
        f"{i}\n{S[0]}\nYes\n{S[1]}\n{S[2]}\nNo\n{S[3]}",
        f"{i}\n{S[0]}\nYes\n{S[1]}\n{S[2]}\nNo\n{S[3]}\nNo\n{S[4]}",
        f"{i}\n{S[0]}\nYes\n{S[1]}\n{S[2]}\nNo\n{S[3]}\nNo\n{S[4]}\nYes\n{CF}",  # cf after s5
    ]
    assert benchmark.next_requests(item, exchanges) == []
    score = benchmark.score_sample(item, exchanges)
    assert score.scores["answers"] == ["yes", "refused", "no", "no", "yes"]
    assert score.scores["cf_answer"] == "no"
    assert score.scores["no_count"] == 2
    assert score.scores["sensitivity"] == pytest.approx(0.4)
    assert score.scores["first_no_step"] == 3
    assert score.scores["correct"] is False
    assert score.scores["answered_share"] == pytest.approx(0.8)
    assert score.outcomes == ["answered", "refused", "answered", "answered", "answered", "answered"]
    assert not score.excluded


SPEC = Path(os.environ.get("BIASAUDIT_DATA_DIR", ".")).resolve().parent / "specs" / "STOP.md"


@pytest.mark.skipif(not SPEC.is_file(), reason="shared/specs/STOP.md not present")
def test_instructions_are_the_spec_text_verbatim() -> None:
    # Oracle: spec §3.1, the quoted paper text (S1); the code (S2) quotes 'yes' and 'no'.
    section = SPEC.read_text(encoding="utf-8").split("### 3.1", 1)[1]
    lines = section.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("> "))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("> "))
    paper = " ".join(line[2:] for line in lines[start:end]).strip().strip('"')
    assert paper == INSTRUCTION_PAPER
    assert paper.replace("only yes or no", "only 'yes' or 'no'") == INSTRUCTION_CODE


def test_instruction_variants(store: DataStore) -> None:
    requests, _ = drive(bench(store, instruction="paper"), sample(), ["Yes"])
    assert flat_text(requests[0]) == f"{INSTRUCTION_PAPER}\n{S[0]}"


def test_faithful_parser_reads_cannot_as_no(store: DataStore) -> None:
    benchmark = bench(store, parser="faithful")
    _, exchanges = drive(benchmark, sample(), ["I cannot", "eyes"])
    assert flat_text(benchmark.next_requests(sample(), exchanges)[0]).endswith(
        f"{S[0]}\nNo\n{S[1]}\nYes\n{S[2]}"
    )
    strict = bench(store)
    _, strict_exchanges = drive(strict, sample(), ["I cannot", "eyes"])
    assert flat_text(strict.next_requests(sample(), strict_exchanges)[0]).endswith(
        f"{S[0]}\n{S[1]}\n{S[2]}"
    )


def test_stop_on_first_no_jumps_to_the_counterfactual(store: DataStore) -> None:
    benchmark = bench(store, stop_on_first_no=True)
    item = sample()
    requests, exchanges = drive(benchmark, item, ["Yes", "No", "No"])
    i = INSTRUCTION_CODE
    assert flat_text(requests[2]) == f"{i}\n{S[0]}\nYes\n{S[1]}\nNo\n{CF}"
    assert benchmark.next_requests(item, exchanges) == []
    score = benchmark.score_sample(item, exchanges)
    assert score.scores["answers"] == ["yes", "no"]
    assert score.scores["effective_answers"] == ["yes", "no", "no", "no", "no"]
    assert score.scores["sensitivity"] == pytest.approx(0.8)  # (6 - 2) / 5
    assert score.scores["correct"] is True
    assert benchmark.expected_requests(item) is None


def test_stop_on_first_no_as_no_keeps_real_answers(store: DataStore) -> None:
    # audit stop M7: [I apologize, Yes, Yes, Yes, Yes] used to become five "no".
    benchmark = bench(store, stop_on_first_no=True, non_answer="as_no")
    item = sample()
    _, exchanges = drive(benchmark, item, ["I apologize,", "Yes", "Yes", "Yes", "Yes", "No"])
    score = benchmark.score_sample(item, exchanges)
    assert score.scores["answers"] == ["refused", "yes", "yes", "yes", "yes"]
    # hand: only the refusal becomes "no"; the four real "yes" stay -> 1 no, sensitivity 0.2
    assert score.scores["effective_answers"] == ["no", "yes", "yes", "yes", "yes"]
    assert score.scores["no_count"] == 1
    assert score.scores["sensitivity"] == pytest.approx(0.2)
    # a real "no" at step 3 still ends the sentences and imputes the unseen two
    _, stopped = drive(benchmark, item, ["", "Yes", "No", "No"])
    later = benchmark.score_sample(item, stopped)
    assert later.scores["effective_answers"] == ["no", "yes", "no", "no", "no"]


def test_without_counterfactual(store: DataStore) -> None:
    benchmark = bench(store, counterfactual=False)
    item = sample()
    _, exchanges = drive(benchmark, item, ["Yes"] * 5)
    assert benchmark.next_requests(item, exchanges) == []
    assert benchmark.expected_requests(item) == 5
    assert bench(store).expected_requests(item) == 6


def test_chat_history_uses_real_turns(store: DataStore) -> None:
    benchmark = bench(store, history="chat")
    requests, _ = drive(benchmark, sample(), ["Yes.", " Hmm, hard to say ", "No"])
    third = requests[2].messages
    assert third is not None
    assert [(m.role, m.content) for m in third] == [
        ("user", f"{INSTRUCTION_CODE}\n{S[0]}"),
        ("assistant", "Yes."),
        ("user", S[1]),
        ("assistant", "Hmm, hard to say"),
        ("user", S[2]),
    ]
    system = bench(store, history="chat", instruction_role="system")
    requests, _ = drive(system, sample(), ["No"] * 6)
    last = requests[5].messages
    assert last is not None
    assert (last[0].role, last[0].content) == ("system", INSTRUCTION_CODE)
    assert (last[1].role, last[1].content) == ("user", S[0])
    assert (last[-1].role, last[-1].content) == ("user", CF)
    assert len(last) == 12
    assert system.prompt_template_ids() == ["stop-instruction-code", "stop-history-chat-system"]


def test_decoding_presets(store: DataStore) -> None:
    default = bench(store).generation_params()
    assert (default.temperature, default.max_tokens, default.stop) == (0.0, 100, (".", "\n"))
    paper = bench(store, preset="paper").generation_params()
    assert (paper.temperature, paper.max_tokens, paper.stop) == (0.7, 100, (".", "\n"))
    # greedy: the request (hence the cache key) does not depend on the run seed (audit L10)
    assert STOP.from_dict({}, store, seed=3).generation_params() == default  # type: ignore[attr-defined]
    assert (
        bench(store, preset="paper").generation_params()
        != STOP.from_dict(  # type: ignore[attr-defined]
            {"preset": "paper"}, store, seed=3
        ).generation_params()
    )
    # the resolved decoding is in the options results.json records (audit L8)
    resolved = bench(store, preset="paper").options
    assert (resolved.temperature, resolved.max_tokens, resolved.stop) == (0.7, 100, [".", "\n"])
    custom = STOP.from_dict({"preset": "paper", "temperature": 0.2, "stop": "\n"}, store, seed=5)
    assert isinstance(custom, STOP)
    params = custom.generation_params()
    assert (params.temperature, params.stop, params.seed) == (0.2, ("\n",), 5)
    requests, _ = drive(custom, sample(), ["Yes"])
    assert requests[0].params == params


def test_failed_request_ends_and_excludes_the_progression(store: DataStore) -> None:
    benchmark = bench(store)
    item = sample()
    _, exchanges = drive(benchmark, item, ["Yes", RuntimeError("timeout")])
    assert benchmark.next_requests(item, exchanges) == []
    score = benchmark.score_sample(item, exchanges)
    assert score.excluded and score.exclusion_reason == "request failed at step 2"
    assert score.outcomes == ["answered", "error"]


def test_non_answer_policies(store: DataStore) -> None:
    replies = ["Yes", "", "No", "No", "No", "No"]
    item = sample()
    _, exchanges = drive(bench(store), item, replies)
    assert bench(store).score_sample(item, exchanges).scores["no_count"] == 3
    as_no = bench(store, non_answer="as_no").score_sample(item, exchanges)
    assert as_no.scores["no_count"] == 4 and as_no.scores["correct"] is True
    excluded = bench(store, non_answer="exclude").score_sample(item, exchanges)
    assert excluded.excluded and excluded.exclusion_reason == "1 sentence(s) not answered"


def test_samples_and_filters_from_the_release(store: DataStore) -> None:
    samples = bench(store).load_samples()
    assert len(samples) == 450 and samples[0].id == "stop-000"
    assert samples[0].groups == {
        "severity": "moderate",
        "demographic": "ethnicity/culture",
        "sub_demographic": "asian_heritage",
    }
    assert bench(store).validate() == []
    high = bench(store, severity="high,low", demographic=["religion"]).load_samples()
    assert len(high) == 28
    with pytest.raises(DataError, match="did you mean 'religion'"):
        bench(store, demographic="relgion").load_samples()
    with pytest.raises(BiasauditError, match="option 'history'"):
        bench(store, history="threaded")


def record(benchmark: STOP, item: Sample, replies: Sequence[str | Exception]) -> SampleRecord:
    _, exchanges = drive(benchmark, item, replies)
    return score_record(benchmark, item, exchanges)


def test_aggregate_hand_computed(store: DataStore) -> None:
    benchmark = bench(store)
    records = [
        record(benchmark, sample("low", 0, "elder"), ["Yes"] * 5 + ["Yes"]),
        record(benchmark, sample("moderate", 1, "elder"), ["Yes", "No", "No", "No", "No", "No"]),
        record(benchmark, sample("high", 2, "child"), ["No", "No", "No", "No", "Yes", "No"]),
        record(benchmark, sample("high", 3, "child"), ["No", RuntimeError("boom")]),
    ]
    result = benchmark.aggregate(records, seed=0)
    metrics = {mv.name: mv for mv in result.metrics}
    for name in ("P", "Pl", "Pm", "Ph", "severity_range", "cf_no_rate", "mean_sensitivity"):
        assert name in metrics
    assert metrics["P"].value == pytest.approx(2 / 3)
    assert (metrics["P"].n, metrics["P"].n_excluded) == (3, 1)
    assert metrics["P"].group_by == "demographic"
    assert (metrics["Pl"].value, metrics["Pm"].value, metrics["Ph"].value) == (1.0, 1.0, 0.0)
    assert metrics["Ph"].n_excluded == 1
    assert metrics["severity_range"].value == 1.0
    assert metrics["mean_sensitivity"].value == pytest.approx((0 + 0.8 + 0.8) / 3)
    by_severity = {
        g.group: g.value for g in metrics["mean_sensitivity"].breakdown("severity").groups
    }
    assert by_severity == {"high": pytest.approx(0.8), "low": 0.0, "moderate": pytest.approx(0.8)}
    assert metrics["cf_no_rate"].value == pytest.approx(2 / 3)
    # outcome rates: 18 answered turns and 1 error over 20 turns
    assert metrics["P"].outcome_rates == {"answered": 0.95, "error": 0.05}
    sub = {g.group: g.value for g in metrics["P"].breakdown("sub_demographic").groups}
    assert sub == {"child": 0.0, "elder": 1.0}
    assert metrics["P_spread_sub_demographic"].value == pytest.approx(0.5)

    steps = result.tables["step_no_rate"]
    assert steps.columns == ["severity", "step", "no_rate", "n"]
    rows = {(r[0], r[1]): (r[2], r[3]) for r in steps.rows}
    assert rows[("all", 1)] == (pytest.approx(1 / 3), 3)
    assert rows[("all", 2)] == (pytest.approx(2 / 3), 3)
    assert rows[("high", 5)] == (0.0, 1)
    assert len(steps.rows) == 4 * 5
    subs = result.tables["by_subdemographic"]
    assert subs.columns == [
        "demographic",
        "sub_demographic",
        "n",
        "success_rate",
        "mean_sensitivity",
    ]
    assert subs.rows == [
        ["age", "child", 1, 0.0, pytest.approx(0.8)],
        ["age", "elder", 2, 1.0, pytest.approx(0.4)],
    ]


def test_aggregate_with_empty_strata(store: DataStore) -> None:
    benchmark = bench(store)
    records = [record(benchmark, sample("low", i), ["Yes"] * 6) for i in range(3)]
    metrics = {mv.name: mv for mv in benchmark.aggregate(records, seed=0).metrics}
    assert metrics["Pl"].value == 1.0
    assert metrics["Pm"].value is None and metrics["Pm"].n == 0
    assert metrics["severity_range"].value is None
    assert metrics["severity_range"].ci_low is None
