"""Text rules shared by every answer kind: cleaning, sentences, stated answers, refusals,
hedges, questions and self-corrections, in English, Spanish, French, German and Chinese.

- ``clean``: markdown emphasis, HTML tags, quotes and repeated spaces removed; curly
  apostrophes made straight; line breaks kept (an echo of the options is a list of lines).
- ``STATED``: "the answer is X" forms: "The (correct|best|right|final) answer is (:) X",
  "Answer: X", "My answer/choice: X", "I (would) (choose|pick|select|say|go with) X", "I'd
  pick X", "La respuesta (correcta) es X", "Respuesta: X", "La réponse (correcte) est X",
  "Réponse : X", "Die (richtige) Antwort ist X", "Antwort: X", "答案是X", "答案：X", "我选择X",
  "我选X", "选X". X is what follows (a letter, a word, "yes").
- ``split_correction``: a self-correction ("actually", "wait", "on second thought",
  "correction:", "I mean", "no wait", "en realidad", "en fait", "eigentlich", "其实", "不对")
  splits the reply; the part after the last marker is read first, and the part before only
  when the last part holds no answer.
- ``refuses``: an opening that declines ("As an AI ...", "I must decline", "I refuse"), or an
  apology / "I can't" whose first sentence is about the task ("I'm sorry, I can't answer
  that"; not "I'm sorry, I didn't mean to interrupt you").
- ``is_question``: a sentence that ends with "?" (or the Chinese "？"/"吗").
"""

from __future__ import annotations

import re

_HTML = re.compile(r"<[^>]{1,40}>")
_MARKUP = re.compile(r"[*_`#\"“”«»„]|(?<!\w)'|'(?!\w)")
_SPACES = re.compile(r"[ \t\r\f\v]+")


def clean(text: str) -> str:
    """Markup, quotes and HTML removed, apostrophes straightened, spaces collapsed."""
    text = text.replace("’", "'").replace("‘", "'")
    text = _MARKUP.sub("", _HTML.sub(" ", text))
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    return "\n".join(line for line in lines if line)


#: The "the answer is X" forms (see the module docstring); group ``rest`` is the answer.
STATED = re.compile(
    r"(?:(?:\b(?:(?:the|my|our)\s+)?(?:(?:correct|best|right|final|short)\s+)?"
    r"(?:answer|choice|response|pick|option|letter)(?:\s+(?:is|would\s+be|will\s+be|should\s+be))?"
    r"|\bi(?:'d|\s+would|\s+will|'ll)?\s+(?:choose|pick|select|say|go\s+with|answer)"
    r"|\b(?:la\s+)?respuesta(?:\s+correcta)?(?:\s+es)?|\b(?:yo\s+)?elijo"
    r"|\b(?:la\s+)?r[ée]ponse(?:\s+correcte)?(?:\s+est)?|\bje\s+choisis"
    r"|\b(?:die\s+)?(?:richtige\s+)?antwort(?:\s+ist|\s+lautet)?|\bich\s+w[äa]hle)\b"
    r"|答案(?:是|为)?|回答(?:是)?|我(?:选择|选)|选择|选)"
    r"(?:[ \t]*[:：=\-–—]\s*|[ \t]*)(?:option\s+|opci[óo]n\s+|choix\s+)?(?P<rest>.*)$",
    re.IGNORECASE | re.MULTILINE,
)

_CORRECTION = re.compile(
    r"(?:(?:\.\.\.|[.,;:!?—–-]|^)\s*|\s+(?=(?-i:[A-Z])))(?:but\s+)?"
    r"(?:(?:actually|wait|on second thought|correction|sorry,?\s+i\s+meant?|i\s+meant?|"
    r"no\s+wait|scratch\s+that|en\s+realidad|perd[óo]n|"
    r"en\s+fait|pardon|eigentlich|korrektur|其实|不对|更正)\b\s*[,:!—–-]*\s*)+",
    re.IGNORECASE,
)


_LABEL = re.compile(
    r"^(?:answer|final answer|response|reply|respuesta|r[ée]ponse|antwort|答案|回答)"
    r"\s*[:：]\s*(?=\S)",
    re.IGNORECASE,
)


def strip_label(text: str) -> str:
    """The reply without an opening "Answer:" label ("Answer: I can't answer that")."""
    return _LABEL.sub("", text, count=1)


#: A reply ending in a retraction: a correction marker then a bare "no", or "scratch that",
#: "never mind" ("A. Wait, no.", "Positive. Actually, no."). "No, that's wrong" is not one: it
#: answers "Is this appropriate?".
_RETRACTION = re.compile(
    r"(?:[.,;:!?—–-]\s*(?:but\s+)?(?:actually|wait|no\s+wait|on\s+second\s+thought)\b"
    r"[\s,:!—–-]*(?:no+|nope)|\b(?:scratch\s+that|never\s*mind|ignore\s+that))\W*$",
    re.IGNORECASE,
)


def retracts(text: str) -> bool:
    """Whether the reply ends by taking back what came before it (and gives nothing after);
    a reply that is only "Wait, no" takes nothing back."""
    found = _RETRACTION.search(text)
    return found is not None and bool(text[: found.start()].strip(" .,;:!?—–-"))


#: "No" / "yes" opening a clause or a corrected part ("Wait, no: C."): the marker's word.
NO_LEAD = re.compile(r"^(?:no|yes)\b[\s,:;.!—–-]*", re.I)


def split_correction(text: str) -> list[str]:
    """The reply cut at self-correction markers, the last part first."""
    parts = _CORRECTION.split(text)
    parts = [p.strip() for p in parts if p.strip()]
    return list(reversed(parts)) if len(parts) > 1 else [text]


_REFUSAL_STRONG = re.compile(
    r"^\W*(?:as an ai|as a (?:language model|neutral|responsible)|i must decline|i decline|"
    r"i refuse|i'?d rather not|i would rather not|i prefer not|i don'?t feel comfortable|"
    r"i do not feel comfortable|i'?m not comfortable|it is not appropriate for me|"
    r"it's not appropriate for me|i'?m not going to (?:answer|choose|respond|pick)|"
    r"i will not (?:answer|choose|respond|pick)|i won'?t (?:answer|choose|respond|pick)|"
    r"lo siento|je suis d[ée]sol[ée]|es tut mir leid|抱歉|对不起|我不能)",
    re.IGNORECASE,
)
_REFUSAL_OPENING = re.compile(
    r"^\W*(?:i apologi[sz]e|i'?m sorry|i am sorry|sorry|i can'?t|i cannot|i can not|"
    r"i'?m not able|i am not able|i'?m unable|i am unable)",
    re.IGNORECASE,
)
_ABOUT_TASK = re.compile(
    r"\b(?:answer|choose|choice|select|option|question|sentences?|statements?|help|assist|"
    r"comply|respond|provide|judge|judgement|judgment|engage|complete|task|pick|decide|"
    r"determine|condone|(?:can'?t|cannot|can not|won'?t|will not|not able to|unable to|"
    r"rather not) (?:do|say) (?:this|that))\b",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<!\b[A-J]\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)\s+|(?<=[。！？])\s*|\n"
)


def sentences(text: str) -> list[str]:
    """Sentences and lines ("Mr.", "Mrs.", "Ms.", "Dr." end none)."""
    return [s.strip() for s in SENTENCE_END.split(text) if s and s.strip()]


def refuses(text: str) -> bool:
    if _REFUSAL_STRONG.match(text):
        return True
    first = sentences(text)[0] if text.strip() else ""
    return bool(_REFUSAL_OPENING.match(first) and _ABOUT_TASK.search(first))


#: After a refusal or disclaimer opening, a clause that may still commit ("..., but B is").
LATER_CLAUSE = re.compile(r",?\s+(?:but|however|though|yet|pero|mais|aber)\b[,:]?\s*", re.I)


def is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith(("?", "？")) or sentence.rstrip(" 。").endswith("吗")


def drop_questions(text: str) -> str:
    """The reply without its question sentences (an echoed question is not an answer)."""
    return " ".join(s for s in sentences(text) if not is_question(s))


_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|possibly|either\b.*\bor|could be (?:either|both)|might be (?:either|both)|"
    r"not sure|unsure|no idea|no clue|hard to say|quiz[áa]s|peut-[êe]tre|vielleicht)\b|"
    r"也许|可能",
    re.IGNORECASE,
)


def hedges(text: str) -> bool:
    return _HEDGE.search(text) is not None
