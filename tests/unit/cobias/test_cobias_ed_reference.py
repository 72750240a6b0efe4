"""The `reference` ED is the authors' `edit.py`, checked against their code and outputs.

Oracles: the authors' `get_edit_distance`, executed verbatim from the released script in the
data mirror (`experiments/utils/scripts/edit.py`), and the per-statement ED lists their
script wrote (`experiments/utils/data/edit_distance/*.json`), i.e. Table 2.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from biasaudit.benchmarks.cobias import metrics as m
from biasaudit.benchmarks.cobias.generator_study import study_edit_distance
from biasaudit.errors import DataError

DATA = Path(os.environ.get("BIASAUDIT_DATA_DIR", "")) / "cobias" / "experiments"
SCRIPT = DATA / "utils" / "scripts" / "edit.py"
GENERATED = DATA / "context-generation" / "data" / "data_generated"
GPT_14 = GENERATED / "gpt_3.5" / "gpt-3.5-turbo-instruct-0914_1.4.csv"
GEMMA_14 = GENERATED / "google_gemma_2b" / "gemma-1.1-2b-it_1.4.csv"
needs_data = pytest.mark.skipif(not SCRIPT.is_file(), reason="COBIAS study data not mirrored")


def _authors() -> Callable[[list[str], list[str]], int]:
    source = SCRIPT.read_text()
    namespace: dict[str, object] = {}
    exec(source[source.index("def get_edit_distance") : source.index("# sentence1 =")], namespace)
    return namespace["get_edit_distance"]  # type: ignore[return-value]


def _released(model: str, temperature: str) -> list[float]:
    path = DATA / "utils" / "data" / "edit_distance" / f"{model}.json"
    return json.loads(path.read_text())[temperature]  # type: ignore[no-any-return]


TEMPLATE = "The ___ women at the ___ office are arrogant."
NOTE = (
    " Note: this sentence was rewritten to add context without changing its meaning, "
    "as requested by the user."
)
APPENDED = "The senior women at the corporate office are arrogant." + NOTE
# Hand counts. (1) The 17 appended words follow the last common token "arrogant.": the
# forward walk charges them after it, the backward walk before it: 17 both ways.
# (2) LCS I/am/a; "nurse" and "___." (not a blank: punctuation attached) are left over on
# the template side, 5 words on the generation side: 2 + 5 = 7 both ways.
# (3) One deletion plus one insertion.
HAND = [
    (TEMPLATE, APPENDED, 17),
    ("I am a nurse ___.", "I am a nurse. Note: I added nothing.", 7),
    ("He was a new chemist in our lab.", "He was a new physicist in our lab.", 2),
]


@needs_data
@pytest.mark.parametrize(("template", "generation", "expected"), HAND)
def test_reference_ed_equals_authors_code_on_hand_cases(
    template: str, generation: str, expected: int
) -> None:
    authors = _authors()
    assert authors(template.split(" "), generation.split(" ")) == expected
    assert m.edit_distance(template, generation, "reference") == expected


# Where the LCS backtracking stops (either list exhausted) and how its table starts decide
# these; the expected values are the authors' code's (found by a random search over short
# token lists comparing it with variants of our `_lcs`). In (2) the authors' walk charges
# nothing: the last step finds "b" again right after the first.
EDGES = [
    ("___ ___ b a", "a b b c", 5),
    ("b", "b b c a", 0),
    ("a c ___ b", "c a", 2),
]


@needs_data
@pytest.mark.parametrize(("template", "generation", "expected"), EDGES)
def test_reference_ed_equals_authors_code_where_the_backtracking_ends(
    template: str, generation: str, expected: int
) -> None:
    authors = _authors()
    assert authors(template.split(" "), generation.split(" ")) == expected
    assert m.edit_distance(template, generation, "reference") == expected


def test_dp_lets_a_blank_swallow_appended_text_and_reference_does_not() -> None:
    # Hand count for the DP: match The/women/at/the, delete office/are/arrogant. (3), and
    # insert everything after the second "the" into its blank for free: 3 (audit H1).
    assert m.edit_distance(TEMPLATE, APPENDED, "dp") == 3
    assert m.edit_distance(TEMPLATE, APPENDED, "reference") == 17


@needs_data
def test_reference_ed_equals_authors_code_on_random_released_pairs() -> None:
    authors = _authors()
    rows = GPT_14.read_text(encoding="utf-8")
    import csv
    import io

    table = list(csv.DictReader(io.StringIO(rows)))
    rng = random.Random(7)
    for row in rng.sample(table, 60):
        for a in (1, 5, 10):
            version = row[f"Column_{a}"]
            if not version:
                continue
            t, g = row["context_points"].split(" "), version.replace("\n", "").split(" ")
            assert m.reference_edit_distance(list(t), list(g)) == authors(list(t), list(g))


@needs_data
@pytest.mark.parametrize(
    ("path", "model"),
    [(GPT_14, "gpt-3.5-turbo-instruct-0914"), (GEMMA_14, "gemma-1.1-2b-it")],
)
def test_study_ed_matches_released_per_statement_values(path: Path, model: str) -> None:
    study = study_edit_distance(path, limit=150)
    assert study.per_statement == pytest.approx(_released(model, "1.4")[:150], abs=1e-12)


@needs_data
@pytest.mark.slow
def test_table2_ed_gpt35_and_gemma2b_at_t14() -> None:
    # Table 2 prints 3.20 and 4.42; the authors' avg_edit_distance JSON holds the full values.
    gpt = study_edit_distance(GPT_14)
    assert gpt.mean == pytest.approx(3.197051263397842, abs=1e-12)
    assert gpt.skipped == 5  # five empty cells, left out of their statements' means
    gemma = study_edit_distance(GEMMA_14)
    assert gemma.mean == pytest.approx(4.417336244541492, abs=1e-12)
    assert gpt.per_statement == pytest.approx(_released("gpt-3.5-turbo-instruct-0914", "1.4"))


def test_study_file_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.csv"
    bad.write_text("index,context_points\n0,The ___ man.\n")
    with pytest.raises(DataError, match="missing column"):
        study_edit_distance(bad)
    header = "index,context_points," + ",".join(f"Column_{a}" for a in range(1, 11))
    empty = tmp_path / "y.csv"
    empty.write_text(header + "\n0,The ___ man.," + "," * 9 + "\n")
    with pytest.raises(DataError, match="row 2: no version"):
        study_edit_distance(empty)


def _study_file(tmp_path: Path, rows: list[list[str]], header: list[str] | None = None) -> Path:
    import csv as csv_module

    path = tmp_path / "gen.csv"
    columns = header or ["index", "context_points", *(f"Column_{a}" for a in range(1, 11))]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv_module.writer(handle)
        writer.writerow(columns)
        writer.writerows(rows)
    return path


def test_study_means_skip_unreadable_versions_like_pandas(tmp_path: Path) -> None:
    # Hand values: row 1 versions ED 0 (identical) and 2 (one substitution); "None" and empty
    # cells are NaN for pandas, so the authors' loop skips them: mean 1.0. Row 2: ED 0 and 17
    # (HAND[0]): mean 8.5. Over statements (1.0 + 8.5) / 2 = 4.75; 8 + 8 cells skipped.
    lab = "He was a new chemist in our lab."
    row1 = ["0", lab, "\n\n" + lab, "He was a new physicist in our lab.", "None", *[""] * 7]
    row2 = ["1", TEMPLATE, "The senior women at the corporate office are arrogant.", APPENDED]
    study = study_edit_distance(_study_file(tmp_path, [row1, row2 + [""] * 8]))
    assert study.per_statement == [1.0, 8.5]
    assert study.mean == 4.75
    assert study.skipped == 16
    assert study_edit_distance(_study_file(tmp_path, [row1, row2 + [""] * 8]), limit=1).mean == 1.0
    # Single-space tokens as the authors: "A  b ___." has an empty token between the spaces.
    # Hand: LCS A,"",b; left over "___." (not a blank, punctuation attached) and "c.": 1 + 1.
    spaced = study_edit_distance(_study_file(tmp_path, [["0", "A  b ___.", "A  b c.", *[""] * 9]]))
    assert spaced.per_statement == [2.0]


def test_study_file_errors_name_the_problem(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"gen\.csv: missing column\(s\) Column_1$"):
        header = ["index", "context_points", *(f"Column_{a}" for a in range(2, 11))]
        study_edit_distance(_study_file(tmp_path, [], header))
    with pytest.raises(DataError, match=r"missing column\(s\) Column_9, Column_10$"):
        header = ["index", "context_points", *(f"Column_{a}" for a in range(1, 9))]
        study_edit_distance(_study_file(tmp_path, [], header))
    with pytest.raises(DataError, match=r"row 2, field context_points: empty template"):
        study_edit_distance(_study_file(tmp_path, [["0", "", "x", *[""] * 9]]))
    with pytest.raises(DataError, match=r"missing\.csv: cannot read the generator file"):
        study_edit_distance(tmp_path / "missing.csv")
    with pytest.raises(DataError, match=r"gen\.csv: no statements"):
        study_edit_distance(_study_file(tmp_path, []))
