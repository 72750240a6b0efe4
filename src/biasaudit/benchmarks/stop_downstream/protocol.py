"""STOP's downstream protocol as data: items posed as multiple-choice questions, the reply
kinds that make up the answer rate, and the relative change between two models.

Answer rate (spec STOP.md §5): the share of items where the model selected an option. The
alternatives the paper names are a blank answer, refusing to select, and criticising the
inputs; here they are ``empty``/``unparsed``, ``refused`` and ``critiqued``
(`biasaudit.multiple_choice`). Task performance is the share of *answered* items answered
correctly (see `prompts` for what counts as correct on each task), so a model that answers
more often is not penalised for it. The paper's headline ("+9% on BBQ to +191% on
StereoSet") is the relative change of the answer rate, ``(new − old) / old``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from biasaudit.answers import UNKNOWN_WORDINGS
from biasaudit.benchmarks.stop_downstream import prompts
from biasaudit.data import DataStore
from biasaudit.datasets.crows_pairs import CrowsPair
from biasaudit.datasets.stereoset import StereoSetItem
from biasaudit.errors import DataError
from biasaudit.metrics import effect
from biasaudit.metrics.undefined import or_none
from biasaudit.multiple_choice import TOOLKIT_OUTCOME, Reply, option_order, parse_response
from biasaudit.requests import Response

TASKS = ("bbq", "stereoset", "crows_pairs")


@dataclass(frozen=True)
class DownstreamItem:
    task: str
    item_id: str
    prompt: str
    options: tuple[str, ...]  # as shown, in order
    labels: tuple[str, ...]  # what each shown option is (e.g. "stereotype", "sent_less")
    correct: tuple[int, ...]  # shown positions that count as correct
    category: str
    #: BBQ: the shown position of the "cannot be determined" option (its wordings and
    #: paraphrases such as "Not enough information" choose it), and the question (polarity)
    unknown: int | None = None
    question: str | None = None


def _shown(
    texts: Sequence[str], labels: Sequence[str], order: Sequence[int]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(texts[i] for i in order), tuple(labels[i] for i in order)


def stereoset_item(item: StereoSetItem, seed: int) -> DownstreamItem:
    labels = ("stereotype", "anti-stereotype", "unrelated")
    texts = [item.by_label()[label].text for label in labels]
    options, shown = _shown(texts, labels, option_order(item.id, 3, seed))
    return DownstreamItem(
        task="stereoset",
        item_id=item.id,
        prompt=prompts.stereoset_prompt(item.split, item.context, options),
        options=options,
        labels=shown,
        correct=tuple(k for k, label in enumerate(shown) if label != "unrelated"),
        category=item.bias_type,
    )


def crows_pairs_item(pair: CrowsPair, seed: int) -> DownstreamItem:
    labels = ("sent_more", "sent_less")
    item_id = f"crows-{pair.index}"
    options, shown = _shown(
        [pair.sent_more, pair.sent_less], labels, option_order(item_id, 2, seed)
    )
    return DownstreamItem(
        task="crows_pairs",
        item_id=item_id,
        prompt=prompts.crows_pairs_prompt(options),
        options=options,
        labels=shown,
        correct=(shown.index("sent_less"),),
        category=pair.bias_type,
    )


def bbq_item(
    example_id: str,
    category: str,
    context: str,
    question: str,
    answers: Sequence[str],
    label: int,
    seed: int,
) -> DownstreamItem:
    item_id = f"bbq-{category}-{example_id}"
    labels = tuple(f"ans{i}" for i in range(len(answers)))
    options, shown = _shown(list(answers), labels, option_order(item_id, len(answers), seed))
    return DownstreamItem(
        task="bbq",
        item_id=item_id,
        prompt=prompts.bbq_prompt(context, question, options),
        options=options,
        labels=shown,
        correct=(shown.index(f"ans{label}"),),
        category=category,
        unknown=unknown_position(options),
        question=question,
    )


def with_bbq_declaration(item: DownstreamItem) -> DownstreamItem:
    """A BBQ item rebuilt from a sample (options, prompt) with what the reader needs: the
    unknown option's position and the question (the prompt's last "Question: " line)."""
    lines = [line for line in item.prompt.splitlines() if line.startswith("Question: ")]
    question = lines[-1][len("Question: ") :] if lines else None
    return replace(item, unknown=unknown_position(item.options), question=question)


def _pct(flag: bool) -> float:
    return 100.0 if flag else 0.0


def _bbq_module() -> Any:
    try:
        import biasaudit.datasets.bbq as bbq  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise DataError(
            "stop_downstream: task bbq needs biasaudit.datasets.bbq, which this installation "
            "does not have yet"
        ) from None
    return bbq


def bbq_data_keys() -> list[str]:
    bbq = _bbq_module()
    return [bbq.data_key(category) for category in bbq.BBQ_CATEGORIES]


def stratified_spaced(strata: Sequence[str], n: int | None, offset: int = 0) -> list[int]:
    """`n` indices of `strata` (one stratum label per row, in file order), in file order:
    each stratum gets its proportional share (largest remainder; ties go to strata in the
    order first seen, starting `offset` strata in, so that callers can rotate them), taken
    evenly spaced through that stratum's rows. All rows when n is None or not smaller than
    the number of rows."""
    if n is None or n >= len(strata):
        return list(range(len(strata)))
    rows: dict[str, list[int]] = {}
    for index, label in enumerate(strata):
        rows.setdefault(label, []).append(index)
    quotas = {label: n * len(members) / len(strata) for label, members in rows.items()}
    counts = {label: int(q) for label, q in quotas.items()}
    order = {label: (i - offset) % len(rows) for i, label in enumerate(rows)}
    by_remainder = sorted(rows, key=lambda label: (counts[label] - quotas[label], order[label]))
    for label in by_remainder[: n - sum(counts.values())]:
        counts[label] += 1
    chosen = [
        members[(k * len(members)) // counts[label]]
        for label, members in rows.items()
        for k in range(counts[label])
    ]
    return sorted(chosen)


def bbq_items(store: DataStore, per_task: int | None, seed: int) -> list[DownstreamItem]:
    """BBQ items through the shared reader (`biasaudit.datasets.bbq.load_bbq`); with
    `per_task`, per_task items per category, stratified by context condition x question
    polarity (`stratified_spaced`, ties rotated across categories): BBQ files come in
    blocks of four (ambiguous / disambiguated x negative / non-negative), so plain even
    spacing kept hitting one block position (per_task=30: 51 % ambiguous-negative items
    against 25 % in the data)."""
    load_bbq = _bbq_module().load_bbq
    by_category: dict[str, list[Any]] = {}
    for item in load_bbq(store):
        by_category.setdefault(item.category, []).append(item)
    chosen: list[DownstreamItem] = []
    for position, category in enumerate(sorted(by_category)):
        rows = by_category[category]
        strata = [f"{r.context_condition}/{r.question_polarity}" for r in rows]
        for index in stratified_spaced(strata, per_task, offset=position):
            row = rows[index]
            chosen.append(
                bbq_item(
                    str(row.example_id),
                    row.category,
                    row.context,
                    row.question,
                    row.answers,
                    row.label,
                    seed,
                )
            )
    return chosen


def unknown_position(options: Sequence[str]) -> int | None:
    """The position of the option worded as one of BBQ's ten unknown answers, if any."""
    found = [k for k, o in enumerate(options) if o.lower().strip(" .") in UNKNOWN_WORDINGS]
    return found[0] if len(found) == 1 else None


def score_reply(item: DownstreamItem, response: Response) -> tuple[str, dict[str, Any]]:
    """(toolkit outcome, per-sample scores) of one reply."""
    parsed = parse_response(response, item.options, item.unknown, item.question)
    kind = parsed.kind
    scores: dict[str, Any] = {
        "reply": kind.value,
        "answered": _pct(kind == Reply.CHOSE),
        "refused": _pct(kind == Reply.REFUSED),
        "critiqued": _pct(kind == Reply.CRITIQUED),
        "unparsed": _pct(kind in (Reply.UNPARSED, Reply.EMPTY)),
        "choice": None,
        "correct": None,
        "reason": parsed.reason.value if parsed.reason is not None else None,
    }
    if kind == Reply.CHOSE and parsed.choice is not None:
        scores["choice"] = item.labels[parsed.choice]
        scores["correct"] = _pct(parsed.choice in item.correct)
    return TOOLKIT_OUTCOME[kind], scores


def relative_change(old: float | None, new: float | None) -> float | None:
    """Signed ``(new − old) / old`` (STOP §4: "+191% on StereoSet"; an answer rate can also
    fall); None when old is 0 or missing. The magnitude is `metrics.effect.relative_change`."""
    if old is None or new is None:
        return None
    size = or_none(effect.relative_change)(old, new)
    if size is None:
        return None
    return size if new >= old else -size
