"""BBNLI-next Step 5: the human-validation sheet (§3.2, Table 2).

Round 1: one person labels every *unique* hypothesis (deduplicated across premises) as
``valid`` (a pro- or anti-stereotype generalisation), ``invalid`` (coherent, but not one) or
``incoherent``; a sample is kept only if its hypothesis is valid. Round 2 (optional): two
annotators mark whether the hypothesis holds a bias and of which type (``pro`` / ``anti`` /
``none``), and the raw percent agreement is reported (the paper: 93.7%). The marks act as
the paper says:

- agreed ``none``: the hypothesis holds no bias, the sample is dropped;
- agreed ``pro`` / ``anti``: the mark is the sample's stance for the counterfactual measures
  (it overrides the one read off the template rendering; ``stance_policy="drop"`` drops the
  samples where the two differ instead);
- disagreement: dropped (the paper), unless a third person filled ``bias_adjudicated``, whose
  mark then acts as an agreed one;
- one mark only: round 2 did not finish the row. A single ``none`` drops the sample (one
  person saw no bias in it, and nobody saw one: a hypothesis that may hold no bias cannot
  measure one); a single ``pro`` / ``anti`` keeps it with the rendering's stance (one mark
  does not override the template);
- no marks: round 2 did not review the row; the rendering's stance stays.

A hypothesis that validation drops stays dropped: Step 6 never brings it back as the
counterfactual twin of a kept sample (``rejected_ids`` below; the pair is dropped whole).

Every sample's path is counted (``Round2Counts``), so the manifest says how many took each.
The sheet is a CSV a person fills in. The data is offensive by construction: the export
writes a content warning next to it.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from biasaudit.benchmarks.bbnli.templates import digest
from biasaudit.errors import DataError

COLUMNS = [
    "hypothesis_id",
    "subtopic",
    "hypothesis",
    "n_samples",
    "label",
    "bias_a",
    "bias_b",
    "bias_adjudicated",
]
LABELS = ("valid", "invalid", "incoherent")
BIAS = ("pro", "anti", "none")
CONTENT_WARNING = (
    "CONTENT WARNING: every hypothesis in this sheet states a social stereotype about gender, "
    "race or religion, generated on purpose to audit models. Labelling them is emotionally "
    "taxing (Baldini et al. discuss the annotators' toll); take breaks."
)


def hypothesis_id(subtopic: str, hypothesis: str) -> str:
    return digest(subtopic, hypothesis)


def write_sheet(samples: Iterable[Mapping[str, Any]], path: Path) -> int:
    """One row per unique (subtopic, hypothesis); returns the number of rows."""
    counts: Counter[tuple[str, str]] = Counter((s["subtopic"], s["hypothesis"]) for s in samples)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for (subtopic, hypothesis), n in sorted(counts.items()):
            writer.writerow(
                [hypothesis_id(subtopic, hypothesis), subtopic, hypothesis, n, "", "", "", ""]
            )
    path.with_name(path.stem + "_CONTENT_WARNING.txt").write_text(CONTENT_WARNING + "\n")
    return len(counts)


#: a row's round-2 path (see the module docstring)
Round2Path = Literal[
    "agreed_pro",
    "agreed_anti",
    "agreed_none",
    "disagreed",
    "adjudicated_pro",
    "adjudicated_anti",
    "adjudicated_none",
    "single_mark",
    "single_none",
    "not_reviewed",
]
StancePolicy = Literal["set", "drop"]


@dataclass(frozen=True)
class SheetResult:
    labels: dict[str, str]  # hypothesis id -> round-1 label
    round2: dict[str, Round2Path]  # hypothesis id -> round-2 path
    agreement: float | None  # raw percent agreement over rows with both annotations
    n_round2: int  # rows with both annotations

    def mark(self, hid: str) -> str | None:
        """The agreed (or adjudicated) bias mark of a hypothesis: pro, anti, none or None."""
        path = self.round2.get(hid, "not_reviewed")
        return path.split("_", 1)[1] if path.startswith(("agreed_", "adjudicated_")) else None

    @classmethod
    def accept_all(cls, known: Iterable[str]) -> SheetResult:
        """Every hypothesis valid, no round 2 (mechanics runs only)."""
        ids = sorted(known)
        return cls(dict.fromkeys(ids, "valid"), dict.fromkeys(ids, "not_reviewed"), None, 0)


def _mark(row: Mapping[str, str | None], column: str, where: str) -> str:
    mark = (row.get(column) or "").strip().lower()
    if mark and mark not in BIAS:
        raise DataError(f"{where}: field '{column}': '{mark}' is not one of {', '.join(BIAS)}")
    return mark


def _round2_path(a: str, b: str, adjudicated: str, where: str) -> Round2Path:
    if adjudicated and not (a and b and a != b):
        raise DataError(
            f"{where}: field 'bias_adjudicated': only a disagreement of bias_a and bias_b "
            "is adjudicated"
        )
    if a and b:
        if a == b:
            return cast(Round2Path, f"agreed_{a}")
        return cast(Round2Path, f"adjudicated_{adjudicated}") if adjudicated else "disagreed"
    if a or b:
        return "single_none" if "none" in (a, b) else "single_mark"
    return "not_reviewed"


def read_sheet(path: str | Path, known: set[str]) -> SheetResult:
    """The filled sheet; a bad row is a one-line error naming the file, row and field."""
    file = Path(path)
    try:
        with file.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise DataError(f"{file}: cannot read the sheet ({exc})") from None
    if rows and not {"hypothesis_id", "label"} <= set(rows[0]):
        raise DataError(f"{file}: header must have hypothesis_id and label columns")
    labels: dict[str, str] = {}
    round2: dict[str, Round2Path] = {}
    both = agree = 0
    for number, row in enumerate(rows, start=2):  # row 1 is the header
        where = f"{file}: row {number}"
        hid = (row.get("hypothesis_id") or "").strip()
        if hid not in known:
            raise DataError(f"{where}: field 'hypothesis_id': unknown id '{hid}'")
        if hid in labels:
            raise DataError(f"{where}: field 'hypothesis_id': '{hid}' appears twice")
        label = (row.get("label") or "").strip().lower()
        if label not in LABELS:
            raise DataError(f"{where}: field 'label': '{label}' is not one of {', '.join(LABELS)}")
        labels[hid] = label
        a, b, adjudicated = (_mark(row, c, where) for c in ("bias_a", "bias_b", "bias_adjudicated"))
        if a and b:
            both += 1
            agree += a == b
        round2[hid] = _round2_path(a, b, adjudicated, where)
    missing = known - set(labels)
    if missing:
        raise DataError(f"{file}: {len(missing)} hypotheses of the export have no row")
    return SheetResult(labels, round2, agree / both if both else None, both)


def rendering_stance(sample: Mapping[str, Any]) -> str:
    """The stance read off the template: pro iff the hypothesis renders the groups as written."""
    return "pro" if sample.get("rendering") == "pro" else "anti"


def apply_sheet(
    samples: Sequence[Mapping[str, Any]],
    sheet: SheetResult,
    exclude_subtopics: Iterable[str] = (),
    stance_policy: StancePolicy = "set",
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The samples the sheet keeps, and how many samples took each path.

    Kept: valid in round 1, not in an excluded subtopic, and in round 2 agreed (or
    adjudicated) pro/anti, or not reviewed. A kept sample's ``stance`` is the round-2 mark
    where there is one (``stance_source`` says which); with ``stance_policy="drop"`` a
    sample whose mark differs from its rendering's stance is dropped instead.
    """
    excluded = set(exclude_subtopics)
    out = []
    paths: Counter[str] = Counter()
    for sample in samples:
        hid = hypothesis_id(sample["subtopic"], sample["hypothesis"])
        label = sheet.labels.get(hid)
        if sample["subtopic"] in excluded:
            paths["excluded_subtopic"] += 1
            continue
        if label != "valid":
            paths[f"round1_{label}"] += 1
            continue
        path = sheet.round2.get(hid, "not_reviewed")
        mark = sheet.mark(hid)
        if path in ("disagreed", "single_none") or mark == "none":
            paths[f"round2_{path}_dropped"] += 1
            continue
        record = {**sample, "validation": label, "round2": path}
        own = rendering_stance(sample)
        if mark is None:
            paths[f"round2_{path}_kept"] += 1
            out.append({**record, "stance": own, "stance_source": "rendering"})
        elif mark == own:
            paths[f"round2_{path}_kept"] += 1
            out.append({**record, "stance": mark, "stance_source": "round2"})
        elif stance_policy == "drop":
            paths[f"round2_{path}_stance_differs_dropped"] += 1
        else:
            paths[f"round2_{path}_stance_set"] += 1
            out.append({**record, "stance": mark, "stance_source": "round2"})
    return out, {**dict(sorted(paths.items())), "kept": len(out), "all": len(samples)}


def rejected_ids(
    before: Iterable[Mapping[str, Any]], kept: Iterable[Mapping[str, Any]]
) -> set[str]:
    """The hypotheses validation dropped: on the sheet (in `before`), no sample of them kept."""
    dropped = {hypothesis_id(r["subtopic"], r["hypothesis"]) for r in before}
    return dropped - {hypothesis_id(r["subtopic"], r["hypothesis"]) for r in kept}
