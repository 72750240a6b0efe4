"""Name groups: the released gender and race pools, user CSV lists, and per-template draws.

Released configuration [repo `bias_dataset/scripts`]: for every template, 50 names per group
are drawn with `random.sample` from the group's pool, in template order and group order, from
one `random.Random` stream per (task, attribute) script seeded 10 (gender; race NLI) or 11
(race QA and sentiment). The 50 gender-neutral ("non-binary") names are a fixed list: the
smallest male/female share gaps of FiveThirtyEight's unisex table. CPython's `random.sample`
has been stable since 3.2, so this reproduces the released prompts exactly.
"""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from biasaudit.benchmarks.calm.placeholders import SLOTS
from biasaudit.data import DataStore
from biasaudit.datasets.files import read_csv
from biasaudit.errors import DataError

NameMode = Literal["released", "resample", "fixed"]

SEGREGATED_KEY = "calm/names/categorised_data/segregated_names.csv"
RACE_KEY = "calm/names/categorised_data/names_race_categorisation.csv"
UNISEX_KEY = "calm/names/unisex/unisex_names_table.csv"
NAME_KEYS = (SEGREGATED_KEY, RACE_KEY, UNISEX_KEY)

RACES = ("white", "black", "hispanic", "asian")
#: Display names for the data's group labels (paper wording).
DISPLAY = {
    "non-binary": "gender-neutral",
    "white": "Caucasian",
    "black": "African American",
    "hispanic": "Hispanic",
    "asian": "Asian",
}
#: Seeds of the authors' generation scripts, per (attribute, task).
RELEASED_SEEDS = {
    ("gender", "qa"): 10,
    ("gender", "nli"): 10,
    ("gender", "sentiment"): 10,
    ("race", "qa"): 11,
    ("race", "nli"): 10,
    ("race", "sentiment"): 11,
}


@dataclass(frozen=True)
class NameGroup:
    """One social group: its label, the tag slot its prompts use, and its name pool."""

    label: str
    slot: int
    pool: tuple[str, ...]
    #: True: the first names of the pool are used for every template (no draw).
    fixed: bool = False


@dataclass(frozen=True)
class NameSet:
    """The groups compared for one bias attribute (e.g. gender: male, female, non-binary)."""

    attribute: str
    groups: tuple[NameGroup, ...]
    provenance: str

    def group(self, label: str) -> NameGroup:
        for group in self.groups:
            if group.label == label:
                return group
        raise KeyError(label)


def _read_rows(store: DataStore, key: str) -> list[dict[str, str]]:
    text = store.path(key).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def unisex_names(store: DataStore, n: int = 50) -> list[str]:
    """The `n` names with the smallest share gap in the unisex table (authors' order)."""
    gaps: dict[str, float] = {}
    for line, row in enumerate(_read_rows(store, UNISEX_KEY), start=2):
        try:
            gaps[row["name"]] = float(row["gap"])
        except (KeyError, ValueError):
            raise DataError(f"{UNISEX_KEY}: row {line} field 'gap' is not a number") from None
    return [name for name, _ in sorted(gaps.items(), key=lambda item: item[1])][:n]


def gender_names(store: DataStore) -> NameSet:
    """Male/female pools (SSA 2021 top 1000, > 80 % one gender) and the fixed neutral list."""
    male: list[str] = []
    female: list[str] = []
    for row in _read_rows(store, SEGREGATED_KEY):
        flags = (row.get("usa.male"), row.get("usa.female"))
        if flags == ("1", "0"):
            male.append(row["Name"])
        elif flags == ("0", "1"):
            female.append(row["Name"])
    return NameSet(
        "gender",
        (
            NameGroup("male", SLOTS["he"], tuple(male)),
            NameGroup("female", SLOTS["she"], tuple(female)),
            NameGroup("non-binary", SLOTS["they"], tuple(unisex_names(store)), fixed=True),
        ),
        "SSA yob2021 top-1000 names with > 80 % usage in one gender (segregated_names.csv); "
        "gender-neutral: 50 smallest-gap names of FiveThirtyEight's unisex_names_table.csv",
    )


def race_names(store: DataStore) -> NameSet:
    """Race pools: SSA names with Harvard Dataverse race probability > 0.8 (one race only)."""
    pools: dict[str, list[str]] = {race: [] for race in RACES}
    for row in _read_rows(store, RACE_KEY):
        flags = [row.get(f"usa.{race}") for race in RACES]
        if flags.count("1") == 1 and flags.count("0") == len(RACES) - 1:
            pools[RACES[flags.index("1")]].append(row["Name"])
    return NameSet(
        "race",
        tuple(NameGroup(race, SLOTS["they"], tuple(pools[race])) for race in RACES),
        "SSA yob2021 names with Harvard Dataverse first-name race probability > 0.8, first 299 "
        "per race (names_race_categorisation.csv); all race prompts use they/their",
    )


def load_names_csv(path: str | Path, attribute: str) -> NameSet:
    """A user name list: CSV with columns `group,name` and optional `pronouns` (he/she/they).

    Groups keep their order of first appearance; `pronouns` picks the tag alternative of the
    group's prompts (default "they"), and must be the same on every row of a group.
    """
    source = Path(path)
    # utf-8-sig: a byte-order mark (an Excel export) is not part of the first column name
    header, rows = read_csv(source, encoding="utf-8-sig")
    if not {"group", "name"} <= set(header):
        raise DataError(f"{source}: needs a header with columns 'group' and 'name'")
    extra_columns = set(header) - {"group", "name", "pronouns"}
    if extra_columns:
        raise DataError(
            f"{source}: unknown column(s) {', '.join(sorted(extra_columns))}; "
            "expected group, name and optionally pronouns"
        )
    pools: dict[str, list[str]] = {}
    slots: dict[str, int] = {}
    seen: dict[str, str] = {}
    for line, row in rows:
        if None in row:  # more fields than the header has columns
            raise DataError(f"{source}: row {line} has more fields than the header")
        group, name = (row.get("group") or "").strip(), (row.get("name") or "").strip()
        if not group or not name:
            raise DataError(f"{source}: row {line} has an empty 'group' or 'name'")
        pronouns = (row.get("pronouns") or "they").strip().lower()
        if pronouns not in SLOTS:
            raise DataError(f"{source}: row {line} field 'pronouns' must be he, she or they")
        if slots.setdefault(group, SLOTS[pronouns]) != SLOTS[pronouns]:
            raise DataError(f"{source}: row {line}: group '{group}' mixes pronoun sets")
        if name in seen:
            raise DataError(
                f"{source}: row {line}: name '{name}' already listed in group '{seen[name]}'"
            )
        seen[name] = group
        pools.setdefault(group, []).append(name)
    if len(pools) < 2:
        raise DataError(f"{source}: needs at least two groups to compare, found {len(pools)}")
    groups = tuple(NameGroup(g, slots[g], tuple(names)) for g, names in pools.items())
    return NameSet(attribute, groups, f"user name list {source.name}")


def draw_names(
    names: NameSet, n_templates: int, per_group: int, mode: NameMode, seed: int
) -> list[dict[str, list[str]]]:
    """For each template (in order), the names of each group.

    "released"/"resample": a fresh `random.sample` per template and group from one stream
    seeded `seed`; "fixed": one sample per group, reused for every template (the paper's
    "50 names per category"). Groups marked `fixed` always use the head of their pool.
    """
    for group in names.groups:
        if len(group.pool) < per_group:
            raise DataError(
                f"{names.attribute} group '{group.label}' has {len(group.pool)} names, "
                f"{per_group} needed per template"
            )
    rng = random.Random(seed)
    reused: dict[str, list[str]] = {}
    draws: list[dict[str, list[str]]] = []
    for _ in range(n_templates):
        chosen: dict[str, list[str]] = {}
        for group in names.groups:
            if group.fixed:
                chosen[group.label] = list(group.pool[:per_group])
            elif mode == "fixed":
                if group.label not in reused:
                    reused[group.label] = rng.sample(group.pool, per_group)
                chosen[group.label] = reused[group.label]
            else:
                chosen[group.label] = rng.sample(group.pool, per_group)
        draws.append(chosen)
    return draws


def pool_overlaps(sets: list[NameSet]) -> dict[str, int]:
    """How many names of each group also occur in a group of another attribute."""
    by_attr = {s.attribute: {n for g in s.groups for n in g.pool} for s in sets}
    result: dict[str, int] = {}
    for name_set in sets:
        others: set[str] = set()
        for attribute, members in by_attr.items():
            if attribute != name_set.attribute:
                others |= members
        for group in name_set.groups:
            result[f"{name_set.attribute}/{group.label}"] = len(set(group.pool) & others)
    return result
