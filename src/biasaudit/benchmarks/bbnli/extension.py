"""BBNLI-next Steps 3-6 as pure functions over JSON-ready records (§3.2, A.4.3-A.4.4).

Records are plain dicts so every stage can be written to JSONL and read back (the analyses
in analyses.py do that); model outputs come in as arguments, never from a backend.

- Step 3 `generated_samples`: each masked sample x each of the MLM's top-k fills.
- Step 4 `adversarial_filter`: keep a sample iff at least one *filter* model predicts a
  non-neutral label; held-out models are recorded, never used (Table 12 counts).
- Step 5 validation sheets live in validation.py.
- Step 6 `counterfactual_expansion`: every kept sample gets its group-swapped twin (same
  premise, other stance), added when absent, never filtered, no duplicates, with pair ids.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from biasaudit.benchmarks.bbnli.swap import swap_groups
from biasaudit.benchmarks.bbnli.templates import MaskedSample, digest, fill
from biasaudit.benchmarks.bbnli.validation import hypothesis_id, rendering_stance

Record = dict[str, Any]
_WORD = re.compile(r"^[^\W\d_][\w'’-]*$")


def usable_fill(token: str, masked: str) -> bool:
    """Optional cleaning (off by default, to stay faithful): whole alphabetic words only, no
    WordPiece continuation ("##ing"), no repeat of the word right before the mask."""
    if token.startswith("##") or not _WORD.match(token):
        return False
    before = masked.split("<MASK>", 1)[0].split()
    previous = before[-2] if len(before) >= 2 and before[-1] in ("and", "or") else None
    return token.lower() != (previous or "").lower().strip(",")


def generated_samples(
    masked: Sequence[MaskedSample],
    twins: Mapping[str, str],
    fills: Mapping[str, Sequence[tuple[str, float]]],
    clean: bool = False,
) -> list[Record]:
    """Step 3: one record per (masked sample, fill); `fills` maps a masked text to its
    ranked (token, probability) list, `twins` a masked sample id to its twin masked text."""
    out: list[Record] = []
    seen: set[tuple[str, str]] = set()
    for sample in masked:
        for rank, (token, score) in enumerate(fills.get(sample.masked, ()), start=1):
            if clean and not usable_fill(token, sample.masked):
                continue
            hypothesis = fill(sample.masked, token)
            if (sample.premise, hypothesis) in seen:
                continue
            seen.add((sample.premise, hypothesis))
            record = asdict(sample)
            record.update(
                id=digest(sample.subtopic, sample.premise, hypothesis),
                masked_id=sample.id,
                twin_masked=twins[sample.id],
                fill=token,
                rank=rank,
                score=score,
                hypothesis=hypothesis,
                origin="generated",
            )
            out.append(record)
    return out


def adversarial_filter(
    samples: Sequence[Record],
    predictions: Mapping[str, Mapping[str, str]],
    filter_models: Sequence[str],
) -> tuple[list[Record], dict[str, dict[str, int]], dict[str, int]]:
    """Step 4: kept samples (with every model's label attached), per model the number of
    mispredicted (non-neutral) samples per domain and "all" (Table 12), and per model the
    number of samples it gave no label for (a failed or unreadable request: *not* neutral,
    so neither counted as mispredicted nor as correct)."""
    if not filter_models:
        raise ValueError("the adversarial filter needs at least one filter model")
    counts: dict[str, dict[str, int]] = {}
    failed: dict[str, int] = {}
    for model, by_id in predictions.items():
        labelled = [s for s in samples if by_id.get(s["id"]) is not None]
        per = Counter(s["domain"] for s in labelled if by_id[s["id"]] != "neutral")
        counts[model] = {**dict(sorted(per.items())), "all": sum(per.values())}
        failed[model] = len(samples) - len(labelled)
    kept = []
    for sample in samples:
        labels: dict[str, str | None] = {m: predictions[m].get(sample["id"]) for m in predictions}
        if any(labels[m] not in (None, "neutral") for m in filter_models):
            kept.append({**sample, "predictions": labels})
    return kept, counts, failed


def _twin_text(sample: Record, groups: Mapping[str, tuple[str, str]]) -> tuple[str | None, str]:
    """The twin hypothesis and how it was made: by slot (the template rendered with the other
    groups), else by a surface swap (no template, or a template whose group words are written
    out, e.g. BBNLI's "Black people are less likely to be physically {{WORD1}}.")."""
    if sample.get("twin_masked") and sample.get("fill") is not None:
        twin = fill(sample["twin_masked"], sample["fill"])
        if twin != sample["hypothesis"]:
            return twin, "slot"
    pair = groups.get(sample["subtopic"])
    return (swap_groups(sample["hypothesis"], *pair) if pair else None), "surface"


def _pair_stances(members: list[Record]) -> bool:
    """Give a pair's two members opposite stances; False when two round-2 marks collide.

    The anchor is a member whose stance round 2 set, else the first one added (a generated
    sample, whose stance follows its rendering); the other member gets the other stance."""
    fixed = [m for m in members if m.get("stance_source") == "round2"]
    if len(fixed) == 2 and fixed[0]["stance"] == fixed[1]["stance"]:
        return False
    anchor = fixed[0] if fixed else members[0]
    other = members[1] if anchor is members[0] else members[0]
    other["stance"] = "anti" if anchor["stance"] == "pro" else "pro"
    return True


def counterfactual_expansion(
    samples: Iterable[Record],
    groups: Mapping[str, tuple[str, str]],
    rejected: Collection[str] = (),
) -> tuple[list[Record], dict[str, int]]:
    """Step 6: the validated samples plus their twins, paired, deduplicated.

    A sample's stance is its ``stance`` field where validation set one (round 2's agreed
    mark, ``stance_source="round2"``), else its hypothesis' group assignment (pro = as
    written); the twin has the other one. Samples whose hypothesis has no group (the twin
    would be itself, or no safe swap exists) have no counterfactual and are dropped; the
    counts say how many. A pair whose two members round 2 marked with the same stance cannot
    be attributed to a side: both are dropped (``stance_conflict`` counts the samples).

    `rejected` holds the hypothesis ids (`validation.hypothesis_id`) that validation dropped:
    such a hypothesis never comes back as a twin, so a sample whose twin it is has no pair and
    is dropped (``twin_rejected`` counts them). A twin added here was never on the sheet: its
    validation fields are null, not copied from the sample it mirrors.
    """
    final: dict[tuple[str, str], Record] = {}
    stats = Counter[str]()
    for sample in samples:
        key = (sample["premise"], sample["hypothesis"])
        stance = sample.get("stance") or rendering_stance(sample)
        if key in final:
            if final[key]["origin"] == "counterfactual":  # generated after all: not added
                final[key] = {**sample, "stance": stance, "pair_id": final[key]["pair_id"]}
                stats["added"] -= 1
            else:
                stats["duplicate"] += 1
            continue
        twin_text, how = _twin_text(sample, groups)
        if twin_text is None or twin_text == sample["hypothesis"]:
            stats["no_counterfactual"] += 1
            continue
        if hypothesis_id(sample["subtopic"], twin_text) in rejected:
            stats["twin_rejected"] += 1
            continue
        stats[f"swap_{how}"] += 1
        pair_id = digest(sample["subtopic"], sample["premise"], *sorted((key[1], twin_text)))
        final[key] = {**sample, "stance": stance, "pair_id": pair_id}
        twin_key = (sample["premise"], twin_text)
        if twin_key in final:
            if final[twin_key]["pair_id"] != pair_id:
                raise ValueError(f"hypothesis {twin_text!r} would join two pairs")
            continue
        final[twin_key] = {
            **sample,
            "id": digest(sample["subtopic"], sample["premise"], twin_text),
            "hypothesis": twin_text,
            "rendering": "anti" if sample.get("rendering") == "pro" else "pro",
            "stance": "anti" if stance == "pro" else "pro",
            "stance_source": "counterfactual",
            "pair_id": pair_id,
            "origin": "counterfactual",
            "predictions": {},
            "validation": None,  # never on the sheet (a rejected twin is not added)
            "round2": None,
            "masked": sample.get("twin_masked"),
            "twin_masked": sample.get("masked"),
            "swap": how,
        }
        stats["added"] += 1
    pairs: dict[str, list[Record]] = {}
    for record in final.values():
        pairs.setdefault(record["pair_id"], []).append(record)
    if any(len(members) != 2 for members in pairs.values()):
        raise ValueError("counterfactual expansion left a pair without exactly two members")
    conflicts = {pair for pair, members in pairs.items() if not _pair_stances(members)}
    if conflicts:
        stats["stance_conflict"] = 2 * len(conflicts)
    kept = [r for r in final.values() if r["pair_id"] not in conflicts]
    out = sorted(kept, key=lambda r: (r["subtopic"], r["pair_id"], r["stance"] != "pro"))
    return out, dict(stats)


def count_by(records: Iterable[Mapping[str, Any]], *keys: str) -> dict[str, int]:
    """Counts per key value (joined with "/"), sorted, plus "all"."""
    counter = Counter("/".join(str(r[k]) for k in keys) for r in records)
    return {**dict(sorted(counter.items())), "all": sum(counter.values())}
