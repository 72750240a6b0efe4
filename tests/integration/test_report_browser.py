"""The report in a real browser (Debian's Chromium, `make chromium`): it renders without
console errors and asks the network for nothing.

The run behind the report is a real STOP run through the openai backend against a loopback
server (`fake_openai`), so no model is needed. In CI (`BIASAUDIT_REQUIRE_CHROMIUM=1`, set by
.ci/run) a missing Chromium fails these tests instead of skipping them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from fake_openai import stop_run as fake_stop_run

from biasaudit.report import build_html, load_runs
from biasaudit.report.browser import find_chromium, render
from biasaudit.results.io import iter_samples, read_results
from biasaudit.results.status import judge

pytestmark = pytest.mark.skipif(
    find_chromium() is None and not os.environ.get("BIASAUDIT_REQUIRE_CHROMIUM"),
    reason="chromium not installed (make chromium)",
)


@pytest.fixture(scope="module")
def stop_run(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    return fake_stop_run(tmp_path_factory.mktemp("browser") / "run", data_dir, limit=4)


def test_the_report_loads_nothing_from_the_network(stop_run: Path, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(build_html(load_runs([stop_run])), encoding="utf-8")
    rendered = render(page, width=1000, height=700)
    assert rendered.requests == []
    assert rendered.console_errors == []
    assert "stop" in rendered.text.lower()
    assert rendered.png.startswith(b"\x89PNG")


def test_the_network_check_sees_a_page_that_loads_something(tmp_path: Path) -> None:
    # The same check on a page without the report's CSP that loads an image from loopback:
    # the request must be seen, or the test above proves nothing.
    with FakeOpenAI() as server:
        page = tmp_path / "leaky.html"
        image = f"http://127.0.0.1:{server.port}/pixel.png"
        page.write_text(f'<html><body><p>leak</p><img src="{image}"></body></html>')
        rendered = render(page, width=400, height=300)
    assert image in rendered.requests


def test_a_partial_run_shows_its_banner(stop_run: Path, tmp_path: Path) -> None:
    run_dir = tmp_path / "partial"
    shutil.copytree(stop_run, run_dir)
    run, records = read_results(run_dir), list(iter_samples(run_dir))
    # What results.json says after `run stop calm` was killed during calm.
    (run_dir / "results.json").write_text(judge(run, records, ["stop", "calm"]).model_dump_json())
    page = tmp_path / "report.html"
    page.write_text(build_html(load_runs([run_dir])), encoding="utf-8")
    rendered = render(page, width=1000, height=700)
    assert rendered.requests == [] and rendered.console_errors == []
    # Rendered and visible (innerText skips hidden elements), above the contents.
    text = rendered.text
    assert "partial run." in text and "not finished: calm (finished: stop)" in text
    assert text.index("partial run.") < text.index("Overview")


def test_the_report_opens_with_the_profile_and_shows_no_gated_value(
    stop_run: Path, tmp_path: Path
) -> None:
    """Issue 20: the first thing on the page is the bias profile (heat map, verdict table,
    validity gates); a 4-sample STOP run is below the gates' minimum n, so every profile row
    says 'not measurable' and carries no effect value."""
    import re

    page = tmp_path / "profile.html"
    page.write_text(build_html(load_runs([stop_run])), encoding="utf-8")
    html_text = page.read_text(encoding="utf-8")
    assert html_text.index('<section id="profile">') < html_text.index('<section id="overview">')
    assert "<svg" in html_text[: html_text.index('<section id="overview">')]  # the heat map
    rendered = render(page)
    assert rendered.requests == [] and rendered.console_errors == []
    text = rendered.text
    start = text.index("Bias profile:")  # the section's heading (the contents list comes first)
    profile = text[start : text.index("Overview", start)]
    assert "verdicts (" in profile and "validity gates" in profile
    gated = [line for line in profile.splitlines() if "not measurable" in line]
    assert gated, profile
    for line in gated:  # a reason may hold counts and percentages, never an effect estimate
        assert not re.search(r"-?\d+\.\d+", line), line
