"""``-O answer_mode=extract`` end to end on the embedded model: every sample gets its free
reply and one constrained follow-up whose reply is exactly one of the closed set, the check's
scores are recorded, the run reports ``reader_agreement``, and re-scoring the stored
exchanges without a model gives the same verdicts (the follow-up is an ordinary request)."""

from __future__ import annotations

from pathlib import Path

import pytest

from biasaudit.api import evaluate_one, score
from biasaudit.datasets.files import read_json_lines

pytestmark = pytest.mark.integration


def test_bbq_letter_extract(tmp_path: Path, data_dir: Path) -> None:
    result = evaluate_one(
        "bbq",
        "embedded",
        options={"bbq": {"protocol": "letter", "answer_mode": "extract", "max_tokens": 24}},
        model_args={"n_threads": 1, "extra_buffers": False},
        output_dir=tmp_path / "run",
        data_dir=data_dir,
        use_cache=False,
        limit=4,
        progress=False,
    )
    records = read_json_lines(tmp_path / "run" / "samples.jsonl")
    assert len(records) == 4
    for record in records:
        free, check = record["exchanges"]
        assert "choices" not in free["request"]
        assert check["request"]["choices"] == ["A", "B", "C"]
        assert check["response"]["text"] in ("A", "B", "C")
        scores = record["scores"]
        assert scores["extracted"] == "ABC".index(check["response"]["text"])
        expected = (
            "text_abstained"
            if scores["chosen"] is None
            else ("agree" if scores["chosen"] == scores["extracted"] else "disagree")
        )
        assert scores["readers"] == expected
    names = {m.name for m in result.benchmarks[0].metrics}
    assert "reader_agreement" in names
    rescored = score(tmp_path / "run", data_dir=data_dir, write=False)
    again = {m.name: m.value for m in rescored.benchmarks[0].metrics}
    assert again["reader_agreement"] == next(
        m.value for m in result.benchmarks[0].metrics if m.name == "reader_agreement"
    )
