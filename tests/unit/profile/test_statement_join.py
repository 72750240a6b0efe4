"""COBIAS joined to CrowS-Pairs / StereoSet: the filter's join against a naive join of the raw
files (the oracle), the audit's joined draw of the COBIAS sample, and a plain draw unchanged."""

from __future__ import annotations

import csv
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from biasaudit.api import build_benchmarks
from biasaudit.audit.plans import BenchmarkPlan, plan_suite
from biasaudit.audit.run import audit
from biasaudit.discovery import open_store
from biasaudit.models.spec import BACKENDS
from biasaudit.profile.build import profile_of_dir
from biasaudit.profile.reliability import data_statements, norm
from biasaudit.sampling import preferring_sample
from biasaudit.selection import sample_benchmark

JOINED = ["cobias", "crows_pairs", "stereoset"]


def _file(key: str) -> Path:
    return open_store(None).path(key)


def _naive(text: str) -> str:
    return " ".join(text.split()).lower()


def _raw_statements() -> dict[str, set[str]]:
    """Every CrowS-Pairs and StereoSet statement, read from the released files by hand:
    CrowS sent_more / sent_less; StereoSet stereotype / anti-stereotype, and for
    intersentence items also context + sentence."""
    crows: set[str] = set()
    with open(
        _file("downstream/crows_pairs/crows_pairs_anonymized.csv"), encoding="utf-8-sig"
    ) as f:
        for row in csv.DictReader(f):
            crows |= {_naive(row["sent_more"]), _naive(row["sent_less"])}
    stereo: set[str] = set()
    with open(_file("downstream/stereoset/test.jsonl"), encoding="utf-8") as f:
        for line in f:
            item = json.loads(line)
            for label in ("stereotype", "anti-stereotype"):
                stereo.add(_naive(item[label]))
                if item["type"] == "intersentence":
                    stereo.add(_naive(item["context"] + " " + item[label]))
    return {"crows_pairs": crows, "stereoset": stereo}


def _cobias_sentences() -> dict[str, str]:
    with open(_file("cobias/datasets/COBIAS.csv"), encoding="utf-8-sig") as f:
        return {row["id"]: _naive(row["sentence"]) for row in csv.DictReader(f)}


def _benches(options: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    options = options or {}
    built = build_benchmarks(JOINED, options, open_store(None), 0)
    return {b.name: b for b in built}


def test_filter_join_agrees_with_a_naive_join_of_the_full_data() -> None:
    raw, sentences = _raw_statements(), _cobias_sentences()
    naive = {
        origin: {i for i, s in sentences.items() if s in texts} for origin, texts in raw.items()
    }
    # measured once by the naive join itself: 906 CrowS + 1,383 StereoSet (intrasentence),
    # the other 2 statements carry mis-decoded characters (the authors' file)
    assert (len(naive["crows_pairs"]), len(naive["stereoset"]), len(sentences)) == (906, 1383, 2291)
    benches = _benches({"cobias": {"subset": "all", "n_versions": 1}})
    keys = {
        "crows_pairs": ("sent_more", "sent_less"),
        "stereoset": ("stereotype", "anti-stereotype"),
    }
    cobias = {s.id: norm(s.data["sentence"]) for s in benches["cobias"].iter_samples()}
    for origin in ("crows_pairs", "stereoset"):
        texts: set[str] = set()
        for sample in benches[origin].iter_samples():
            texts |= data_statements(sample.data, keys[origin])
        joined = {i for i, s in cobias.items() if s in texts}
        assert joined == naive[origin] & set(cobias)


def _drawn_texts(plans: list[BenchmarkPlan], benches: dict[str, Any]) -> set[str]:
    """The statements of the drawn CrowS / StereoSet samples, read naively from their data."""
    ids = {p.name: p.selection.ids for p in plans if p.selection is not None}
    texts: set[str] = set()
    for sample in benches["crows_pairs"].iter_samples():
        if sample.id in ids["crows_pairs"]:
            texts |= {_naive(sample.data["sent_more"]), _naive(sample.data["sent_less"])}
    for sample in benches["stereoset"].iter_samples():
        if sample.id in ids["stereoset"]:
            for label in ("stereotype", "anti-stereotype"):
                texts.add(_naive(sample.data[label][-1]))
                if sample.data["split"] == "intersentence":
                    texts.add(_naive(sample.data["context"] + " " + sample.data[label][-1]))
    return texts


@pytest.mark.parametrize("suite", ["demo", "quick"])
def test_audit_draws_cobias_from_the_drawn_statements(suite: str) -> None:
    plans = plan_suite(JOINED, suite, {}, seed=0, data_dir=None)
    by_name = {p.name: p for p in plans}
    cobias_plan = by_name["cobias"].selection
    assert cobias_plan is not None
    benches = _benches({"cobias": by_name["cobias"].options})
    texts = _drawn_texts(plans, benches)
    population = {s.id: _naive(s.data["sentence"]) for s in benches["cobias"].iter_samples()}
    available = {i for i, s in population.items() if s in texts}
    drawn_joined = {i for i in cobias_plan.ids if population[i] in texts}
    size = cobias_plan.plan.size
    assert available, "the drawn CrowS / StereoSet samples share no statement with COBIAS"
    assert len(drawn_joined) == min(size, len(available))
    assert len(cobias_plan.ids) == size
    assert cobias_plan.plan.joined_with == ["crows_pairs", "stereoset"]
    assert cobias_plan.plan.n_units_joinable == len(available)
    written = cobias_plan.plan.model_dump(mode="json")
    assert written["joined_with"] == ["crows_pairs", "stereoset"]
    assert written["n_units_joinable"] == len(available)


def test_plain_draw_keeps_its_plan_and_hash() -> None:
    bench = _benches()["cobias"]
    plain = sample_benchmark(bench, 30, 0, "quick")
    # the hash of the plan format before the join existed, computed by hand
    settings: dict[str, Any] = {
        "size": 30,
        "unit": None,
        "strata": [],
        "cover": [],
        "min_per_stratum": 1,
    }
    payload = {"settings": {**settings, "seed": 0}, "units": sorted(plain.ids)}
    digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
    assert plain.plan.plan_hash == digest and plain.plan.joined_with == []
    # written as before (run.json's settings, compared by --resume)
    assert set(plain.plan.model_dump(mode="json")) == {
        *settings,
        "suite",
        "seed",
        "n_units",
        "n_samples",
        "n_units_total",
        "n_samples_total",
        "n_strata",
        "plan_hash",
    }
    # ... and the 30 units are the 30 first by sha256(seed, id), as before
    ranked = sorted(
        (s.id for s in bench.iter_samples()),
        key=lambda u: (hashlib.sha256(f"0\x00{u}".encode()).hexdigest(), u),
    )
    assert plain.ids == frozenset(ranked[:30])


def _rank(seed: int, unit: str) -> str:
    return hashlib.sha256(f"{seed}\x00{unit}".encode()).hexdigest()


def test_preferring_sample_takes_preferred_units_first_then_fills() -> None:
    units = {f"u{i}": ("a",) if i < 10 else ("b",) for i in range(20)}
    prefer = {"u1", "u3", "u5", "u12", "u14", "u16", "u18"}
    # enough preferred: 4 of them, proportional to strata (3 a, 4 b -> 2 + 2 by hand), each
    # stratum's first by the seeded sha256 rank
    got = preferring_sample(units, prefer, 4, seed=7)
    first_a = sorted(["u1", "u3", "u5"], key=lambda u: _rank(7, u))[:2]
    first_b = sorted(["u12", "u14", "u16", "u18"], key=lambda u: _rank(7, u))[:2]
    assert got == sorted(first_a + first_b)
    # too few preferred: all 7 of them, then 3 of the other 13 (a: 7, b: 6 -> 2 + 1 by hand)
    got = preferring_sample(units, prefer, 10, seed=7)
    rest_a = sorted(
        (u for u in units if units[u] == ("a",) and u not in prefer), key=lambda u: _rank(7, u)
    )[:2]
    rest_b = sorted(
        (u for u in units if units[u] == ("b",) and u not in prefer), key=lambda u: _rank(7, u)
    )[:1]
    assert got == sorted([*prefer, *rest_a, *rest_b])


def _records(folder: Path) -> list[dict[str, Any]]:
    with open(folder / "samples.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_fake_audit_filter_joins_crows_and_stereoset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(BACKENDS._paths, "fake", "biasaudit.testing.fake_backend:FakeBackend")
    monkeypatch.setitem(BACKENDS._descriptions, "fake", "conformance fake")
    out = tmp_path / "audit"
    audit(["fake:a"], "quick", out, benchmarks=JOINED, progress=False)
    records = _records(out)
    cobias = {_naive(r["data"]["sentence"]) for r in records if r["benchmark"] == "cobias"}
    # the naive join, per benchmark, on the records as written (demo joins CrowS only: 3 of 10)
    crows = [
        r
        for r in records
        if r["benchmark"] == "crows_pairs"
        if {_naive(r["data"]["sent_more"]), _naive(r["data"]["sent_less"])} & cobias
    ]
    stereo = [
        r
        for r in records
        if r["benchmark"] == "stereoset"
        if {_naive(r["data"][k][-1]) for k in ("stereotype", "anti-stereotype")} & cobias
    ]
    assert crows and stereo
    note = profile_of_dir(out).cobias_filter
    assert f"({len(crows)} joined to cobias's statements)" in note.split("crows_pairs:")[1]
    assert f"({len(stereo)} joined to cobias's statements)" in note.split("stereoset:")[1]
