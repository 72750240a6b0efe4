"""Files of an audit folder: profile.json, profile.csv, card.md and card.json.

`write_outputs(audit_dir)` takes one model's folder (results.json + samples.jsonl, and
audit.json when written by `biasaudit audit`) or a folder of such folders (several models:
``DIR/<model slug>/``), and writes the files into each model's folder; with several models
it also writes DIR/profile.csv (all models) and DIR/card.md (one section per model).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

from biasaudit.errors import RunError
from biasaudit.profile.build import build_profile
from biasaudit.profile.card import card_json, card_markdown
from biasaudit.profile.model import Profile
from biasaudit.results.io import atomic_write_text, iter_samples, read_results
from biasaudit.results.lock import check_unlocked

PROFILE_COLUMNS = [
    "model",
    "axis",
    "benchmark",
    "group",
    "metric",
    "groups",
    "design",
    "unbiased",
    "value",
    "effect",
    "ci_low",
    "ci_high",
    "ci_method",
    "p_value",
    "test",
    "q_value",
    "n",
    "n_clusters",
    "answer_rate",
    "mde",
    "alpha_used",
    "margin",
    "k",
    "tau2",
    "i2",
    "verdict",
    "reliable_effect",
    "reliable_ci_low",
    "reliable_ci_high",
    "reliable_n",
    "reliable_verdict",
]


def model_dirs(audit_dir: str | Path) -> list[Path]:
    """The model folders of an audit (the folder itself when it holds results.json)."""
    root = Path(audit_dir)
    if (root / "results.json").is_file():
        return [root]
    found = sorted(p.parent for p in root.glob("*/results.json"))
    if not found:
        raise RunError(f"{root}: no results.json here or in its subfolders (not an audit folder)")
    return found


def audit_gaps(audit_dir: str | Path) -> list[str]:
    """What a reader of a several-model audit folder must be told: each model of the top
    audit.json that has no results, or whose audit is not complete, and a top status other
    than complete (issue 33: `card`, `report`, `compare` and `profile` covered the finished
    models only and never named the missing one). [] for a complete or one-model audit."""
    root = Path(audit_dir)
    info = suite_of(root) if (root / "audit.json").is_file() else None
    if not info or not info.get("folders"):
        return []
    gaps = []
    for entry in info["folders"]:
        folder = root / str(entry.get("folder", ""))
        model = entry.get("model", "?")
        if not (folder / "results.json").is_file():
            gaps.append(f"{model} has no results ({folder.name}: not run or not finished)")
        elif entry.get("status") != "complete":
            gaps.append(f"{model} is {entry.get('status')}")
    if info.get("status") != "complete" and not gaps:
        gaps.append(f"the audit is {info.get('status')}")
    return gaps


def gaps_line(audit_dir: str | Path) -> str | None:
    """One line naming the gaps of `audit_dir` (None when there are none)."""
    gaps = audit_gaps(audit_dir)
    if not gaps:
        return None
    status = (suite_of(Path(audit_dir)) or {}).get("status", "partial")
    return f"audit {audit_dir} is {status}: " + "; ".join(gaps)


def suite_of(model_dir: Path) -> dict[str, Any] | None:
    for where in (model_dir / "audit.json", model_dir.parent / "audit.json"):
        if where.is_file():
            try:
                loaded: dict[str, Any] = json.loads(where.read_text(encoding="utf-8"))
            except json.JSONDecodeError as exc:
                raise RunError(f"{where}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
            return loaded
    return None


def profile_rows(profile: Profile) -> list[dict[str, Any]]:
    rows = []
    for cell in profile.cells:
        row = cell.model_dump(exclude={"reliable"})
        row["groups"] = ";".join(cell.groups)
        if not cell.measurable:  # a gated cell carries no number
            row |= {k: None for k in ("value", "effect", "ci_low", "ci_high", "mde")}
        sub = cell.reliable
        row |= {
            "reliable_effect": sub.effect if sub else None,
            "reliable_ci_low": sub.ci_low if sub else None,
            "reliable_ci_high": sub.ci_high if sub else None,
            "reliable_n": sub.n if sub else None,
            "reliable_verdict": sub.verdict if sub else None,
        }
        rows.append({"model": profile.model} | {k: row.get(k) for k in PROFILE_COLUMNS[1:]})
    return rows


def profile_csv(profiles: list[Profile]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=PROFILE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for profile in profiles:
        writer.writerows(profile_rows(profile))
    return buffer.getvalue()


def write_model_outputs(model_dir: Path, alpha: float = 0.05) -> tuple[Profile, str]:
    check_unlocked(model_dir)  # never into a folder a live run or audit is writing
    run = read_results(model_dir)
    profile = build_profile(run, iter_samples(model_dir), alpha=alpha, run_dir=str(model_dir))
    suite = suite_of(model_dir)
    markdown = card_markdown(profile, run, suite)
    card = card_json(profile, run, suite)
    # every text is made before the first is written; each file is replaced atomically, so a
    # full disk leaves the previous file, never a truncated one (issue 33)
    texts = {
        "profile.json": profile.model_dump_json(indent=2) + "\n",
        "profile.csv": profile_csv([profile]),
        "card.md": markdown,
        "card.json": json.dumps(card, indent=2) + "\n",
    }
    for name, text in texts.items():
        atomic_write_text(model_dir / name, text)
    return profile, markdown


def write_outputs(audit_dir: str | Path, alpha: float = 0.05) -> list[Path]:
    """Write profile.json/csv and card.md/json for every model of the audit; the paths."""
    dirs = model_dirs(audit_dir)
    written: list[Path] = []
    profiles, cards = [], []
    for model_dir in dirs:
        profile, markdown = write_model_outputs(model_dir, alpha)
        profiles.append(profile)
        cards.append(markdown)
        written += [model_dir / n for n in ("profile.json", "profile.csv", "card.md", "card.json")]
    root = Path(audit_dir)
    if dirs != [root]:
        gaps = gaps_line(root)
        header = [f"> **Incomplete audit.** {gaps}.\n"] if gaps else []
        atomic_write_text(root / "profile.csv", profile_csv(profiles))
        atomic_write_text(root / "card.md", "\n".join(header + cards))
        written += [root / "profile.csv", root / "card.md"]
    return written
