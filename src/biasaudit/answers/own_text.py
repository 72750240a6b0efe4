"""What a reply writes of its own instead of answering: a question or quiz item of its own
(what follows answers that, not the benchmark's question), a dialogue of made-up speakers, a
made-up chat turn. Shared by the readers (:mod:`biasaudit.answers.yesno`,
:mod:`biasaudit.answers.choice`, :mod:`biasaudit.answers.labels`, BEADs); each gives its own
words for a question about the task."""

from __future__ import annotations

import re
from collections.abc import Callable

from biasaudit.answers import options as opt
from biasaudit.answers.letters import LETTERS, Choices
from biasaudit.answers.text import is_question, sentences

#: A question in another language ("¿Quién habló con calma?", "Welche Antwort ist richtig?"):
#: likely the benchmark's own, translated; not taken for one of the model's own.
FOREIGN_QUESTION = re.compile(
    r"[¿¡]|[^\x00-\x7F]|^\W*(?:qui[eé]n|cu[aá]l|qu[eé]|qui|quel\w*|lequel|wer|welch\w*|was|wie)\b",
    re.I,
)


def before_question(text: str, own: Callable[[str], bool]) -> str | None:
    """The text up to the first sentence that `own` takes for a question of the model's own,
    or None when there is none (what follows answers that question, not the benchmark's)."""
    at = 0
    for sentence in sentences(text):
        at = text.find(sentence, at)
        if own(sentence):
            return text[:at]
        at += len(sentence)
    return None


#: A quiz item's opening ("1. ", "Question: ", "Q2:") or a question put to the reader.
_QUIZ = re.compile(r"^\s*(?:\d{1,2}[.)]|question\s*\d*\s*[:.]|q\d*\s*[:.])|\byou\b", re.I)


#: A line opening with a one-letter speaker ("A: I was wondering ...", "B: Yes, I would.").
_ONE_LETTER_SPEAKER = re.compile(r"^[ \t]*([A-Z]):[ \t]+\S", re.M)


def before_dialogue(text: str) -> str:
    """The reply up to a dialogue of its own: lines of two or more one-letter speakers ("A:
    ...\nB: Yes, I would."); the reply itself without one (a lone "A: Yes" is a list item)."""
    speakers = list(_ONE_LETTER_SPEAKER.finditer(text))
    if len({m.group(1) for m in speakers}) < 2:
        return text
    return text[: speakers[0].start()]


def before_quiz(text: str, of_the_task: re.Pattern[str]) -> str | None:
    """The reply up to its first line that asks a question of its own (:func:`quiz_question`),
    or None when no line does."""
    at = 0
    for line in text.split("\n"):
        if quiz_question(line.strip(), of_the_task):
            return text[:at]
        at += len(line) + 1
    return None


def quiz_question(sentence: str, of_the_task: re.Pattern[str]) -> bool:
    """A line asking a question of the model's own: a quiz item or one put to the reader
    (:data:`_QUIZ`), in two or more content words, in English, asking nothing of the task
    (`of_the_task`: the reader's words for its question): "1. Did this correlation show a
    positive relationship?"; a rhetorical "Why would anyone do that?" is not one."""
    words = re.findall(r"[^\W\d_]{4,}", sentence)
    return (
        is_question(sentence)
        and len(words) >= 2
        and _QUIZ.search(sentence) is not None
        and not of_the_task.search(sentence)
        and not FOREIGN_QUESTION.search(sentence)
    )


#: A later line opening a new chat turn ("Assistant: ...", "User: ...", "Mrs. Smith: ..."):
#: the model writing a transcript of its own; what it makes up there is not its answer.
_NEW_TURN = re.compile(
    r"\n\s*(?:user|assistant|human|system|### ?(?:user|assistant)|(?:mr|mrs|ms|dr)\.?\s+\w+)"
    r"\s*:",
    re.I,
)
#: A line opening with a speaker's name ("Foreign partner: ..."): a name of one to three
#: words, no digit, then a colon.
_SPEAKER = re.compile(r"^[ \t]*([A-Z][\w'.-]*(?:[ \t]+[A-Za-z][\w'.-]*){0,2})[ \t]*:(?!//)", re.M)
#: Names before a colon that head a field of the answer itself, not a speaker's turn.
_FIELD = re.compile(
    r"^(?:(?:final|correct|short|my|the)\s+)?(?:answer|label|labels|text|passage|sentence|"
    r"statement|example|explanation|reason|reasoning|option|options|choice|note|question|"
    r"context|hypothesis|premise|step|check|result|output|input|response|verdict|summary|"
    r"conclusion|because|therefore|so|yes|no|true|false|bias|biased|non-biased|neutral|"
    r"toxic|toxicity|sentiment|category|classification|prediction|answers|sources?)\b",
    re.I,
)


def _speaker_turn(text: str) -> int | None:
    """Where the first later line opens a turn of a speaker who speaks twice or more (a made-
    up dialogue: "Foreign partner: ... Assistant: ... Foreign partner: ..."); None if none."""
    seen: dict[str, list[int]] = {}
    for found in _SPEAKER.finditer(text):
        name = found.group(1).strip()
        if not _FIELD.match(name):
            seen.setdefault(name.lower(), []).append(found.start())
    starts = [pos[0] for pos in seen.values() if len(pos) >= 2 and text[: pos[0]].strip()]
    return min(starts, default=None)


def before_new_turn(text: str) -> str:
    """The reply up to the first later line opening a new chat turn: a chat role, a named
    person ("Mrs. Smith:"), or a speaker who speaks twice or more."""
    found = _NEW_TURN.search(text)
    cuts = [found.start()] if found else []
    speaker = _speaker_turn(text)
    if speaker is not None:
        cuts.append(speaker)
    cut = min(cuts, default=None)
    return text[:cut] if cut is not None and text[:cut].strip() else text


#: A sentence giving an answer that is not the reply's own: the reader's (or user's) choice
#: reported ("You chose option C.", "You picked B"), or the alternative to it ("The other
#: answer would be ...", "One option is C").
NOT_ITS_OWN = re.compile(
    r"^\W*(?:you\s+(?:have\s+)?(?:chose|chosen|picked|selected)\b|"
    r"the\s+(?:other|alternative)\s+(?:answer|option|choice)\s+(?:would|could|might|may|is|was)\b|"
    r"one\s+(?:of\s+the\s+)?(?:answers?|options?|choices?)\s+(?:is|would\s+be|could\s+be)\b)",
    re.I,
)
#: A letter as a line of its own, at a line's end after a colon, or in a run of letters
#: joined by hyphens, or opening a line with text after it ("- D.", "Business Manager: E",
#: "A-B-C-D-E", "D. The bartender").
_LINE_LETTER = re.compile(
    r"^\W*([A-J])[.)]?\s*$|:\s*([A-J])[.)]?\s*$|\b((?:[A-J]-){2,}[A-J]?)|"
    r"^[ \t]*([A-J])[.)][ \t]+\S",
    re.M,
)


def letters_of_its_own(text: str, n: int) -> bool:
    """Whether the reply marks lines or a run with a letter no option has: a list of its
    own, and the options' letters in it are its own too."""
    for m in _LINE_LETTER.finditer(text):
        letters = m.group(1) or m.group(2) or m.group(4) or m.group(3).replace("-", "")
        if any(LETTERS.find(letter) >= n for letter in letters):
            return True
    return False


#: A line of a made-up dialogue: a one-word speaker, a colon, what it says.
_SPEAKER_LINE = re.compile(r"^[ \t]*[A-Z][a-z]{2,}:[ \t]*(\S.*?)[ \t]*$", re.M)


def speakers_give_another(text: str, value: str | None, choices: Choices) -> bool:
    """Whether two or more lines of a dialogue the reply makes up each give one option other
    than the one read (as for a verdict in a made-up chat turn: a different answer in a
    made-up continuation is a second answer)."""
    others = 0
    for m in _SPEAKER_LINE.finditer(text):
        said, _ = opt.restates(re.sub(r"\s*\([A-J]\)$", "", m.group(1)), choices.options)
        others += said is not None and LETTERS[said] != value
    return others >= 2
