"""Importing the package and the plug-in API is light (issue 30): a plug-in author's first
import pays for the contract, not for the run engine, the backends or the report code.

Each check runs in a fresh interpreter, so modules other tests imported do not count.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: Modules the plug-in API must not load (the engine, backends, reporting, commands, and the
#: heavy third-party stacks they use).
HEAVY = (
    "biasaudit.api",
    "biasaudit.runner",
    "biasaudit.models",
    "biasaudit.report",
    "biasaudit.profile",
    "biasaudit.cli",
    "biasaudit.audit",
    "scipy",
    "pandas",
    "torch",
    "transformers",
    "tqdm",
)


def _loaded_after(statement: str) -> list[str]:
    code = f"import sys\n{statement}\nimport json\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded: list[str] = json.loads(out.stdout)
    return loaded


def _heavy(loaded: list[str]) -> list[str]:
    return [m for m in loaded if any(m == h or m.startswith(f"{h}.") for h in HEAVY)]


@pytest.mark.parametrize(
    "statement",
    ["import biasaudit.benchmarks", "from biasaudit.benchmarks import Benchmark, MetricSpec"],
)
def test_the_plugin_api_loads_no_engine_backend_or_report(statement: str) -> None:
    assert _heavy(_loaded_after(statement)) == []


def test_importing_the_errors_loads_only_the_package_root() -> None:
    loaded = [m for m in _loaded_after("import biasaudit.errors") if m.startswith("biasaudit")]
    assert loaded == ["biasaudit", "biasaudit._version", "biasaudit.errors"]


def test_the_top_level_api_is_there_when_asked_for() -> None:
    import biasaudit

    assert callable(biasaudit.evaluate) and callable(biasaudit.to_dataframe)
    assert biasaudit.RunResult.__name__ == "RunResult"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = biasaudit.nothing  # type: ignore[attr-defined]
