"""BEADs few-shot classification (Table A3: 2 examples per class from the train split)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from biasaudit.benchmarks.beads.benchmark import DEMO, Beads
from biasaudit.benchmarks.beads.fewshot import INSTRUCTION, Shot, draw
from biasaudit.data import DataStore
from biasaudit.errors import DataError
from biasaudit.requests import GenerateRequest

TRAIN = DEMO / "1-Text-Classification" / "bias-train.csv"


def _bench(store: DataStore, seed: int, **options: object) -> Beads:
    bench = Beads.from_dict({"mode": "generate", "shots": 2, **options}, store, seed)
    assert isinstance(bench, Beads)
    return bench


def test_two_examples_per_class_from_the_train_split(store: DataStore) -> None:
    bench = _bench(store, seed=0)
    samples = bench.load_samples()
    [request] = bench.next_requests(samples[0], [])
    assert isinstance(request, GenerateRequest) and request.messages is not None
    text = request.messages[0].content
    assert text.startswith(INSTRUCTION + " Examples. Text: ")
    assert text.endswith(f"\nText: {samples[0].data['text']}\nLabel:")
    # the four examples are rows of bias-train.csv, two Biased and two Non-Biased
    with TRAIN.open(newline="", encoding="utf-8") as handle:
        train = {(r["text"], r["label"]) for r in csv.DictReader(handle)}
    shown = text.split(" Examples. ", 1)[1].rsplit("\nText: ", 1)[0].split("\n")
    pairs = [
        (t.removeprefix("Text: "), lab.removeprefix("Label: "))
        for t, lab in zip(shown[::2], shown[1::2], strict=True)
    ]
    assert sorted(label for _, label in pairs) == ["Biased", "Biased", "Non-Biased", "Non-Biased"]
    assert {t for t, _ in pairs} <= {t for t, _ in train}
    # the same seed draws the same examples for every item and every run; another seed not
    assert (
        bench.next_requests(samples[1], [])[0]
        .messages[0]
        .content.startswith(text.rsplit("\nText: ", 1)[0])
    )  # type: ignore[union-attr]
    assert _bench(store, seed=0).shots == bench.shots
    assert _bench(store, seed=1).shots != bench.shots
    assert bench.prompt_template_ids() == [
        "beads/fig3-1-text-classification+2-per-class-from-train-seed0"
    ]


def test_draw_needs_k_rows_per_class() -> None:
    rows = [Shot(1, "a", "biased"), Shot(2, "b", "neutral"), Shot(3, "c", "biased")]
    assert sorted(s.row for s in draw(rows, ["biased", "neutral"], 1, 0, "x")) in ([1, 2], [2, 3])
    with pytest.raises(
        DataError, match="x: 1 rows labelled 'neutral', the few-shot prompt needs 2"
    ):
        draw(rows, ["biased", "neutral"], 2, 0, "x")


def test_few_shot_other_subtasks_are_refused(store: DataStore, tmp_path: Path) -> None:
    with pytest.raises(DataError, match="subtask=bias only"):
        _bench(store, seed=0, subtask="toxicity").load_samples()
