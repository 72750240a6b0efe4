"""The exported JSON Schema is current, and results round-trip through it."""

from __future__ import annotations

import json
from pathlib import Path

from biasaudit.results.schema import json_schemas

SCHEMA_FILE = Path(__file__).resolve().parents[3] / "docs" / "schema" / "results.schema.json"


def test_committed_schema_is_current() -> None:
    committed = json.loads(SCHEMA_FILE.read_text())
    assert committed == json.loads(json.dumps(json_schemas())), (
        "regenerate with: biasaudit schema > docs/schema/results.schema.json"
    )
