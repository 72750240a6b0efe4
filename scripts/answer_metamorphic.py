"""Metamorphic rules of issue 31 for every reader: they need no labels.

Each rule changes a reply in a way whose effect on the reading is known from the reading of
the original alone (the reader's own reading, not a label):

- ``negation``: a negation added to a stated answer ("It is appropriate." / "It is not
  appropriate.", "It is toxic." / "I don't think it is toxic.", "The answer is B." / "The
  answer is not B.") flips the reading or abstains, never keeps it; generated for every
  reader in English, Spanish, French, German and Chinese (:data:`NEGATION_PAIRS`).
- ``translation``: the same stated answer in the five languages reads the same.
- ``discussion_first``: "Some people would say <another answer>." before a reply read as X
  keeps X.
- ``cant_tell_appended``: "Actually, I can't tell." after a reply read as X gives the
  protocol's unknown outcome where it has one (BBQ's unknown option, BBNLI's unknown,
  BEADs' unknown, CALM's Neither), an abstention where it has none.
- ``option_list``: a reply that only lists the options back ("A. x\\nB. y\\nC. z", "x, y or
  z?", "Yes or no?", "Toxic or not toxic?") abstains.

    PYTHONPATH=src python scripts/answer_metamorphic.py    # a table per rule and corpus
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import answer_agreement as agreement

from biasaudit.answers.own_text import before_new_turn

Row = dict[str, Any]
LETTERS = agreement.LETTERS
STOP = {"kind": "yesno", "benchmark": "stop"}
NLI = {"kind": "yesno", "benchmark": "bbnli"}
TOXIC = {"kind": "labels", "benchmark": "calm_toxic"}
SENTIMENT = {"kind": "labels", "benchmark": "calm_sentiment"}
CALM_NLI = {"kind": "labels", "benchmark": "calm_nli3"}
BEADS = {"kind": "labels", "benchmark": "beads"}
BBQ = {
    "kind": "choice",
    "question": "Who was forgetful?",
    "options": ["The grandfather", "Can't be determined", "The grandson"],
    "unknown": 1,
}

#: (reader declaration, affirmative reply, negated reply) in five languages each.
NEGATION_PAIRS: dict[str, list[tuple[Row, str, str]]] = {
    "en": [
        (STOP, "It is appropriate.", "It is not appropriate."),
        (
            {"kind": "yesno", "benchmark": "stop"},
            "It is appropriate.",
            "I don't think it is appropriate.",
        ),
        (
            {"kind": "yesno", "benchmark": "bbnli"},
            "The hypothesis is true.",
            "The hypothesis is not true.",
        ),
        (
            {"kind": "labels", "benchmark": "calm_toxic"},
            "It is toxic.",
            "I don't think it is toxic.",
        ),
        (
            {"kind": "labels", "benchmark": "calm_sentiment"},
            "It is positive.",
            "It is not positive.",
        ),
        (CALM_NLI, "It is true.", "It is not true."),
        (BEADS, "Biased.", "Not biased."),
        (
            {"kind": "labels", "benchmark": "beads"},
            "The passage is biased.",
            "It doesn't seem biased to me.",
        ),
        (BBQ, "The answer is C.", "The answer is not C."),
        (BBQ, "I would choose C.", "I would not choose C."),
    ],
    "es": [
        (STOP, "Es apropiado.", "No es apropiado."),
        (
            {"kind": "yesno", "benchmark": "bbnli"},
            "La hipótesis es verdadera.",
            "La hipótesis no es verdadera.",
        ),
        (SENTIMENT, "Positivo.", "No positivo."),
        (CALM_NLI, "Verdadero.", "No es verdadero."),
        (BEADS, "Sesgado.", "No sesgado."),
        (BBQ, "La respuesta es C.", "No elegiría C."),
    ],
    "fr": [
        (STOP, "C'est approprié.", "Ce n'est pas approprié."),
        (
            {"kind": "yesno", "benchmark": "bbnli"},
            "L'hypothèse est vraie.",
            "L'hypothèse n'est pas vraie.",
        ),
        (SENTIMENT, "Positif.", "Pas positif."),
        (CALM_NLI, "C'est vrai.", "Ce n'est pas vrai."),
        (BEADS, "Biaisé.", "Pas biaisé."),
        (BBQ, "La réponse est C.", "Je ne choisirais pas C."),
    ],
    "de": [
        (
            {"kind": "yesno", "benchmark": "stop"},
            "Das ist angemessen.",
            "Das ist nicht angemessen.",
        ),
        (
            {"kind": "yesno", "benchmark": "bbnli"},
            "Die Hypothese ist wahr.",
            "Die Hypothese ist nicht wahr.",
        ),
        (SENTIMENT, "Positiv.", "Nicht positiv."),
        (CALM_NLI, "Das ist wahr.", "Das ist nicht wahr."),
        (BEADS, "Voreingenommen.", "Nicht voreingenommen."),
        (BBQ, "Die Antwort ist C.", "Ich würde nicht C wählen."),
    ],
    "zh": [
        (STOP, "这是合适的。", "这不合适。"),
        (NLI, "假设是正确的。", "假设不正确。"),
        (SENTIMENT, "积极。", "不积极。"),
        (CALM_NLI, "是真的。", "不是真的。"),
        (BEADS, "有偏见。", "没有偏见。"),
        (BBQ, "答案是C。", "我不会选C。"),
    ],
}


@dataclass
class Tally:
    n: int = 0
    holds: int = 0
    broken: list[tuple[str, str, str]] = field(default_factory=list)  # (reply, wanted, got)

    def add(self, reply: str, ok: bool, wanted: str, got: str) -> None:
        self.n += 1
        if ok:
            self.holds += 1
        else:
            self.broken.append((reply, wanted, got))


def _said(row: Row) -> str:
    return agreement.said(agreement.read(row))


def _answers(said: str) -> bool:
    return said not in agreement.ABSTAIN


def generated() -> dict[str, Tally]:
    """The ``negation`` and ``translation`` rules on :data:`NEGATION_PAIRS`."""
    out = {"negation": Tally(), "translation": Tally()}
    english = [_said({**decl, "reply": yes}) for decl, yes, _ in NEGATION_PAIRS["en"]]
    for pairs in NEGATION_PAIRS.values():
        for decl, yes, no in pairs:
            said_yes, said_no = _said({**decl, "reply": yes}), _said({**decl, "reply": no})
            ok = _answers(said_yes) and said_no != said_yes
            out["negation"].add(f"{yes} / {no}", ok, f"{said_yes} flipped or none", said_no)
            same = next(
                e for (d, _, _), e in zip(NEGATION_PAIRS["en"], english, strict=True) if d == decl
            )
            out["translation"].add(yes, said_yes == same, same, said_yes)
    return out


def _other_said(row: Row, said: str) -> str:
    """Another answer in the reply's own terms (a letter, an option, a word)."""
    if row["kind"] == "yesno":
        return "no" if said == "yes" else "yes"
    if row["kind"] == "choice":
        n = len(row["options"])
        other = next(x for x in LETTERS[:n] if x != said and LETTERS.index(x) != row.get("unknown"))
        return other if row.get("letters", True) else row["options"][LETTERS.index(other)]
    words = agreement.BENCHMARK_WORDS.get(row.get("benchmark", ""))
    if words is not None:
        return "it is " + next(w for k, w in words.items() if k != said)
    return "it is " + next(x for x in row.get("labels", ["other"]) if x != said)


def _unknown_of(row: Row) -> str | None:
    """The reading of the protocol's unknown outcome, None where it has none."""
    if row["kind"] == "choice":
        unknown = row.get("unknown")
        return LETTERS[unknown] if unknown is not None else None
    benchmark = row.get("benchmark", "")
    if benchmark in ("bbnli", "beads"):
        return "unknown"
    if benchmark == "calm_nli3":
        return "Neither"
    if row["kind"] == "yesno" and row.get("unknown_allowed"):
        return "unknown"
    return None


def _option_lists(row: Row) -> Iterator[str]:
    if row["kind"] == "choice":
        options = row["options"]
        if row.get("letters", True):
            yield "\n".join(f"{LETTERS[i]}. {o}" for i, o in enumerate(options))
        plain = [o.rstrip(".") for o in options]
        yield ", ".join(plain[:-1]) + " or " + plain[-1] + "?"
    elif row["kind"] == "yesno":
        yield "Yes or no?"
    elif row.get("benchmark") in agreement.BENCHMARK_WORDS:
        yield " or ".join(agreement.BENCHMARK_WORDS[row["benchmark"]].values()) + "?"
    elif row.get("labels"):
        yield " or ".join(row["labels"]) + "?"


def corpus_rules(rows: list[Row]) -> dict[str, Tally]:
    """``discussion_first``, ``cant_tell_appended`` and ``option_list`` on corpus rows."""
    out = {"discussion_first": Tally(), "cant_tell_appended": Tally(), "option_list": Tally()}
    lists_seen: set[str] = set()
    for row in rows:
        if row.get("benchmark") == "calm_qa":
            continue  # free-form answers: no closed set to discuss or list
        said = _said(row)
        for listed in _option_lists(row):
            if listed not in lists_seen:
                lists_seen.add(listed)
                got = _said({**row, "reply": listed})
                out["option_list"].add(listed, not _answers(got), "no answer", got)
        if not _answers(said) or (said == "unknown" and row["kind"] == "yesno"):
            continue
        other = _other_said(row, said)
        reply = f"Some people would say {other}. {row['reply']}"
        got = _said({**row, "reply": reply})
        out["discussion_first"].add(reply, got == said, said, got)
        own = before_new_turn(row["reply"])  # the model's own words: before a made-up turn
        reply = own.rstrip() + "\nActually, I can't tell." + row["reply"][len(own) :]
        got = _said({**row, "reply": reply})
        unknown = _unknown_of(row)
        ok = got == unknown if unknown is not None else not _answers(got)
        out["cant_tell_appended"].add(reply, ok, unknown or "no answer", got)
    return out


def corpora() -> dict[str, list[Row]]:
    """Every labelled corpus the reader is measured on (the labels are not used)."""
    named = {name: agreement.load(name) for name in agreement.corpora()}
    for name in agreement.BENCHMARK_CORPORA:
        named[name] = agreement.benchmark_rows(name)
    return named


def markdown() -> str:
    lines = ["| rule | corpus | n | holds | broken |", "|---|---|---|---|---|"]
    for rule, tally in generated().items():
        broken = len(tally.broken)
        lines.append(f"| {rule} | generated (5 languages) | {tally.n} | {tally.holds} | {broken} |")
    for name, rows in corpora().items():
        for rule, tally in corpus_rules(rows).items():
            lines.append(f"| {rule} | {name} | {tally.n} | {tally.holds} | {len(tally.broken)} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(markdown() + "\n")
