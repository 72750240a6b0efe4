"""The HTML report built from hand-made run directories."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import external_references, svgs

from biasaudit import plugin
from biasaudit.benchmarks import BenchmarkSpec
from biasaudit.errors import RunError
from biasaudit.report import build_html, load_runs, write_report
from biasaudit.report.samples import transcript
from biasaudit.report.views import view_path, view_sections
from biasaudit.requests import GenerateRequest, Message, Response
from biasaudit.results.schema import Exchange, SampleRecord


@pytest.fixture
def single(run_a: Path) -> str:
    return build_html(load_runs([run_a]))


def test_single_run_report_content(single: str) -> None:
    assert single.startswith("<!DOCTYPE html>")
    # headline value and CI, outcome rates, per-group chart
    assert ">0.641<" in single and "[0.564, 0.718]" in single
    assert ">refused<" in single and ">0.1<" in single
    assert "accuracy by group" in single
    # provenance: model identity, data checksum, options, seed, toolkit version + revision
    for text in (
        "cd" * 32,
        "sha256 " + "ab" * 32,
        "{&quot;mode&quot;: &quot;strict&quot;}",
        "abc1234",
    ):
        assert text in single
    assert "Comparison" not in single


def test_report_is_self_contained(single: str) -> None:
    assert "<script" not in single.lower()
    assert external_references(single) == []
    assert "Content-Security-Policy" in single and "default-src 'none'" in single
    parsed = svgs(single)
    assert len(parsed) >= 3
    assert all(s.find("{http://www.w3.org/2000/svg}title") is not None for s in parsed)
    # every chart is followed by its table equivalent
    assert single.count("<figure>") == single.count("Table of this chart")


def test_sample_browser(single: str) -> None:
    assert "Worst-scoring by accuracy" in single
    assert "Samples with a refused answer (4)" in single
    assert "I cannot help with that." in single
    assert "Yes &lt;b&gt;" in single and "Yes <b>" not in single  # model output is escaped
    assert single.count('<details class="cw">') >= 4
    assert "Content warning" in single


def test_two_runs_side_by_side(run_a: Path, run_b: Path) -> None:
    page = build_html(load_runs([run_a, run_b]))
    assert 'id="comparison"' in page
    assert "toy: model-b minus model-a" in page
    assert "paired bootstrap (1000, cluster=cluster)" in page
    assert "model-a: value" in page and "model-b: value" in page
    assert external_references(page) == []
    svgs(page)
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids))


def test_write_report(run_a: Path, tmp_path: Path) -> None:
    out = write_report([run_a], tmp_path / "sub" / "r.html")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    with pytest.raises(RunError, match="is a directory"):
        write_report([run_a], tmp_path)
    with pytest.raises(RunError, match="no results.json"):
        write_report([tmp_path / "sub"], tmp_path / "x.html")


def test_views_come_from_the_spec(
    run_a: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "toyview.py"
    module.write_text(
        "from biasaudit.report.sections import Section\n"
        "def sections(result, records):\n"
        "    return [Section('custom view', f'<p>{result.benchmark} {len(records)}</p>')]\n"
        "def broken(result, records):\n"
        "    raise ValueError('bad')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    specs = dict(plugin.discover())
    for name, view in (("toyview", "toyview:sections"), ("broken", "toyview:broken")):
        specs[name] = BenchmarkSpec(name=name, title=name, benchmark="x:y", report_view=view)
    monkeypatch.setattr(plugin, "discover", lambda: specs)
    run = load_runs([run_a])[0]
    result = run.result.benchmarks[0]
    assert view_path("toy") is None  # no such benchmark: generic sections only
    assert view_path("stop") == "biasaudit.benchmarks.stop.report_view:sections"

    custom = view_sections(result.model_copy(update={"benchmark": "toyview"}), run.samples("toy"))
    assert [(s.title, s.body) for s in custom] == [("custom view", "<p>toyview 40</p>")]
    failed = view_sections(result.model_copy(update={"benchmark": "broken"}), [])
    assert failed[0].title == "broken: view failed" and "ValueError: bad" in failed[0].body


def test_transcript_shows_each_turn_once() -> None:
    first = (Message(role="user", content="S1? Yes or No."),)
    second = (*first, Message(role="assistant", content="Yes"), Message(role="user", content="S2?"))
    record = SampleRecord(
        benchmark="b",
        sample_id="s",
        sample_hash="h",
        exchanges=[
            Exchange(
                request=GenerateRequest(messages=first),
                response=Response(kind="generate", text="Yes"),
            ),
            Exchange(
                request=GenerateRequest(messages=second),
                response=Response(kind="generate", error="timeout"),
            ),
        ],
    )
    html = transcript(record)
    assert html.count("S1? Yes or No.") == 1 and html.count(">Yes<") == 1
    assert "S2?" in html and "timeout" in html
