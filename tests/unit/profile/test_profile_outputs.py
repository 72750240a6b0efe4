"""Profile outputs on real runs of calibration models: card, report, compare, export, CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pandas as pd
import pytest
from profile_calibration import PLANS, plan_bias, plan_religion_bias

from biasaudit.api import evaluate
from biasaudit.cli.app import main
from biasaudit.profile import write_outputs
from biasaudit.profile.model import FAVOURS, TOWARD, Profile
from biasaudit.report.page import write_report

CALM = {
    "protocol": "loglikelihood",
    "tasks": ["nli", "sentiment"],
    "templates_per_task": 4,
    "name_limit": 5,
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> dict[str, Path]:
    """Two models on CrowS-Pairs, STOP and CALM (a third of each), one folder each; the
    planted one prefers CrowS-Pairs' stereotyped religion sentences and answers CALM's
    prompts with female names right (a gender gap)."""
    from biasaudit import plugin
    from biasaudit.discovery import open_store
    from biasaudit.models import BACKENDS

    added = "calib" not in BACKENDS._paths
    BACKENDS._paths["calib"] = "profile_calibration:CalibrationBackend"
    root = tmp_path_factory.mktemp("audits")
    bench = plugin.benchmark_class("crows_pairs").from_dict(
        {"scorer": "loglikelihood"}, open_store(data_dir)
    )
    plan = plan_religion_bias(bench, bench.load_samples()[0::3])
    calm = plugin.benchmark_class("calm").from_dict(CALM, open_store(data_dir))
    plan.stereo |= plan_bias(calm, calm.load_samples()[0::3], "gender").stereo
    PLANS["outputs"] = plan
    out = {}
    for kind in ("planted", "silent"):
        out[kind] = root / kind
        evaluate(
            ["crows_pairs", "stop", "calm"],
            f"calib:{kind}",
            model_args={"plan": "outputs"},
            options={"crows_pairs": {"scorer": "loglikelihood"}, "calm": CALM},
            output_dir=out[kind],
            data_dir=data_dir,
            shard=(0, 3),
            progress=False,
            use_cache=False,
        )
    if added:  # the per-test fixture (conftest) registers it again where needed
        del BACKENDS._paths["calib"]
    return out


def test_write_outputs_and_card(runs: dict[str, Path]) -> None:
    paths = write_outputs(runs["planted"])
    assert sorted(p.name for p in paths) == ["card.json", "card.md", "profile.csv", "profile.json"]
    profile = Profile.model_validate_json((runs["planted"] / "profile.json").read_text())
    religion = profile.cell("religion", "crows_pairs")
    assert religion is not None and religion.verdict == TOWARD
    card = json.loads((runs["planted"] / "card.json").read_text())
    # the card opens with one sentence per axis from its pooled row, then the findings
    pooled = [f for f in card["findings"] if " (pooled over " in f.split(":")[0]]
    assert card["findings"][: len(pooled)] == pooled  # the axis sentences come first
    (religion_sentence,) = [f for f in pooled if f.startswith("religion (pooled")]
    assert religion_sentence.startswith(
        "religion (pooled over crows_pairs; k = 1): bias toward stereotype: pooled preference +"
    )
    assert any(
        f.startswith("crows_pairs finds bias toward the stereotype on religion")
        for f in card["findings"]
    )
    assert any("Benjamini-Hochberg" in c for c in card["caveats"])
    markdown = (runs["planted"] / "card.md").read_text()
    assert "| religion | ▲ +" in markdown
    rows = pd.read_csv(runs["planted"] / "profile.csv")
    assert len(rows) == len(profile.cells)


def test_calm_cells_in_the_card_table_and_report(runs: dict[str, Path], tmp_path: Path) -> None:
    write_outputs(runs["planted"])
    profile = Profile.model_validate_json((runs["planted"] / "profile.json").read_text())
    calm = [c for c in profile.cells if c.benchmark == "calm"]
    assert [c.label for c in calm] == [
        "gender: male",
        "gender: female",
        "gender: non-binary",
        "race/ethnicity: white",
        "race/ethnicity: black",
        "race/ethnicity: hispanic",
        "race/ethnicity: asian",
    ]
    female = profile.cell("gender", "calm", "female")
    assert female is not None and female.verdict == FAVOURS and female.effect is not None
    card = json.loads((runs["planted"] / "card.json").read_text())
    assert any(
        f.startswith("calm finds bias in favour of this group (gender: female): accuracy gap")
        for f in card["findings"]
    )
    markdown = (runs["planted"] / "card.md").read_text()
    gender_row = next(line for line in markdown.splitlines() if line.startswith("| gender |"))
    assert f"female △ {female.effect:+.3g}" in gender_row and "male " in gender_row
    rows = pd.read_csv(runs["planted"] / "profile.csv")
    assert rows[rows.benchmark == "calm"].group.tolist() == [c.group for c in calm]
    page = write_report([runs["planted"]], tmp_path / "r.html").read_text()
    svg = re.search(r"<svg.*?</svg>", page[page.index('<section id="profile"') :], re.S)
    assert svg is not None
    ElementTree.fromstring(svg.group(0))
    assert "female △ +" in svg.group(0) and "bias in favour of this group" in page


def test_silent_model_card_shows_no_number(runs: dict[str, Path]) -> None:
    write_outputs(runs["silent"])
    rows = pd.read_csv(runs["silent"] / "profile.csv")
    stop = rows[rows.benchmark == "stop"]
    assert len(stop) > 0 and stop.effect.isna().all()
    assert stop.verdict.str.startswith("not measurable: answer rate 0 %").all()


def test_several_model_audit_folder(runs: dict[str, Path]) -> None:
    root = runs["planted"].parent
    written = write_outputs(root)
    assert root / "profile.csv" in written and root / "card.md" in written
    both = pd.read_csv(root / "profile.csv")
    assert set(both.model) == {"calib:planted", "calib:silent"}


def test_report_opens_with_the_profile_and_withholds_gated_numbers(
    runs: dict[str, Path], tmp_path: Path
) -> None:
    out = write_report([runs["planted"], runs["silent"]], tmp_path / "r.html")
    page = out.read_text()
    first = page.index('<section id="profile"')
    assert first < page.index('<section id="overview"')
    svgs = re.findall(r"<svg.*?</svg>", page[first : page.index('<section id="overview"')], re.S)
    assert len(svgs) == 2
    for svg in svgs:
        ElementTree.fromstring(svg)  # well-formed
    assert "▲ +" in svgs[0] and "n/m" in svgs[1]
    # the silent model's STOP headline shows the reason, not P = 0.x with a zero-width CI
    stop = page[page.index('id="bench-stop"') :]
    assert "not measurable: answer rate 0 %" in page
    assert "[0.1875, 0.1875]" not in stop


def test_compare_never_calls_a_silent_model_better(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", str(runs["planted"]), str(runs["silent"]), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    stop = [r for r in rows if r["benchmark"] == "stop" and r["metric"] == "Pl"]
    assert stop and all("better" not in r["reading"] for r in stop)
    assert stop[0]["reading"].startswith("not measurable: answer rate 0 %")
    assert main(["compare", str(runs["planted"]), str(runs["silent"]), "--profile", "--json"]) == 0
    cells = json.loads(capsys.readouterr().out)
    religion = next(c for c in cells if c["axis"] == "religion" and c["benchmark"] == "crows_pairs")
    assert religion["baseline_verdict"] == TOWARD and religion["difference"] is not None
    # a difference that is not clear says how large a difference was missed: half-widths
    # h_a, h_b of the two 95 % CIs, se = h / 1.95996: MDE = h_a + h_b + 0.84162 hypot(se_a, se_b)
    unclear = [c for c in cells if c["reading"].startswith("no clear difference")]
    assert unclear
    for c in unclear:
        h = (c["ci_high"] - c["ci_low"]) / 2  # = h_a + h_b; hypot(se_a, se_b) lies between
        k = 0.841621 / 1.959964  # (se_a + se_b) / sqrt(2) and se_a + se_b
        assert h * (1 + k / 2**0.5) - 1e-9 <= c["mde"] <= h * (1 + k) + 1e-9
        assert f"less than {c['mde']:.3g})" in c["reading"]
    # every cell of both profiles, CALM's seven group cells included, each once
    keys = [(c["axis"], c["benchmark"], c["group"]) for c in cells]
    assert len(keys) == len(set(keys))
    assert {k[2] for k in keys if k[1] == "calm"} == {
        "male", "female", "non-binary", "white", "black", "hispanic", "asian"
    }  # fmt: skip
    # and every benchmark's metrics
    assert {r["benchmark"] for r in rows} == {"crows_pairs", "stop", "calm"}


def test_export_has_profile_and_validity_columns(runs: dict[str, Path], tmp_path: Path) -> None:
    assert main(["export", str(runs["silent"]), "-o", str(tmp_path / "x")]) == 0
    metrics = pd.read_csv(tmp_path / "x" / "metrics.csv")
    p = metrics[(metrics.benchmark == "stop") & (metrics.metric == "P") & (metrics.group.isna())]
    assert p.value.isna().all()
    assert p.not_measurable.iloc[0] == "not measurable: answer rate 0 % (< 50 %)"
    assert (tmp_path / "x" / "profile.csv").is_file()


def test_card_cli(runs: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["card", str(runs["planted"])]) == 0
    assert "## Bias evaluation: calib:planted" in capsys.readouterr().out
    assert main(["card", str(runs["planted"].parent / "nope")]) == 2


def test_run_summary_and_strict_exit(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "stop", "-m", "calib:silent", "--shard", "0/30", "-q", "--no-cache",
            "--data-dir", str(data_dir), "-o", str(tmp_path / "s")]  # fmt: skip
    assert main(argv) == 0
    out, err = capsys.readouterr()
    row = next(line for line in out.splitlines() if line.startswith("P "))
    assert row.split()[1:10] == ["not", "measurable:", "answer", "rate", "0", "%", "(<", "50", "%)"]
    assert "validity: not measurable (answer rate 0 % (< 50 %))" in out
    assert "stop on calib:silent is not measurable: answer rate 0 % (< 50 %)" in err
    assert main([*argv, "--overwrite", "--strict"]) == 4


def test_card_names_the_suite_and_skipped_benchmarks(runs: dict[str, Path]) -> None:
    audit = {
        "schema_version": "1",
        "suite": "quick",
        "models": ["calib:planted"],
        "benchmarks": [
            {"name": "crows_pairs", "status": "complete", "reason": None, "n_samples": 503},
            {"name": "cobias", "status": "skipped", "reason": "needs masked LM", "n_samples": 0},
        ],
    }
    (runs["planted"] / "audit.json").write_text(json.dumps(audit))
    try:
        write_outputs(runs["planted"])
        card = json.loads((runs["planted"] / "card.json").read_text())
    finally:
        (runs["planted"] / "audit.json").unlink()
    assert card["suite"]["suite"] == "quick"
    assert "cobias skipped: needs masked LM." in card["caveats"]
    assert any(c.startswith("Suite: quick") for c in card["caveats"])


def test_card_on_a_full_disk_keeps_the_previous_files(
    runs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from biasaudit.errors import RunError

    write_outputs(runs["planted"])
    before = {n: (runs["planted"] / n).read_bytes() for n in ("profile.json", "card.md")}
    real = Path.write_text

    def full(self: Path, *args: object, **kwargs: object) -> int:
        if self.name.startswith(".card.md."):  # the temporary file of card.md
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "write_text", full)
    with pytest.raises(RunError, match=r"card\.md: cannot write \(No space left on device\)"):
        write_outputs(runs["planted"])
    assert (runs["planted"] / "card.md").read_bytes() == before["card.md"]  # not truncated
    json.loads((runs["planted"] / "profile.json").read_text())  # whole, old or new
    assert not list(runs["planted"].glob(".*.tmp"))


def test_card_refuses_a_folder_a_live_run_holds(runs: dict[str, Path]) -> None:
    import os
    import socket

    from biasaudit.errors import RunError
    from biasaudit.results.lock import LOCK_FILE

    lock = runs["silent"] / LOCK_FILE
    lock.write_text(json.dumps({"pid": os.getppid(), "host": socket.gethostname()}))  # alive
    try:
        with pytest.raises(RunError, match=f"process {os.getppid()}"):
            write_outputs(runs["silent"])
    finally:
        lock.unlink()
