"""The released BBNLI templates, expanded into NLI rows exactly as the authors' `json2csv.py`.

Source: github.com/feyzaakyurek/bbnli @ 9f55895 (MIT), ``data/bbnli/<domain>/<subtopic>.json``;
one file per stereotype subtopic (16 files: gender 5, race 5, religion 6). Schema and expansion:
spec BBNLI-next.md §2.1; Akyürek et al., Findings of NAACL 2022.

Expansion (``json2csv.py``): for every premise and every element of the Cartesian product of
the ``data`` word lists (in file order), render

- the "pro" rendering (GROUP1/GROUP2 as written): every test hypothesis, then every
  stereotypical hypothesis (``hypothesis_type`` "test" / "stereotypical");
- the "anti" rendering (GROUP1 and GROUP2 swapped in premise, hypothesis and question): the
  test hypotheses, then the bias hypotheses (``hypothesis_type`` "anti-stereotypical");

then drop rows identical in all twelve columns (the question counts: rows that differ only in
their question are kept, as pandas' ``drop_duplicates`` does). Undefined placeholders render
as "" (Jinja's default; one released question uses an undefined ``{{WORD5}}``).

The result is 3,642 rows: 1,352 test and 2,290 audit rows (1,145 stereotypical, 1,145
anti-stereotypical). Counting unique (rendering, premise, hypothesis) instead gives the
spec's 2,276 audit and 916 test samples.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from biasaudit.errors import DataError

#: Pinned keys (the bbnli folder's sources.json), in the authors' directory order.
FILE_KEYS: tuple[str, ...] = (
    "bbnli/gender/man_is_to_breadwinner.json",
    "bbnli/gender/man_is_to_programmer.json",
    "bbnli/gender/man_is_to_rational.json",
    "bbnli/gender/man_is_to_surgeon.json",
    "bbnli/gender/woman_is_to_homemaker.json",
    "bbnli/race/asian_men_to_feminine.json",
    "bbnli/race/black_is_to_criminal.json",
    "bbnli/race/black_is_to_impoverished.json",
    "bbnli/race/black_people_use_drugs.json",
    "bbnli/race/white_is_to_clean.json",
    "bbnli/religion/catholic_woman_to_many_kids.json",
    "bbnli/religion/jewish_woman_to_many_kids.json",
    "bbnli/religion/mormon_man_to_oppressive.json",
    "bbnli/religion/muslim_man_to_many_wives.json",
    "bbnli/religion/muslim_man_to_oppressive.json",
    "bbnli/religion/muslim_women_to_invisible.json",
)
DOMAINS = ("gender", "race", "religion")
HypothesisType = Literal["test", "stereotypical", "anti-stereotypical"]
Rendering = Literal["pro", "anti"]

#: BBNLI's ``answer_choices``: 0 = contradiction, 1 = neutral, 2 = entailment.
LABELS = ("contradiction", "neutral", "entailment")

_PLACEHOLDER = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_JINJA_OTHER = re.compile(r"\{%|\{#|\{\{(?!\s*[A-Za-z_][A-Za-z0-9_]*\s*\}\})")


class _Store(Protocol):
    def path(self, key: str) -> Path: ...


@dataclass(frozen=True)
class BbnliRow:
    """One row of the authors' CSV, plus stable ids and the counterfactual pair."""

    sample_id: str  # "<file stem>-<Index:04d>", stable across runs
    index: int  # the authors' per-file ``Index``
    file: str  # pinned key
    domain: str
    name: str  # the authors' ``name`` with spaces replaced by "_"
    subtopic: str  # normalised: lower case, "_" for spaces, no trailing period
    premise_id: str  # two digits, the premise's position in the file
    rendering: Rendering  # "pro" (groups as written) or "anti" (GROUP1 <-> GROUP2)
    unique_id: str  # the authors' ``unique_id`` (name_type_id; not unique per row)
    premise: str
    hypothesis_type: HypothesisType
    hypothesis: str
    question: str
    true_label: int  # 0 contradiction, 1 neutral, 2 entailment
    bias_label: int  # 2 for bias hypotheses, -1 for test rows
    reference: str
    template_id: int  # position of the hypothesis in its list (test or bias)
    pair_id: str | None  # audit rows: the pro/anti rendering pair of one template fill

    @property
    def is_audit(self) -> bool:
        return self.hypothesis_type != "test"

    @property
    def stance(self) -> Rendering | None:
        """ "pro"/"anti" for audit rows (the biased label: entailment / contradiction)."""
        return self.rendering if self.is_audit else None


def normalise_subtopic(name: str) -> str:
    """Subtopic key that matches across the paper's tables (spec §2.1 "Name mapping")."""
    return name.strip().rstrip(".").replace(" ", "_").lower()


def render(template: str, values: dict[str, str]) -> str:
    """Substitute ``{{VAR}}`` placeholders; undefined ones become "" (Jinja semantics)."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), ""), template)


def _fail(file: str, where: str, problem: str) -> DataError:
    return DataError(f"{file}: {where}: {problem}")


def _string(file: str, where: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(file, where, f"expected a non-empty string, got {value!r}")
    if _JINJA_OTHER.search(value):
        raise _fail(file, where, f"unsupported template syntax in {value!r}")
    return value


def _entries(file: str, raw: dict[str, Any], field: str, width: int) -> list[list[Any]]:
    items = raw.get(field)
    if not isinstance(items, list) or not items:
        raise _fail(file, f"field '{field}'", "expected a non-empty list")
    for row, item in enumerate(items):
        where = f"field '{field}' row {row}"
        if not isinstance(item, list) or len(item) != width:
            raise _fail(file, where, f"expected a list of {width} items, got {item!r}")
        _string(file, where, item[0])
        for value in item[1:]:
            if not isinstance(value, int) or isinstance(value, bool) or value not in (-1, 0, 1, 2):
                raise _fail(file, where, f"label {value!r} is not one of 0, 1, 2")
    return items


def _parse(file: str, raw: Any) -> dict[str, Any]:
    """Validate one subtopic file; errors name the file, field and row."""
    if not isinstance(raw, dict):
        raise _fail(file, "top level", "expected a JSON object")
    for field in ("name", "domain"):
        _string(file, f"field '{field}'", raw.get(field))
    premises = raw.get("premise")
    if not isinstance(premises, list) or not premises:
        raise _fail(file, "field 'premise'", "expected a non-empty list")
    for row, premise in enumerate(premises):
        _string(file, f"field 'premise' row {row}", premise)
    references = raw.get("reference")
    if not isinstance(references, list) or len(references) != len(premises):
        raise _fail(
            file, "field 'reference'", f"expected {len(premises)} entries (one per premise)"
        )
    groups = {}
    for field in ("GROUP1", "GROUP2"):
        value = raw.get(field)
        if not isinstance(value, list) or len(value) < 1:
            raise _fail(file, f"field '{field}'", "expected a one-element list")
        groups[field] = _string(file, f"field '{field}' row 0", value[0])
    data = raw.get("data")
    if not isinstance(data, dict):
        raise _fail(file, "field 'data'", "expected an object of word lists")
    for var, words in data.items():
        if not isinstance(words, list) or not words:
            raise _fail(file, f"field 'data' key '{var}'", "expected a non-empty list")
        for row, word in enumerate(words):
            _string(file, f"field 'data' key '{var}' row {row}", word)
    tests = _entries(file, raw, "test_hypothesis", 2)
    biases = _entries(file, raw, "bias_hypothesis_stereotypical", 3)
    test_questions = raw.get("test_question")
    bias_questions = raw.get("bias_question_stereotypical")
    for field, questions, hyps in (
        ("test_question", test_questions, tests),
        ("bias_question_stereotypical", bias_questions, biases),
    ):
        if not isinstance(questions, list) or len(questions) != len(hyps):
            raise _fail(
                file, f"field '{field}'", f"expected {len(hyps)} entries (one per hypothesis)"
            )
        for row, question in enumerate(questions):
            if not isinstance(question, list) or not question:
                raise _fail(
                    file, f"field '{field}' row {row}", f"expected a list, got {question!r}"
                )
            _string(file, f"field '{field}' row {row}", question[0])
    if raw["domain"] not in DOMAINS:
        raise _fail(file, "field 'domain'", f"{raw['domain']!r} is not one of {', '.join(DOMAINS)}")
    return {**raw, **groups}


def expand(file: str, raw: Any) -> list[BbnliRow]:
    """Rows of one subtopic file, exactly as ``json2csv.py`` writes them (see module doc)."""
    inp = _parse(file, raw)
    name = str(inp["name"]).replace(" ", "_")
    stem = Path(file).stem
    data: dict[str, list[str]] = inp["data"]
    keys = list(data)
    combos = list(itertools.product(*data.values()))
    seen: set[tuple[Any, ...]] = set()
    rows: list[BbnliRow] = []
    position = -1
    for ind, premise in enumerate(inp["premise"]):
        for combo_index, combo in enumerate(combos):
            for rendering in ("pro", "anti"):
                values = dict(zip(keys, combo, strict=True))
                first, second = (
                    (inp["GROUP1"], inp["GROUP2"])
                    if rendering == "pro"
                    else (inp["GROUP2"], inp["GROUP1"])
                )
                values["GROUP1"], values["GROUP2"] = first, second
                pre = render(premise, values)
                bias_type = "stereotypical" if rendering == "pro" else "anti-stereotypical"
                entries = [
                    ("test", ti, hyp, inp["test_question"][ti][0], label, -1)
                    for ti, (hyp, label) in enumerate(inp["test_hypothesis"])
                ] + [
                    (bias_type, ti, hyp, inp["bias_question_stereotypical"][ti][0], label, bias)
                    for ti, (hyp, label, bias) in enumerate(inp["bias_hypothesis_stereotypical"])
                ]
                for htype, ti, hyp, question, label, bias in entries:
                    columns = (
                        inp["domain"],
                        name,
                        f"{ind:02}",
                        rendering,
                        f"{name}_{rendering}_{ind:02}",
                        pre,
                        htype,
                        render(hyp, values),
                        render(question, values),
                        label,
                        bias,
                        inp["reference"][ind],
                    )
                    # the authors' Index: the row's position before drop_duplicates
                    # (json2csv.py: drop_duplicates() then reset_index(), which keeps it)
                    position += 1
                    if columns in seen:
                        continue
                    seen.add(columns)
                    audit = htype != "test"
                    rows.append(
                        BbnliRow(
                            sample_id=f"{stem}-{position:04d}",
                            index=position,
                            file=file,
                            domain=str(inp["domain"]),
                            name=name,
                            subtopic=normalise_subtopic(name),
                            premise_id=f"{ind:02}",
                            rendering=rendering,
                            unique_id=f"{name}_{rendering}_{ind:02}",
                            premise=pre,
                            hypothesis_type=htype,
                            hypothesis=columns[7],
                            question=columns[8],
                            true_label=label,
                            bias_label=bias,
                            reference=str(inp["reference"][ind]),
                            template_id=ti,
                            pair_id=f"{stem}:{ind:02}:{ti:02}:{combo_index:03d}" if audit else None,
                        )
                    )
    return _check_pairs(rows)


def _check_pairs(rows: list[BbnliRow]) -> list[BbnliRow]:
    """Every audit pair has exactly one pro and one anti row after deduplication.

    Dropping identical rows keeps the first fill of each duplicate class, separately for the
    pro and the anti rendering; the two renderings of one fill stay paired because the same
    variables are unused in both. A row whose pair id has no twin is an error in the data.
    """
    members: dict[str, list[Rendering]] = {}
    for row in rows:
        if row.pair_id is not None:
            members.setdefault(row.pair_id, []).append(row.rendering)
    for pair_id, renderings in members.items():
        if sorted(renderings) != ["anti", "pro"]:
            raise DataError(
                f"{rows[0].file}: pair {pair_id}: expected one pro and one anti row, "
                f"got {renderings}"
            )
    return rows


def read_raw(store: _Store, key: str) -> dict[str, Any]:
    """One pinned subtopic file, validated (GROUP1/GROUP2 as plain strings)."""
    path = store.path(key)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{key}: cannot read JSON ({exc})") from None
    return _parse(key, raw)


def placeholders(template: str) -> list[str]:
    """Placeholder names of a template, in order of first appearance."""
    return list(dict.fromkeys(m.group(1) for m in _PLACEHOLDER.finditer(template)))


def read_file(store: _Store, key: str) -> list[BbnliRow]:
    """Expanded rows of one pinned subtopic file."""
    path = store.path(key)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataError(f"{key}: cannot read JSON ({exc})") from None
    return expand(key, raw)


def load_bbnli(store: _Store, keys: Sequence[str] = FILE_KEYS) -> list[BbnliRow]:
    """All 3,642 rows of the released BBNLI (audit and test), file by file."""
    return [row for key in keys for row in read_file(store, key)]


def audit_rows(rows: Sequence[BbnliRow]) -> list[BbnliRow]:
    """The bias (audit) rows: gold label neutral, pro- or anti-stereotypical."""
    return [row for row in rows if row.is_audit]
