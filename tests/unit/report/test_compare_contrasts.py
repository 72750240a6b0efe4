"""`biasaudit compare` shows signed contrasts (value, CI, n, floor p) and every run's n and CI.

Two real run folders: a 40-item benchmark declared here (a `MetricSpec` with a pro - anti
contrast and a noise floor) run by the run engine on the replay backend with scripted
answers. Expected values are hand computation from the script: run A is right on 15 of 20
pro and 8 of 20 anti items (contrast 0.75 - 0.40 = 0.35), run B on 12 of 20 and 12 of 20
(contrast 0). The floor's p-value is checked against the exact permutation p (the
hypergeometric sum written out with math.comb).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from math import comb
from pathlib import Path
from typing import ClassVar

import pytest

from biasaudit import api
from biasaudit.benchmark_spec import BenchmarkSpec
from biasaudit.benchmarks import Benchmark, MetricSpec, Sample, SampleScore
from biasaudit.cli.app import main
from biasaudit.discovery import added
from biasaudit.metrics import Contrast
from biasaudit.requests import Capability, GenerateRequest, Response
from biasaudit.results.schema import Exchange

N = 40
STANCES = ["pro"] * 20 + ["anti"] * 20


def _request(i: int) -> GenerateRequest:
    return GenerateRequest(prompt=f"Item {i}: who does the pronoun refer to? Answer A or B.")


class Stance(Benchmark):
    """Item i's gold answer is always "A"; the score is 1 when the reply is "A"."""

    name = "stance_toy"
    version = "1"
    metrics: ClassVar[list[MetricSpec]] = [
        MetricSpec(
            name="accuracy",
            score="correct",
            group_by=["stance"],
            noise_floor=True,
            contrasts=[Contrast(by="stance", a="pro", b="anti")],
            higher_is_better=True,
        )
    ]

    def required_capabilities(self) -> frozenset[Capability]:
        return frozenset({Capability.GENERATE})

    def data_keys(self) -> list[str]:
        return []

    def load_samples(self) -> list[Sample]:
        return [Sample(f"item-{i}", {"i": i}, {"stance": s}) for i, s in enumerate(STANCES)]

    def next_requests(self, sample: Sample, exchanges: Sequence[Exchange]) -> list[GenerateRequest]:
        return [] if exchanges else [_request(sample.data["i"])]

    def expected_requests(self, sample: Sample) -> int:
        return 1

    def score_sample(self, sample: Sample, exchanges: Sequence[Exchange]) -> SampleScore:
        return SampleScore(["answered"], {"correct": exchanges[0].response.text == "A"})


SPEC = BenchmarkSpec(
    name="stance_toy",
    title="a pro/anti toy for compare",
    benchmark=f"{__name__}:Stance",
)


@pytest.fixture
def stance_benchmark() -> Iterator[None]:
    with added(SPEC):
        yield


def _run(tmp_path: Path, label: str, right: set[int]) -> Path:
    replay = tmp_path / f"{label}.jsonl"
    lines = [
        json.dumps(
            {
                "request": _request(i).model_dump(mode="json"),
                "response": Response(kind="generate", text="A" if i in right else "B").model_dump(
                    mode="json"
                ),
            }
        )
        for i in range(N)
    ]
    replay.write_text("\n".join(lines) + "\n")
    out = tmp_path / label
    api.evaluate("stance_toy", f"replay:{replay}", output_dir=out, progress=False, use_cache=False)
    return out


#: A: pro items 0-14 right, anti items 20-27 right. B: pro 0-11, anti 20-31 right.
RIGHT_A = set(range(15)) | set(range(20, 28))
RIGHT_B = set(range(12)) | set(range(20, 32))
#: Exact p of |pro - anti| >= 0.35 for run A under shuffles of 20 pro labels among 40 items,
#: 23 of them right: with k right pro items |k - (23 - k)| / 20 >= 0.35 iff k <= 8 or
#: k >= 15; k (3..20) is hypergeometric, P(k) = C(23, k) C(17, 20 - k) / C(40, 20).
_TAILS = [k for k in range(3, 21) if abs(2 * k - 23) >= 7]
EXACT_P_A = sum(comb(23, k) * comb(17, 20 - k) for k in _TAILS) / comb(40, 20)


def test_compare_shows_contrasts_with_ci_n_and_floor(
    stance_benchmark: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_a, run_b = _run(tmp_path, "a", RIGHT_A), _run(tmp_path, "b", RIGHT_B)
    capsys.readouterr()
    assert main(["compare", str(run_a), str(run_b), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_kind = {(r["metric"], r["kind"], r["group"]): r for r in rows}
    contrast = by_kind[("accuracy", "contrast", "stance: pro - anti")]
    assert contrast["baseline_value"] == pytest.approx(0.75 - 0.40)
    assert contrast["other_value"] == pytest.approx(0.60 - 0.60)
    assert contrast["difference"] == pytest.approx(-0.35)
    assert contrast["baseline_n"] == 40 and contrast["other_n"] == 40
    # each run's contrast CI holds its value; the difference's CI is the conservative one
    # from the two stored CIs: [low_b - high_a, high_b - low_a]
    assert contrast["baseline_ci_low"] <= 0.35 <= contrast["baseline_ci_high"]
    assert contrast["other_ci_low"] <= 0.0 <= contrast["other_ci_high"]
    assert contrast["ci_low"] == pytest.approx(
        contrast["other_ci_low"] - contrast["baseline_ci_high"]
    )
    assert contrast["ci_high"] == pytest.approx(
        contrast["other_ci_high"] - contrast["baseline_ci_low"]
    )
    assert contrast["method"] == "conservative"
    # floor: Monte Carlo (1,000 shuffles; standard error 0.007) against the exact p; run B's
    # observed |a - b| is 0, so every shuffle reaches it: p = 1
    assert contrast["baseline_p_value"] == pytest.approx(EXACT_P_A, abs=0.02)
    assert contrast["other_p_value"] == pytest.approx(1.0)
    assert contrast["baseline_null_p95"] is not None
    overall = by_kind[("accuracy", "overall", "")]
    assert (overall["baseline_value"], overall["baseline_n"]) == (pytest.approx(23 / 40), 40)
    assert (overall["other_value"], overall["other_n"]) == (pytest.approx(24 / 40), 40)
    # 23 of 40 right, independent items: the Wilson interval, by hand:
    # (p + z^2/2n +- z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), z = 1.959964
    z, p, n = 1.959963984540054, 23 / 40, 40
    centre, half = p + z * z / (2 * n), z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    assert overall["baseline_ci_low"] == pytest.approx((centre - half) / (1 + z * z / n))
    assert overall["baseline_ci_high"] == pytest.approx((centre + half) / (1 + z * z / n))
    pro = by_kind[("accuracy", "group", "pro")]
    assert (pro["baseline_value"], pro["other_value"]) == (
        pytest.approx(15 / 20),
        pytest.approx(12 / 20),
    )
    assert (pro["baseline_n"], pro["other_n"]) == (20, 20)

    assert main(["compare", str(run_a), str(run_b), "--csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    row = next(r for r in table if r["kind"] == "contrast")
    assert float(row["difference"]) == pytest.approx(-0.35)
    assert float(row["baseline_p_value"]) == pytest.approx(contrast["baseline_p_value"])
    assert row["baseline_n"] == "40"

    assert main(["compare", str(run_a), str(run_b)]) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if x.startswith("accuracy") and "pro - anti" in x)
    low, high = contrast["baseline_ci_low"], contrast["baseline_ci_high"]
    assert f"0.35 [{low:.4g}, {high:.4g}] n=40" in line
    assert f"{contrast['baseline_p_value']:.4g} / 1" in line
    assert "-0.35" in line
    overall_line = next(x for x in text.splitlines() if "(overall)" in x)
    assert "0.575 [" in overall_line and "n=40" in overall_line
    # groups only with --groups; contrasts always
    assert not any(x.startswith("accuracy  pro ") for x in text.splitlines())
