"""scripts/mutation_score.py: the per-module table from mutmut's meta files.

Oracle: a meta file written here with known exit codes; the counts and percentages are
worked out by hand next to the assertions.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "mutation_score.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_score", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_table_counts_killed_survived_equivalent_and_unchecked(tmp_path: Path) -> None:
    score = _module()
    meta = tmp_path / "src" / "pkg" / "mod.py.meta"
    meta.parent.mkdir(parents=True)
    codes = {"m1": 1, "m2": 1, "m3": 36, "m4": 0, "m5": 0, "m6": 33, "m7": None, "m8": 37}
    meta.write_text(json.dumps({"exit_code_by_key": codes}))
    (tmp_path / "src" / "pkg" / "empty.py.meta").write_text('{"exit_code_by_key": {}}')
    listed = tmp_path / "equivalents.txt"
    listed.write_text("# comment\n\nm5 a bound that cannot be reached\nother_1 elsewhere\n")
    known = score.equivalents(listed)
    assert known == {"m5": "a bound that cannot be reached", "other_1": "elsewhere"}
    rows = score.table(tmp_path, known)
    # killed: m1, m2 (test failed), m3 (timeout), m8 (type check) = 4; survived m4, m5;
    # 4 / 6 = 66.7 %; without the equivalent m5: 4 / 5 = 80.0 %
    assert rows[2:] == ["| pkg.mod | 8 | 4 | 2 | 1 | 1 | 1 | 66.7% | 80.0% |"]
    assert score.equivalents(tmp_path / "absent.txt") == {}
