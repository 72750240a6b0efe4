"""Context-addition templates: statements with ``___`` blanks where context may be added.

The released templates mostly write a blank as a separate ``___`` token, but variants occur
(``____``, ``__``, a blank glued to punctuation as in ``___.``). Here every run of two or more
underscores is a blank. The reference ED mode (`metrics.edit_distance`) deliberately keeps the
authors' narrower whitespace-token view instead.
"""

from __future__ import annotations

import re

BLANK = "___"
_BLANK_RE = re.compile(r"_{2,}")
#: An unresolved alternation such as "(Jews | Christians)".
_ALTERNATION_RE = re.compile(r"\([^()|]*\|[^()]*\)")
#: Generation artefacts the annotation guidelines tell annotators to reject (spec §2 step 2).
_BLANK_ALTERNATION_RE = re.compile(r"\(\s*_{2,}\s*(\|\s*_{2,}\s*)+\)")
_NOTE_RE = re.compile(r"\bnote\s*:", re.IGNORECASE)


def normalize_blanks(template: str) -> str:
    """Write every blank variant (``__``, ``____``...) as ``___``."""
    return _BLANK_RE.sub(BLANK, template)


def count_blanks(template: str) -> int:
    return len(_BLANK_RE.findall(template))


def strip_blanks(template: str) -> str:
    """The statement a template was made from: blanks removed, whitespace collapsed."""
    without = _BLANK_RE.sub(" ", template)
    without = re.sub(r"\s+([.,;:!?])", r"\1", without)
    return " ".join(without.split())


def words(text: str) -> list[str]:
    """Whitespace words, the unit of the paper's template-length and length analyses."""
    return text.split()


def same_text(a: str, b: str) -> bool:
    """Equal up to whitespace and the spacing before punctuation."""
    return strip_blanks(a) == strip_blanks(b)


def unchanged(version: str, statement: str) -> bool:
    """True when a version is the statement itself (up to whitespace): no context added."""
    return version.split() == statement.split()


def has_alternation(text: str) -> bool:
    """True for text that still holds an ``(a | b)`` alternation."""
    return bool(_ALTERNATION_RE.search(text))


def template_problems(template: str, statement: str | None = None) -> list[str]:
    """Why a template is not a clean context-addition template (empty when it is).

    Problems: ``no_blanks``; ``blank_alternation`` for ``(___ | ___)`` artefacts;
    ``note_artefact`` for explanations such as "Note: I have added blanks..."; and, given the
    statement, ``text_changed`` when removing the blanks does not give back the statement.
    """
    problems: list[str] = []
    if count_blanks(template) == 0:
        problems.append("no_blanks")
    if _BLANK_ALTERNATION_RE.search(template):
        problems.append("blank_alternation")
    if _NOTE_RE.search(template):
        problems.append("note_artefact")
    if statement is not None and not same_text(template, statement):
        problems.append("text_changed")
    return problems


def clean_version(text: str) -> str:
    """A generated context-added version as scored: newlines removed (as the authors do),
    outer whitespace stripped."""
    return text.replace("\n", "").strip()
