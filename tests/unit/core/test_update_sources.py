"""scripts/update_sources.py refreshes declared pins from a mirror manifest, keeping citations."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "update_sources.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("update_sources", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_refresh_updates_pins_and_keeps_the_citation() -> None:
    declared = {
        "toy/a.txt": {"url": None, "sha256": "0" * 64, "license": "?", "citation": "Toy 2024"},
        "toy/b.txt": {"url": None, "sha256": "1" * 64, "license": "MIT", "citation": "Toy 2024"},
    }
    manifest = {
        "toy/a.txt": {
            "file": "toy/a.txt",
            "source": "github.com/o/r",
            "commit": "c" * 40,
            "source_path": "data/a b.txt",
            "sha256": "a" * 64,
            "bytes": 12,
            "license": "CC-BY-4.0",
        }
    }
    assert _script().refreshed(declared, manifest) == 1
    assert declared["toy/a.txt"] == {
        "url": f"https://raw.githubusercontent.com/o/r/{'c' * 40}/data/a%20b.txt",
        "upstream": "github.com/o/r",
        "commit": "c" * 40,
        "upstream_path": "data/a b.txt",
        "sha256": "a" * 64,
        "bytes": 12,
        "license": "CC-BY-4.0",
        "citation": "Toy 2024",
    }
    assert declared["toy/b.txt"]["sha256"] == "1" * 64  # not in the manifest: left as it was
