"""BEADs few-shot classification (Table A3: 2 examples per class from the train split) for
every classification subtask: bias, toxicity, sentiment.

Oracles: which rows are drawn comes from a naive reimplementation of the documented rule
(docs/benchmarks/beads.md, fewshot.py's docstring) reading the hand-made CSV files with the
csv module; the prompts are compared with strings typed here from the paper's text (Figure 3,
App. A.1); the scores with hand-counted replies.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from biasaudit.benchmarks.beads.benchmark import DEMO, Beads
from biasaudit.benchmarks.beads.fewshot import INSTRUCTION, Shot, draw, read_answer
from biasaudit.data import DataStore
from biasaudit.errors import DataError
from biasaudit.requests import Capability, GenerateRequest, Response
from biasaudit.results.schema import Exchange
from biasaudit.runner.runner import score_record

TRAIN = DEMO / "1-Text-Classification" / "bias-train.csv"
FOLDER = "1-Text-Classification"

#: typed from App. A.1 (spec §2.8) and the one-line request this toolkit adds
TOXICITY_INSTRUCTION = (
    "This task involves identifying toxicity in statements. Definitions:\n"
    "- Toxicity:\n"
    "  - Non-toxic - The statement contains no offensive or harmful language.\n"
    "  - Toxic - The statement contains language that might be considered disrespectful or "
    "offensive to some.\n"
    "Return exactly one label: Toxic or Non-toxic."
)
SENTIMENT_INSTRUCTION = (
    "This task involves identifying sentiment in statements. Definitions:\n"
    "- Sentiment:\n"
    "  - Positive - The statement expresses positive feelings or opinions.\n"
    "  - Neutral - The statement expresses neither clear positive nor negative feelings or "
    "opinions.\n"
    "  - Negative - The statement expresses negative feelings or opinions.\n"
    "Return exactly one label: Positive, Neutral or Negative."
)
#: typed from Figure 3, prompt 1 (its instruction, without the fixed examples)
BIAS_INSTRUCTION = (
    "Determine whether the passage expresses any form of bias or prejudice. Return exactly one "
    "label: Biased if the passage contains stereotyping, hateful language, or unequal treatment; "
    "otherwise Non-Biased. Ignore irony or satire cues unless they explicitly neutralise the "
    "bias."
)

TOXIC_TRAIN = [  # (text, raw label); classes interleaved, row order not alphabetical, on purpose
    ("you idiot", "1"),
    ("nice day", "0"),
    ("shut up loser", "Toxic"),
    ("thanks a lot", "0.0"),
    ("go away creep", "1.0"),
    ("the bus is late", "Non-toxic"),
    ("pathetic fool", "1"),
    ("lunch at noon", "0"),
]
SENTIMENT_TRAIN = [
    ("I love it", "Positive"),
    ("it is awful", "Negative"),
    ("it has four legs", "Neutral"),
    ("great fun", "positive"),
    ("terrible service", "negative"),
    ("the shop opens at nine", "neutral"),
    ("wonderful", "Positive"),
    ("a waste of money", "Negative"),
    ("the page is blue", "Neutral"),
]
TOXIC_VALID = [("v1 you fool", "1"), ("v2 good morning", "0"), ("v3 lovely work", "0")]
SENTIMENT_VALID = [("w1 what a joy", "2"), ("w2 so sad", "0"), ("w3 it is a chair", "1")]
#: raw label -> class, by hand (for the oracle)
TOXIC_CLASS = {"1": "toxic", "1.0": "toxic", "Toxic": "toxic"}
SENTIMENT_CLASS = {"positive": "positive", "negative": "negative", "neutral": "neutral"}
NAMES = {"0": "negative", "1": "neutral", "2": "positive"}


def _write(path: Path, rows: list[tuple[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label"])
        writer.writerows(rows)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    root = tmp_path / "beads"
    _write(root / FOLDER / "toxic-train.csv", TOXIC_TRAIN)
    _write(root / FOLDER / "toxic-valid.csv", TOXIC_VALID)
    _write(root / FOLDER / "sentiment-train.csv", SENTIMENT_TRAIN)
    _write(root / FOLDER / "sentiment-valid.csv", SENTIMENT_VALID)
    return root


def _oracle(path: Path, to_class: dict[str, str], order: list[str], k: int, seed: int) -> list:
    """The documented rule, naively: per class in label order, k of that class's rows (by row
    number) sampled by random.Random("beads-shots:<seed>"), then all shuffled by it."""
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    numbered = [(i + 1, r["text"], to_class.get(r["label"]) or "") for i, r in enumerate(rows)]
    if "non-toxic" in order:
        numbered = [(n, t, c or "non-toxic") for n, t, c in numbered]
    generator = random.Random("beads-shots:" + str(seed))
    chosen = []
    for label in order:
        pool = [(n, t, c) for n, t, c in numbered if c == label]
        chosen.extend(generator.sample(pool, k))
    generator.shuffle(chosen)
    return [(t, c) for _, t, c in chosen]


def _bench(store: DataStore, seed: int, **options: object) -> Beads:
    bench = Beads.from_dict({"mode": "generate", "shots": 2, **options}, store, seed)
    assert isinstance(bench, Beads)
    return bench


def _prompt(bench: Beads, index: int = 0) -> str:
    samples = bench.load_samples()
    [request] = bench.next_requests(samples[index], [])
    assert isinstance(request, GenerateRequest) and request.messages is not None
    return request.messages[0].content


def _expected(instruction: str, shots: list, display: dict[str, str], item: str) -> str:
    lines = [f"Text: {t}\nLabel: {display[c]}" for t, c in shots]
    return instruction + " Examples. " + "\n".join(lines) + f"\nText: {item}\nLabel:"


@pytest.mark.parametrize("seed", [0, 1, 7])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_toxicity_draw_and_prompt(store: DataStore, data: Path, seed: int, k: int) -> None:
    bench = _bench(store, seed, subtask="toxicity", data=str(data), shots=k)
    order = ["non-toxic", "toxic"]
    shots = _oracle(data / FOLDER / "toxic-train.csv", TOXIC_CLASS, order, k, seed)
    display = {"toxic": "Toxic", "non-toxic": "Non-toxic"}
    assert _prompt(bench, 2) == _expected(TOXICITY_INSTRUCTION, shots, display, "v3 lovely work")
    assert bench.prompt_template_ids() == [
        f"beads/appA1-toxicity-definitions+{k}-per-class-from-train-seed{seed}"
    ]


@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_sentiment_draw_and_prompt(store: DataStore, data: Path, seed: int, k: int) -> None:
    bench = _bench(store, seed, subtask="sentiment", data=str(data), shots=k, sentiment_names=NAMES)
    order = ["negative", "neutral", "positive"]
    to_class = {raw: SENTIMENT_CLASS[raw.lower()] for _, raw in SENTIMENT_TRAIN}
    shots = _oracle(data / FOLDER / "sentiment-train.csv", to_class, order, k, seed)
    display = {"positive": "Positive", "negative": "Negative", "neutral": "Neutral"}
    assert _prompt(bench) == _expected(SENTIMENT_INSTRUCTION, shots, display, "w1 what a joy")
    assert bench.prompt_template_ids() == [
        f"beads/appA1-sentiment-definitions+{k}-per-class-from-train-seed{seed}"
    ]


def test_every_item_gets_the_same_examples(store: DataStore, data: Path) -> None:
    bench = _bench(store, 0, subtask="toxicity", data=str(data))
    prompts = [_prompt(bench, i) for i in range(3)]
    heads = {p.rsplit("\nText: ", 1)[0] for p in prompts}
    assert len(heads) == 1
    assert [p.rsplit("\nText: ", 1)[1] for p in prompts] == [
        "v1 you fool\nLabel:",
        "v2 good morning\nLabel:",
        "v3 lovely work\nLabel:",
    ]


def test_bias_draw_and_prompt_on_the_demo_train_split(store: DataStore) -> None:
    bench = _bench(store, seed=0)
    samples = bench.load_samples()
    to_class = {"1": "biased", "0": "neutral"}
    shots = _oracle(TRAIN, to_class, ["neutral", "biased"], 2, 0)
    display = {"biased": "Biased", "neutral": "Non-Biased"}
    item = samples[0].data["text"]
    assert _prompt(bench) == _expected(BIAS_INSTRUCTION, shots, display, item)
    assert INSTRUCTION == BIAS_INSTRUCTION
    assert _bench(store, seed=1).shots != bench.shots
    assert bench.prompt_template_ids() == [
        "beads/fig3-1-text-classification+2-per-class-from-train-seed0"
    ]


def test_the_data_table_names_the_train_split(store: DataStore, data: Path) -> None:
    bench = _bench(store, 0, subtask="toxicity", data=str(data))
    rows = bench.tables([])["data"].rows
    assert [r[0] for r in rows] == [
        "1-Text_Classification/toxic_valid",
        "1-Text_Classification/toxic_train",
    ]
    assert rows[1][1] == str(data / FOLDER / "toxic-train.csv")


def test_shots_split_option_overrides_the_train_split(store: DataStore, data: Path) -> None:
    # the validation file as the example pool: 1 toxic row, so k=2 is refused by name
    bench = _bench(
        store,
        0,
        subtask="toxicity",
        data=str(data),
        split="1-Text_Classification/toxic_train",
        shots_split="1-Text_Classification/toxic_valid",
    )
    with pytest.raises(DataError, match="toxic_valid: 1 rows labelled 'toxic', .* needs 2"):
        bench.load_samples()


@pytest.mark.parametrize("scored", [None, "1-Text_Classification/toxic_valid"])
def test_examples_from_the_scored_split_are_refused(
    store: DataStore, data: Path, scored: str | None
) -> None:
    # the default scored split of toxicity is toxic_valid: drawing the examples from it would
    # let an item be its own example
    bench = _bench(
        store,
        0,
        subtask="toxicity",
        data=str(data),
        split=scored,
        shots_split="1-Text_Classification/toxic_valid",
    )
    with pytest.raises(DataError, match="would be drawn from the split being scored"):
        bench.load_samples()


def test_unnamed_sentiment_ids_in_the_train_split_are_refused(store: DataStore, data: Path) -> None:
    _write(data / FOLDER / "sentiment-train.csv", [("a", "0"), ("b", "1"), ("c", "2")] * 2)
    bench = _bench(store, 0, subtask="sentiment", data=str(data), sentiment_names=None)
    with pytest.raises(
        DataError, match=r"sentiment-train\.csv: sentiment labels 0/1/2 are numeric"
    ):
        bench.load_samples()


def test_draw_needs_k_rows_per_class() -> None:
    rows = [Shot(1, "a", "biased"), Shot(2, "b", "neutral"), Shot(3, "c", "biased")]
    assert sorted(s.row for s in draw(rows, ["biased", "neutral"], 1, 0, "x")) in ([1, 2], [2, 3])
    with pytest.raises(
        DataError, match="x: 1 rows labelled 'neutral', the few-shot prompt needs 2"
    ):
        draw(rows, ["biased", "neutral"], 2, 0, "x")


@pytest.mark.parametrize(
    ("subtask", "reply", "outcome", "value"),
    [
        ("toxicity", "Toxic", "answered", "toxic"),
        ("toxicity", " Non-toxic\nText: you are dumb\nLabel: Toxic", "answered", "non-toxic"),
        ("toxicity", "Label: Non-toxic", "answered", "non-toxic"),
        ("toxicity", "The statement is not toxic.", "answered", "non-toxic"),
        ("toxicity", "Toxic or Non-toxic", "unparsed", None),
        ("toxicity", "I'm sorry, but I can't help with that.", "refused", None),
        ("toxicity", "The weather is nice.", "unparsed", None),
        ("sentiment", "Positive", "answered", "positive"),
        ("sentiment", "Negative.\nText: I hate it\nLabel: Negative", "answered", "negative"),
        ("sentiment", "Neutral", "answered", "neutral"),
        ("sentiment", "Positive, Neutral or Negative", "unparsed", None),
        ("sentiment", "not positive", "unparsed", None),
        ("bias", "Non-Biased", "answered", "neutral"),
        # SmolLM2 reciting the definitions (a real reply): an echo, not "positive"
        (
            "sentiment",
            "The task is to identify the sentiment in a statement based on the given "
            "definitions. The task is to identify the positive, neutral, and negative labels. "
            "The answer is:\n\n- Positive: The statement expresses positive feelings or "
            "opinions.\n- Neutral: The statement expresses neither clear positive nor negative "
            "feelings or opinions.\n",
            "unparsed",
            None,
        ),
        (
            "sentiment",
            "Negative - The statement expresses negative feelings or opinions.",
            "answered",
            "negative",
        ),
        (
            "toxicity",
            "Non-toxic: The statement contains no offensive or harmful language.",
            "answered",
            "non-toxic",
        ),
    ],
)
def test_reading_a_few_shot_reply(subtask: str, reply: str, outcome: str, value: str) -> None:
    parsed = read_answer(reply, subtask)
    assert (parsed.outcome, parsed.value) == (outcome, value)


def test_accuracy_of_few_shot_replies(store: DataStore, data: Path) -> None:
    # golds: v1 toxic, v2 non-toxic, v3 non-toxic; replies: right, wrong, unparsed -> 1/3
    bench = _bench(store, 0, subtask="toxicity", data=str(data))
    replies = iter(["Toxic", "Toxic", "Toxic or Non-toxic"])
    records = []
    for sample in bench.load_samples():
        [request] = bench.next_requests(sample, [])
        response = Response(kind=Capability.GENERATE, text=next(replies))
        records.append(score_record(bench, sample, [Exchange(request=request, response=response)]))
    assert [r.scores["correct"] for r in records] == [1.0, 0.0, 0.0]
    assert [r.scores["predicted"] for r in records] == ["toxic", "toxic", None]
    accuracy = next(m for m in bench.aggregate(records, seed=0).metrics if m.name == "accuracy")
    assert (accuracy.value, accuracy.n) == (pytest.approx(1 / 3), 3)
