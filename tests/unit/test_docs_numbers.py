"""scripts/docs_numbers.py: the docs' generated numbers are current, and the markers work.

`--check` over the repository's docs runs every model-free block (run blocks, whose folders
are not committed, are reported as not checked), so a change to the interval or floor rules
that moves a quoted number fails here until the script is re-run. Oracles for the numbers:
statsmodels' Wilson interval (the CrowS-Pairs table and the n = 4 example).
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest
from statsmodels.stats.proportion import proportion_confint

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def docs_numbers() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "docs_numbers", ROOT / "scripts" / "docs_numbers.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["docs_numbers"] = module
    spec.loader.exec_module(module)
    return module


def test_repository_docs_are_current(docs_numbers: ModuleType, tmp_path: Path) -> None:
    assert docs_numbers.main(["--check", "--runs", str(tmp_path / "no-runs")]) == 0


def test_crows_table_is_the_wilson_interval_of_the_counts(docs_numbers: ModuleType) -> None:
    page = (ROOT / "docs/benchmarks/crows_pairs.md").read_text()
    row = next(x for x in page.splitlines() if x.startswith("| `metric_score` | **"))
    cells = re.findall(r"\[([\d.]+), ([\d.]+)\]", row)
    for (low, high), k in zip(cells, (821, 865), strict=True):
        expected = proportion_confint(k, 1508, alpha=0.05, method="wilson")
        assert (float(low), float(high)) == (
            pytest.approx(100 * expected[0], abs=0.005),
            pytest.approx(100 * expected[1], abs=0.005),
        )
    low4 = proportion_confint(4, 4, method="wilson")[0]
    assert docs_numbers.statistics_wilson(None) == f"[{100 * low4:.1f}, 100]"


PAGE = """# Page
Intro <!-- docs-numbers:one -->old 1<!-- /docs-numbers --> and
<!-- docs-numbers:two -->
old
table
<!-- /docs-numbers -->
tail
"""


def _fixture(docs_numbers: ModuleType, tmp_path: Path) -> list[object]:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(PAGE)
    block = docs_numbers.Block
    return [
        block("one", "docs/page.md", None, lambda _: "new 1"),
        block("two", "docs/page.md", None, lambda _: "\nnew\n"),
    ]


def test_rewrite_replaces_only_the_marked_text(
    docs_numbers: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = _fixture(docs_numbers, tmp_path)
    monkeypatch.setattr(docs_numbers, "BLOCKS", blocks)
    page = tmp_path / "docs" / "page.md"
    # --check: stale, nothing written
    assert docs_numbers.main(["--check", "--root", str(tmp_path)]) == 1
    assert page.read_text() == PAGE
    assert docs_numbers.main(["--root", str(tmp_path)]) == 0
    assert page.read_text() == (
        "# Page\nIntro <!-- docs-numbers:one -->new 1<!-- /docs-numbers --> and\n"
        "<!-- docs-numbers:two -->\nnew\n<!-- /docs-numbers -->\ntail\n"
    )
    assert docs_numbers.main(["--check", "--root", str(tmp_path)]) == 0
    # only one block asked for: the other is left alone
    page.write_text(PAGE)
    assert docs_numbers.main(["--only", "two", "--root", str(tmp_path)]) == 0
    assert "old 1" in page.read_text() and "old\ntable" not in page.read_text()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (PAGE.replace("<!-- /docs-numbers -->\ntail", "tail"), "not closed"),
        (
            PAGE + "<!-- docs-numbers:three -->x<!-- /docs-numbers -->\n",
            "unknown docs-numbers block 'three'",
        ),
        (PAGE.replace("docs-numbers:two", "docs-numbers:one"), "no marker for block(s) two"),
    ],
)
def test_malformed_markers_are_one_line_errors(
    docs_numbers: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
    message: str,
) -> None:
    blocks = _fixture(docs_numbers, tmp_path)
    monkeypatch.setattr(docs_numbers, "BLOCKS", blocks)
    (tmp_path / "docs" / "page.md").write_text(text)
    assert docs_numbers.main(["--check", "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_missing_run_is_skipped_or_refused(
    docs_numbers: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    blocks = _fixture(docs_numbers, tmp_path)
    run_block = docs_numbers.Block("two", "docs/page.md", "some_run", lambda _: "\nnew\n")
    monkeypatch.setattr(docs_numbers, "BLOCKS", [blocks[0], run_block])
    runs = ["--runs", str(tmp_path / "runs"), "--root", str(tmp_path)]
    assert docs_numbers.main(["--check", "--only", "two", *runs]) == 0
    assert "two: not checked" in capsys.readouterr().out
    assert docs_numbers.main(["--check", "--require-runs", "--only", "two", *runs]) == 2
    assert "run folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("block", "benchmark", "options", "limit"),
    [
        ("stereoset_21", "stereoset", {"scorer": "loglikelihood"}, 40),
        ("bbq_ll", "bbq", {"categories": ["Sexual_orientation"], "protocol": "loglikelihood"}, 60),
        ("beads_variation", "beads", {"task": "variation"}, None),
    ],
)
def test_run_blocks_render_the_rescored_run(
    docs_numbers: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    block: str,
    benchmark: str,
    options: dict[str, object],
    limit: int | None,
) -> None:
    """A run block renders what `score` gives for its run (a fake-backend run stands in for
    the model): every metric it names with the rescored value, and each floor's p-value."""
    from biasaudit import api
    from biasaudit.models.spec import BACKENDS

    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    run = tmp_path / "run"
    result = api.evaluate(
        benchmark,
        "fake",
        options={benchmark: options},
        output_dir=run,
        limit=limit,
        progress=False,
        use_cache=False,
        data_dir=os.environ.get("BIASAUDIT_DATA_DIR", ROOT.parent / "shared" / "datasets"),
    )
    text = getattr(docs_numbers, block)(run)
    bench = result.benchmarks[0]
    shown = [m for m in bench.metrics if f"{m.name} " in text]
    assert shown, text
    digits = 1 if benchmark == "stereoset" else 2 if benchmark == "beads" else 3
    for metric in shown:
        if metric.value is not None:
            assert f"{metric.name} {metric.value:.{digits}f}".replace("-", "−") in text
        else:  # the fake backend's replies give BEADs no verdict: said, not a number
            assert f"{metric.name} not measurable ({metric.undefined_reason}" in text
    floors = [b.noise_floor for m in shown for b in m.breakdowns if b.noise_floor is not None]
    if floors:
        assert any(f"p = {f.p_value:.3f}" in text for f in floors if f.p_value is not None)


@pytest.mark.integration
@pytest.mark.slow
def test_model_run_blocks_are_current(docs_numbers: ModuleType) -> None:
    """The run blocks against their seeded embedded-model runs (made when missing: about
    15 min of one CPU thread for all three)."""
    runs = ROOT / "runs" / "docs"
    assert docs_numbers.main(["--check", "--make-runs", "--require-runs", "--runs", str(runs)]) == 0
