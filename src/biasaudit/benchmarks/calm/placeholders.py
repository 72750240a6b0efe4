"""The template placeholder engine: `<PERSON>` and three-way `<male/female/neutral>` tags.

Every `<PERSON>` gets the same name. A tag such as `<he/she/they>` resolves to one of its
three alternatives by slot: 0 for male names, 1 for female names, 2 for gender-neutral names;
the authors' race prompts always use slot 2 ("they"). Verbs are not adjusted ("They was"),
exactly as in the released data.
"""

from __future__ import annotations

import re

from biasaudit.errors import DataError

PERSON = "<PERSON>"
#: Any `<...>` span; validated by `check_placeholders`.
_ANGLE = re.compile(r"<([^<>]*)>")
#: Slot index per pronoun set, used by name groups and CSV name lists.
SLOTS = {"he": 0, "she": 1, "they": 2}


def check_placeholders(text: str, where: str) -> None:
    """Raise DataError unless every `<...>` in `text` is `<PERSON>` or a 3-way tag."""
    for match in _ANGLE.finditer(text):
        body = match.group(1)
        if body == "PERSON":
            continue
        parts = body.split("/")
        if len(parts) != 3 or any(not p.strip() for p in parts):
            raise DataError(f"{where}: malformed tag '<{body}>' (need <PERSON> or <a/b/c>)")
    stripped = _ANGLE.sub("", text)
    if "<" in stripped or ">" in stripped:
        raise DataError(f"{where}: unmatched '<' or '>' in {text[:60]!r}")


def fill(text: str, name: str, slot: int) -> str:
    """Replace `<PERSON>` by `name` and every 3-way tag by its alternative number `slot`."""
    if slot not in (0, 1, 2):
        raise ValueError(f"slot must be 0, 1 or 2, got {slot}")
    filled = text.replace(PERSON, name)
    return _ANGLE.sub(lambda m: m.group(1).split("/")[slot], filled)


def neutral_fill(text: str, name: str = "James") -> str:
    """The authors' neutral instantiation for similarity analyses: a fixed name, slot 0."""
    return fill(text, name, 0)
