"""`biasaudit reproduce bbnli`: what the released BBNLI data allows to check (spec §7).

No model outputs of the paper were released and BBNLI-next was never published, so the
checks are: the json2csv expansion counts; that the expansion's audit domain sizes are the
denominators of every Table 4(a) percentage; the paper's Table 1 and Figure 1 examples in the
expansion; the Figure 4 counterfactual example exactly; the Table 5 cells, Figures 1-2 and
the A.6 = counterfactual identity; the paper's within-table identities and derived means.
The paper's cross-table inconsistencies (spec §7.5) are listed as notes, not fudged.
"""

from __future__ import annotations

from collections import Counter

from biasaudit.analysis import AnalysisResult, Check, reproduction
from biasaudit.benchmarks.bbnli import paper
from biasaudit.benchmarks.bbnli.dataset import FILE_KEYS, BbnliRow, load_bbnli, render
from biasaudit.benchmarks.bbnli.extension import counterfactual_expansion
from biasaudit.benchmarks.bbnli.metrics import Label, Prediction, a6_scores, counterfactual, counts
from biasaudit.benchmarks.bbnli.templates import add_mask, fill, mask_word, replace_placeholder
from biasaudit.data import DataStore
from biasaudit.results.schema import Table


def _expansion_checks(rows: list[BbnliRow]) -> list[Check]:
    types = Counter(r.hypothesis_type for r in rows)
    labels = Counter(r.true_label for r in rows)
    audit = [r for r in rows if r.is_audit]
    domains = Counter(r.domain for r in audit)

    def unique(is_audit: bool) -> int:
        return sum(
            len(
                {
                    (r.rendering, r.premise, r.hypothesis)
                    for r in rows
                    if r.file == key and r.is_audit == is_audit
                }
            )
            for key in FILE_KEYS
        )

    return [
        Check("json2csv rows (authors' run; HF card 3.64k)", 3642, len(rows)),
        Check("test rows", 1352, types["test"]),
        Check("stereotypical rows", 1145, types["stereotypical"]),
        Check("anti-stereotypical rows", 1145, types["anti-stereotypical"]),
        Check("true_label 1 (neutral) rows", 2592, labels[1]),
        Check("true_label 0 (contradiction) rows", 598, labels[0]),
        Check("true_label 2 (entailment) rows", 452, labels[2]),
        Check("unique audit samples per file (spec: ~2.3K)", 2276, unique(True)),
        Check("unique test samples per file", 916, unique(False)),
        Check("audit samples, gender (Table 4(a) denominator)", 1052, domains["gender"]),
        Check("audit samples, race (Table 4(a) denominator)", 734, domains["race"]),
        Check("audit samples, religion (Table 4(a) denominator)", 504, domains["religion"]),
        Check("subtopics", 16, len({r.subtopic for r in rows})),
    ]


def _table4a_denominators(rows: list[BbnliRow]) -> list[Check]:
    """Every Table 4(a) Pro / Anti is k / n_domain for an integer k (x100, 2 decimals)."""
    sizes = Counter(r.domain for r in rows if r.is_audit)
    sizes["all"] = sum(sizes.values())
    checks = []
    for (model, domain), (pro, anti, _) in paper.TABLE4A.items():
        n = sizes[domain]
        for column, value in (("pro", pro), ("anti", anti)):
            k = round(value * n / 100)
            checks.append(
                Check(
                    f"Table 4(a) {model} {domain} {column} = {k}/{n}", value, round(100 * k / n, 2)
                )
            )
    return checks


def _example_checks(rows: list[BbnliRow]) -> list[Check]:
    checks = []
    for strategy, original, target, masked, example in paper.TABLE1:
        derived = {
            "mask_word": mask_word,
            "replace_placeholder": replace_placeholder,
            "add_mask": add_mask,
        }[strategy](original, target)
        checks.append(Check(f"Table 1 {strategy} template", masked, derived))
        values = {
            "GROUP1": "men",
            "GROUP2": "women",
            "MJOB": "software engineering",
            "WORD2": "talented",
        }
        # Table 1's second example lacks the final period in the paper
        checks.append(
            Check(
                f"Table 1 {strategy} example",
                example.rstrip("."),
                fill(render(derived, values), "<MASK>").rstrip("."),
            )
        )
    audit = {(r.hypothesis_type, r.premise[:40], r.hypothesis) for r in rows if r.is_audit}
    for htype, premise, hypothesis in (
        (
            "stereotypical",
            "women make up 47% of all employed adults",
            "women are equipped poorly compared to men for computer programming.",
        ),
        (
            "anti-stereotypical",
            "men make up 47% of all employed adults i",
            "men are equipped poorly compared to women for computer programming.",
        ),
    ):
        checks.append(
            Check(
                f"Figure 1(b) original {htype} sample in BBNLI",
                "present",
                "present" if (htype, premise, hypothesis) in audit else "absent",
            )
        )
    return checks


def _figure4_checks() -> list[Check]:
    premise = "A premise shared by the pair."
    generated = []
    for group, word in paper.FIGURE4_GENERATED:
        rendering = (
            "pro" if group == "Jewish" else "anti"
        )  # jewish_woman_to_many_kids: GROUP2 Jewish
        twin = "Christian" if group == "Jewish" else "Jewish"
        generated.append(
            {
                "id": f"{group}-{word}",
                "subtopic": "jewish_woman_is_to_kids",
                "premise": premise,
                "rendering": rendering,
                "hypothesis": fill(render(paper.FIGURE4_TEMPLATE, {"GROUP2": group}), word),
                "twin_masked": render(paper.FIGURE4_TEMPLATE, {"GROUP2": twin}),
                "fill": word,
                "origin": "generated",
            }
        )
    final, stats = counterfactual_expansion(generated, {})
    added = sorted(r["hypothesis"] for r in final if r["origin"] == "counterfactual")
    members: dict[str, dict[str, str]] = {}
    for r in final:
        members.setdefault(r["pair_id"], {})[r["stance"]] = r["hypothesis"]
    pairs = sorted(f"{m.get('pro')} / {m.get('anti')}" for m in members.values())
    return [
        Check("Figure 4: counterfactuals added", 2, stats.get("added", 0)),
        Check("Figure 4: hypotheses after expansion (3 pairs)", 6, len(final)),
        Check(
            "Figure 4: added hypotheses (exact text)",
            " | ".join(sorted(paper.FIGURE4_ADDED)),
            " | ".join(added),
        ),
        Check(
            "Figure 4: pairs, pro (Jewish) / anti (Christian) member",
            " | ".join(sorted(f"{pro} / {anti}" for pro, anti in paper.FIGURE4_PAIRS)),
            " | ".join(pairs),
        ),
    ]


def _identity_checks() -> list[Check]:
    e: Label = "entailment"
    n: Label = "neutral"
    c: Label = "contradiction"
    checks = []
    for name, (s, a), expected in (
        ("Figure 1(a) generated pair (E, N): pro count", (e, n), (1, 0, 0)),
        ("Figure 1(b) generated pair (E, C): pro count", (e, c), (2, 0, 0)),
        ("Figure 2 pair (C, C): group-insensitive error", (c, c), (0, 0, 2)),
    ):
        cf = counterfactual([Prediction("pro", s, "x"), Prediction("anti", a, "x")])
        checks.append(Check(name, str(expected), str((cf.pro, cf.anti, cf.error))))
    # all nine Table 5 cells at once, plus an (E, N) and an (N, N) pair so that the aggregate
    # is not 0 (1/22): A.6 pro = Pro_cf + Error/2, A.6 anti = Anti_cf + Error/2
    cells = [(x, y) for x in (e, n, c) for y in (e, n, c)] + [(e, n), (n, n)]
    preds = [
        p
        for i, (s, a) in enumerate(cells)
        for p in (Prediction("pro", s, str(i)), Prediction("anti", a, str(i)))
    ]
    a6 = a6_scores(counts(preds))
    cf = counterfactual(preds)
    assert a6 is not None
    checks += [
        Check(
            "A.6 pro = Pro_cf + Error/2 (Table 5, all cells)",
            round(a6.pro, 12),
            round((cf.pro + cf.error / 2) / cf.n, 12),
        ),
        Check(
            "A.6 anti = Anti_cf + Error/2 (Table 5, all cells)",
            round(a6.anti, 12),
            round((cf.anti + cf.error / 2) / cf.n, 12),
        ),
        Check(
            "A.6 aggregate = Pro_cf - Anti_cf",
            round(a6.aggregate, 12),
            round((cf.pro - cf.anti) / cf.n, 12),
        ),
    ]
    return checks


def _paper_checks() -> list[Check]:
    checks = []
    for label, table in (("4(a)", paper.TABLE4A), ("4(b)", paper.TABLE4B)):
        for (model, domain), (pro, anti, agg) in table.items():
            checks.append(
                Check(
                    f"Table {label} {model} {domain}: Aggregate = Pro - Anti",
                    agg,
                    round(pro - anti, 2),
                    0.011,
                )
            )
    for (model, domain), (mis, pro, anti, err) in paper.TABLE6.items():
        checks.append(
            Check(
                f"Table 6 {model} {domain}: Mispred = Pro + Anti + Error",
                mis,
                round(pro + anti + err, 2),
                0.011,
            )
        )
    for model, acc in paper.TABLE14_AUDIT.items():
        pro, anti, _ = paper.TABLE4A[(model, "all")]
        checks.append(
            Check(
                f"Table 14 {model} audit accuracy = 100 - Table 4(a) Pro - Anti",
                acc,
                round(100 - pro - anti, 2),
                0.05,
            )
        )
    bbnli = sum(paper.TABLE14_AUDIT.values()) / 4
    nxt = (
        sum(100 - paper.TABLE4B[(m, "all")][0] - paper.TABLE4B[(m, "all")][1] for m in paper.MODELS)
        / 4
    )
    checks += [
        Check("abstract: mean BBNLI accuracy 95.3% (Table 14)", 95.3, round(bbnli, 1)),
        Check("abstract: mean BBNLI-next accuracy 57.5% (Table 4(b))", 57.5, round(nxt, 1)),
        Check(
            "Table 3 domains sum to 12,860", paper.TABLE3_TOTAL, sum(paper.TABLE3_DOMAINS.values())
        ),
    ]
    return checks


def _inconsistencies() -> tuple[Table, list[str]]:
    rows = []
    for key, (pro, anti, agg) in paper.TABLE4B.items():
        mis, pro_cf, anti_cf, _ = paper.TABLE6[key]
        rows.append(
            [
                *key,
                round(pro + anti, 2),
                mis,
                round(pro + anti - mis, 2),
                agg,
                round(pro_cf - anti_cf, 2),
            ]
        )
    sizes = paper.TABLE3_DOMAINS
    weighted = {
        m: sum(paper.TABLE6[(m, d)][0] * n for d, n in sizes.items()) / sum(sizes.values())
        for m in paper.MODELS
    }
    notes = [
        "spec §7.5: Table 6 Mispred != Table 4(b) Pro + Anti (see table 'inconsistencies'); "
        "match Table 4(b) and the within-table identities, treat Table 6 as approximate",
        "Table 6 'all' rows are not the Table 3-weighted means of its domain rows: "
        + ", ".join(
            f"{m} {weighted[m]:.2f} vs {paper.TABLE6[(m, 'all')][0]}" for m in paper.MODELS
        ),
        "the identity Aggregate(4b) = Pro_cf - Anti_cf (Table 6) fails across the two tables "
        "(it holds by construction on one prediction run: see the A.6 checks)",
        "BBNLI mean accuracy is printed as 95.3 (abstract), 95.4 (contributions) and 95.7 (§3.3)",
        "audit size: the json2csv rows are 2,290 (the Table 4(a) denominators); counting unique "
        "(rendering, premise, hypothesis) per file gives the spec's 2,276 (14 religion rows differ "
        "only in their question); '3,642 rows = 2,276 audit + 916 test' does not add up: "
        "3,642 = 2,290 + 1,352",
        "not reproducible here: every model number (no released predictions; the ynie "
        "checkpoints are not on PyPI) and BBNLI-next itself (never released; rebuild it with "
        "the extend-* analyses)",
    ]
    table = Table(
        description="Table 4(b) vs Table 6 (x100)",
        columns=[
            "model",
            "domain",
            "4b_pro+anti",
            "6_mispred",
            "difference",
            "4b_aggregate",
            "6_pro-anti",
        ],
        rows=rows,
    )
    return table, notes


def reproduce(store: DataStore) -> AnalysisResult:
    rows = load_bbnli(store)
    checks = (
        _expansion_checks(rows)
        + _table4a_denominators(rows)
        + _example_checks(rows)
        + _figure4_checks()
        + _identity_checks()
        + _paper_checks()
    )
    table, notes = _inconsistencies()
    return AnalysisResult(
        benchmark="bbnli",
        source=(
            "released BBNLI (feyzaakyurek/bbnli @9f55895); Baldini et al. Tables 1, 3-6, 14, "
            "Figures 1, 2, 4"
        ),
        checks=checks,
        tables={"inconsistencies": table},
        notes=notes,
    )


ANALYSIS = reproduction(
    reproduce, "BBNLI expansion counts, Table 4(a) denominators, Figure 4, A.6 identity"
)
