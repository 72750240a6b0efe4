"""Template validation, placeholders, name lists and draws."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.benchmarks.calm import data as d
from biasaudit.benchmarks.calm.generate import generate_split, instantiate
from biasaudit.benchmarks.calm.names import (
    NameGroup,
    NameSet,
    draw_names,
    gender_names,
    load_names_csv,
    pool_overlaps,
    race_names,
)
from biasaudit.benchmarks.calm.placeholders import check_placeholders, fill
from biasaudit.data import DataStore
from biasaudit.errors import DataError


def test_fill_person_and_tags() -> None:
    text = "<PERSON> said <he/she/they> lost <his/her/their> keys. <He/She/They> asked <PERSON>."
    assert fill(text, "Ana", 1) == "Ana said she lost her keys. She asked Ana."
    assert fill(text, "Bo", 2) == "Bo said they lost their keys. They asked Bo."
    assert fill("<himself/herself/themselves> and <boy/girl/kid>", "x", 0) == "himself and boy"
    # The source typo <he/her/their> is kept: female prompts read "her".
    assert fill("<he/her/their> went", "x", 1) == "her went"
    with pytest.raises(ValueError):
        fill("x", "y", 3)


@pytest.mark.parametrize("bad", ["<he/she>", "a < b", "<he//they>", "x > y", "<p>text</p>"])
def test_malformed_placeholders_are_rejected(bad: str) -> None:
    with pytest.raises(DataError, match="file: template '3'"):
        check_placeholders(bad, "file: template '3'")


def test_released_templates_validate(store: DataStore) -> None:
    counts = {t: len(d.load_templates(store, t)) for t in d.TASKS}
    assert counts == {"qa": 93, "nli": 54, "sentiment": 77}
    sentiment = d.load_templates(store, "sentiment")
    # gt labels win over the template JSON ("NA" for Sentiment140/EEC, Toxic disagreements).
    assert {t.answer for t in sentiment} == {"0", "1"}
    toxic_zero = [t for t in sentiment if t.source_dataset == "Toxic" and t.answer == "0"]
    assert len(toxic_zero) == 21


def test_template_file_errors_name_the_template() -> None:
    entry = {"context": "x", "question": "q", "answer": "a", "source_dataset": "babi"}
    with pytest.raises(DataError, match="keys are not"):
        d.parse_templates("qa", {"1": entry}, "qa.json")
    with pytest.raises(DataError, match="differ from the paper"):
        d.parse_templates("qa", {"0": entry}, "qa.json")
    with pytest.raises(DataError, match="template '0' field 'question'"):
        d.parse_templates("qa", {"0": {**entry, "question": 3}}, "qa.json")
    with pytest.raises(DataError, match="unknown source_dataset"):
        d.parse_templates("qa", {"0": {**entry, "source_dataset": "squad"}}, "qa.json")
    with pytest.raises(DataError, match="field 'context'"):
        d.parse_templates("qa", {"0": {**entry, "context": "<he/she>"}}, "qa.json")


def test_mcqa_gold_literal() -> None:
    assert d.parse_mcqa_gold("['C', \"Bo's mother\"]", "gt") == ("C", "Bo's mother")
    with pytest.raises(DataError, match="gt: answer"):
        d.parse_mcqa_gold("C", "gt")


def test_name_dependent_gold_is_filled(store: DataStore) -> None:
    templates = d.load_templates(store, "qa")
    sodapop = templates[70]
    instance = instantiate(sodapop, "gender", "female", 1, "Ana", 0)
    assert instance.gold == ("B", "Ana's mother will scold them")
    mctest = templates[6]
    assert instantiate(mctest, "race", "asian", 2, "Ko", 0).gold == ("D", "Their brother")


def test_released_pools(store: DataStore) -> None:
    gender, race = gender_names(store), race_names(store)
    assert [len(g.pool) for g in gender.groups] == [908, 911, 50]
    assert gender.group("non-binary").pool[:3] == ("Bless", "Camdyn", "Kodee")
    assert [len(g.pool) for g in race.groups] == [299, 299, 299, 283]
    assert [g.slot for g in race.groups] == [2, 2, 2, 2]
    overlaps = pool_overlaps([gender, race])
    assert overlaps["race/asian"] < overlaps["race/white"]


def _toy_names() -> NameSet:
    return NameSet(
        "toy",
        (
            NameGroup("a", 0, ("A1", "A2", "A3", "A4")),
            NameGroup("b", 2, ("B1", "B2", "B3", "B4")),
            NameGroup("n", 2, ("N1", "N2"), fixed=True),
        ),
        "test",
    )


def test_draw_modes() -> None:
    names = _toy_names()
    resampled = draw_names(names, 3, 2, "resample", seed=1)
    assert resampled == draw_names(names, 3, 2, "resample", seed=1)
    assert all(d["n"] == ["N1", "N2"] for d in resampled)
    fixed = draw_names(names, 3, 2, "fixed", seed=1)
    assert fixed[0] == fixed[1] == fixed[2]
    with pytest.raises(DataError, match="group 'n' has 2 names, 3 needed"):
        draw_names(names, 1, 3, "resample", seed=0)


def test_generation_order_template_major_group_blocks(store: DataStore) -> None:
    templates = d.load_templates(store, "nli")[:2]
    split = generate_split(templates, _toy_names(), per_group=2, mode="resample", seed=0)
    assert [(i.template.index, i.group) for i in split][:6] == [
        (0, "a"), (0, "a"), (0, "b"), (0, "b"), (0, "n"), (0, "n"),
    ]  # fmt: skip
    assert len(split) == 12
    assert "<" not in split[0].fields["premise"]


def test_names_csv(tmp_path: Path) -> None:
    good = tmp_path / "names.csv"
    good.write_text("group,name,pronouns\nde_f,Anna,she\nde_m,Jonas,he\nde_f,Lea,she\n")
    names = load_names_csv(good, "german")
    assert [(g.label, g.slot, g.pool) for g in names.groups] == [
        ("de_f", 1, ("Anna", "Lea")),
        ("de_m", 0, ("Jonas",)),
    ]
    cases = {
        "name\nx\n": "columns 'group' and 'name'",
        "group,name\na,X\na,X\nb,Y\n": "row 3: name 'X' already listed",
        "group,name\na,X\n": "at least two groups",
        "group,name,pronouns\na,X,it\nb,Y,he\n": "row 2 field 'pronouns'",
        "group,name\na,\nb,Y\n": "row 2 has an empty",
    }
    for text, message in cases.items():
        bad = tmp_path / "bad.csv"
        bad.write_text(text)
        with pytest.raises(DataError, match=message):
            load_names_csv(bad, "x")
    with pytest.raises(DataError, match="cannot read"):
        load_names_csv(tmp_path / "missing.csv", "x")


def test_names_csv_encoding_bom_and_extra_fields(tmp_path: Path) -> None:
    # audit calm #7: latin-1 crashed with a traceback, a BOM gave a misleading header
    # error, extra fields were accepted silently
    latin = tmp_path / "latin1.csv"
    latin.write_bytes("group,name\nf,Anna\nm,Jürgen\n".encode("latin-1"))
    with pytest.raises(DataError, match=r"line 3: not UTF-8 \(byte 0xfc"):
        load_names_csv(latin, "x")
    bom = tmp_path / "bom.csv"
    bom.write_bytes("group,name\nf,Anna\nm,Jonas\n".encode("utf-8-sig"))
    assert [g.label for g in load_names_csv(bom, "x").groups] == ["f", "m"]
    extra = tmp_path / "extra.csv"
    extra.write_text("group,name\nf,Anna,x\nm,Jonas\n")
    with pytest.raises(DataError, match="row 2 has more fields than the header"):
        load_names_csv(extra, "x")
    unknown = tmp_path / "unknown.csv"
    unknown.write_text("group,name,age\nf,Anna,3\nm,Jonas,4\n")
    with pytest.raises(DataError, match="unknown column"):
        load_names_csv(unknown, "x")


def test_examples_are_read_like_the_authors(store: DataStore) -> None:
    rows = d.load_examples(store, "mctest")
    assert len(rows) == 8
    assert len(rows[2]) == 6  # the malformed third example, indexed as the authors do
    assert d.load_examples(store, "EEC") == d.load_examples(store, "SST")
