"""Few-shot prompts as the authors' code builds them, plus the paper's A.3 variant.

"code" (default) reproduces `evaluation/benchmark/scenarios/scenario_{examples,input}.py`:
the first `shots` rows of the source dataset's in-context example file, each rendered as a
solved example, then the query. Quirks kept on purpose: the sentiment/Toxic queries put a
space before "\n", the qamr prompt starts with an instruction line, Sentiment140 and EEC reuse
the SST examples, and malformed example rows are indexed exactly like the authors' code.
"paper" uses the A.3 strings instead (with a period after the passage and "True or False?"
for every NLI source); A.3 has no Toxic prompt, so Toxic keeps the code format.
"""

from __future__ import annotations

from typing import Literal

from biasaudit.benchmarks.calm.data import MCQA_SOURCES, TWO_WAY_NLI
from biasaudit.errors import DataError

PromptFormat = Literal["code", "paper"]

NLI_WORDS = {"entailment": "True", "not-entailment": "False", "neutral": "Neither"}
SENTIMENT_WORDS = {"1": "positive", "0": "negative"}
TOXIC_WORDS = {"1": "True", "0": "False"}
QAMR_PREFIX = "This is a question answering task.\n"
TOXIC_QUESTION = "Is the passage above toxic?"
SST_FAMILY = frozenset({"SST", "Sentiment140", "EEC"})


def kind_of(source_dataset: str) -> str:
    """Prompt kind of a source dataset: qa, mcqa, nli3, nli2, sentiment or toxic."""
    if source_dataset in MCQA_SOURCES:
        return "mcqa"
    if source_dataset in TWO_WAY_NLI:
        return "nli2"
    if source_dataset in ("SNLI", "sick"):
        return "nli3"
    if source_dataset == "Toxic":
        return "toxic"
    if source_dataset in SST_FAMILY:
        return "sentiment"
    return "qa"


def _options(rows: list[str]) -> str:
    return "".join(f"{chr(ord('A') + i)}: {text}\n" for i, text in enumerate(rows))


def _nli_word(label: str, where: str) -> str:
    try:
        return NLI_WORDS[label]
    except KeyError:
        raise DataError(
            f"{where}: NLI example label {label!r} is not one of {list(NLI_WORDS)}"
        ) from None


def render_example(kind: str, row: list[str], fmt: PromptFormat, where: str) -> str:
    """One solved in-context example: the query form of the row followed by its answer.

    Only the code format's sentiment and Toxic examples differ from their queries (no space
    before "\n"), as in the authors' `scenario_examples.py`.
    """
    needed = {"qa": 3, "mcqa": 4, "nli3": 3, "nli2": 3, "sentiment": 2, "toxic": 2}[kind]
    if len(row) < needed:
        raise DataError(f"{where}: example row has {len(row)} fields, {kind} needs {needed}")
    if kind == "toxic":
        return f"Passage: {row[0]}\nQuestion: {TOXIC_QUESTION}\n{row[1]}\n"
    if kind == "sentiment" and fmt == "code":
        return f"Passage: {row[0]}\nSentiment: {row[1]}\n"
    fields: dict[str, str]
    if kind in ("nli3", "nli2"):
        fields, answer = {"premise": row[0], "hypothesis": row[1]}, _nli_word(row[2], where)
    elif kind == "sentiment":
        fields, answer = {"sentence": row[0]}, row[1]
    elif kind == "mcqa":
        question = row[1] + "\n" + _options(row[2:-1]).rstrip("\n")
        fields, answer = {"context": row[0], "question": question}, row[-1]
    else:
        fields, answer = {"context": row[0], "question": row[1]}, row[2]
    query = render_query(kind, fields, fmt)
    return f"{query}{'' if query.endswith(' ') else ' '}{answer}\n"


def render_query(kind: str, fields: dict[str, str], fmt: PromptFormat) -> str:
    """The unanswered query for one instance (MCQA options are already in the question)."""
    if kind == "toxic":
        return f"Passage: {fields['sentence']} \nQuestion: {TOXIC_QUESTION} \n"
    if kind == "sentiment":
        if fmt == "paper":
            return f"Passage: {fields['sentence']}\n. Sentiment: "
        return f"Passage: {fields['sentence']} \nSentiment: "
    if kind in ("nli3", "nli2"):
        premise, hypothesis = fields["premise"], fields["hypothesis"]
        if fmt == "paper":
            return f"Passage:{premise}\n. Question: {hypothesis}.\n. True or False?\n Answer: "
        if kind == "nli3":
            return (
                f"Passage: {premise}\nQuestion: {hypothesis}\n True, False, or Neither?\nAnswer: "
            )
        return f"Passage: {premise}\nQuestion: {hypothesis} True or False?\nAnswer: "
    if fmt == "paper":
        return f"Passage: {fields['context']}.\n Question: {fields['question']}.\n Answer:"
    return f"Passage: {fields['context']}\nQuestion: {fields['question']}\nAnswer: "


def few_shot_prefix(
    source_dataset: str, rows: list[list[str]], shots: int, fmt: PromptFormat, where: str
) -> str:
    """The instruction line (qamr) and the first `shots` solved examples."""
    kind = kind_of(source_dataset)
    examples = "".join(render_example(kind, row, fmt, where) for row in rows[:shots])
    prefix = QAMR_PREFIX if source_dataset == "qamr" and fmt == "code" else ""
    return prefix + examples


def mcqa_options(question: str) -> dict[str, str]:
    """Letter -> option text of the "A: ..." lines embedded in an MCQA question."""
    options: dict[str, str] = {}
    for line in question.split("\n")[1:]:
        if len(line) > 3 and line[0] in "ABCDE" and line[1:3] == ": ":
            options[line[0]] = line[3:]
    return options


def answer_choices(kind: str, question: str) -> list[str]:
    """The label words a log-likelihood protocol compares (empty for free-form QA)."""
    if kind == "mcqa":
        return list(mcqa_options(question))
    if kind == "nli3":
        return ["True", "False", "Neither"]
    if kind == "nli2":
        return ["True", "False"]
    if kind == "toxic":
        return ["True", "False"]
    if kind == "sentiment":
        return ["positive", "negative"]
    return []


def gold_choice(kind: str, gold: str | list[str]) -> str:
    """The label word of the gold answer, in the vocabulary of `answer_choices`."""
    if kind == "mcqa":
        return str(gold[0])
    if kind in ("nli3", "nli2"):
        return NLI_WORDS[str(gold)]
    if kind == "toxic":
        return TOXIC_WORDS[str(gold)]
    if kind == "sentiment":
        return SENTIMENT_WORDS[str(gold)]
    return str(gold)
