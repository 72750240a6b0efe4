"""Template diversity (paper §4.3, Table 6): semantic similarity and length of templates.

The paper averages BERTScore over all template pairs; here similarity is the cosine of
sentence embeddings (by default all-MiniLM-L6-v2 through the `embedded-st` backend; any
backend that serves `embed` works), averaged over unordered pairs i < j, optionally with the
diagonal. Templates are instantiated neutrally as in the authors' `bertscore.py`: `<PERSON>`
becomes "James" and every tag its first (male) form. The similarity text follows the repo
(QA: context only; NLI: premise + " " + hypothesis; SA: sentence); length is the number of
whitespace-separated words of the whole template (all text fields).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from biasaudit.benchmarks.calm.data import TASK_FIELDS, Template
from biasaudit.benchmarks.calm.placeholders import neutral_fill
from biasaudit.datasets.files import json_lines
from biasaudit.errors import DataError
from biasaudit.metrics import similarity
from biasaudit.metrics.undefined import or_none

SIMILARITY_FIELDS = {
    "qa": ("context",),
    "nli": ("premise", "hypothesis"),
    "sentiment": ("sentence",),
}


@dataclass(frozen=True)
class LengthStats:
    n: int
    mean: float
    sd: float
    minimum: int
    maximum: int


def similarity_text(template: Template) -> str:
    return " ".join(neutral_fill(template.fields[f]) for f in SIMILARITY_FIELDS[template.task])


def full_text(template: Template) -> str:
    return " ".join(neutral_fill(template.fields[f]) for f in TASK_FIELDS[template.task])


def length_stats(texts: Sequence[str]) -> LengthStats:
    """Word counts (whitespace tokens): mean, population sd, min and max."""
    counts = np.array([len(t.split()) for t in texts], dtype=np.float64)
    if counts.size == 0:
        raise ValueError("no texts")
    return LengthStats(
        int(counts.size), float(counts.mean()), float(counts.std()), int(counts.min()),
        int(counts.max()),
    )  # fmt: skip


#: The shared mean pairwise cosine (biasaudit.metrics.similarity); None where undefined
#: (fewer than two templates, or a zero embedding).
mean_pairwise_cosine = or_none(similarity.mean_pairwise_cosine)


def _unit_rows(matrix: npt.ArrayLike) -> npt.NDArray[np.float64]:
    rows = np.asarray(matrix, dtype=np.float64)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return rows / np.where(norms == 0, 1.0, norms)


def bertscore_f1(reference: npt.ArrayLike, candidate: npt.ArrayLike) -> float:
    """BERTScore F1 of two texts from their token vectors (Zhang et al., ICLR 2020, Eq. 1,
    greedy matching, no idf weighting, no baseline rescaling):
    R = mean over reference tokens of the best cosine to a candidate token, P the same the
    other way round, F1 = 2PR / (P + R)."""
    ref, cand = _unit_rows(reference), _unit_rows(candidate)
    if ref.shape[0] == 0 or cand.shape[0] == 0:
        raise ValueError("BERTScore needs at least one token on each side")
    sims = ref @ cand.T
    recall = float(sims.max(axis=1).mean())
    precision = float(sims.max(axis=0).mean())
    return 2 * precision * recall / (precision + recall)


def mean_pairwise_bertscore(
    token_matrices: Sequence[npt.ArrayLike], *, include_diagonal: bool = False
) -> float | None:
    """BERTScore F1 averaged over template pairs i < j (or i <= j), the paper's Table 6
    similarity; None for fewer than two templates. F1 is symmetric, so each pair once."""
    units = [_unit_rows(m) for m in token_matrices]
    if len(units) < 2:
        return None
    scores = [
        bertscore_f1(units[i], units[j])
        for i in range(len(units))
        for j in range(i if include_diagonal else i + 1, len(units))
    ]
    return float(np.mean(scores))


def read_template_texts(path: str) -> list[str]:
    """Templates of another dataset for the Table 6 comparison: a text file (one template
    per line), or JSONL with a "text" field per line. Empty lines are skipped."""
    source = Path(path)
    try:
        lines = json_lines(source.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{source}: cannot read the template file ({exc})") from None
    texts: list[str] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if source.suffix == ".jsonl":
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise DataError(f"{source}: line {number} is not JSON ({exc.msg})") from None
            if not isinstance(row, dict) or not isinstance(row.get("text"), str):
                raise DataError(f"{source}: line {number}, field text: missing or not a string")
            texts.append(row["text"])
        else:
            texts.append(line.strip())
    if len(texts) < 2:
        raise DataError(f"{source}: needs at least two templates, found {len(texts)}")
    return texts
