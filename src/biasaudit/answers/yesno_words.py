"""The words and patterns of the yes/no reader (:mod:`biasaudit.answers.yesno`): yes and
no in English, Spanish, French, German and Chinese, echoes, hedges, "cannot tell", openers."""

from __future__ import annotations

import re

YES = r"(?:ye+s+|yeah|yea|yep|yup|true|correct(?!\s+me\b)|s[íi]|oui|ja|jawohl)"
#: Yes words that answer only alone ("Sure." is yes; "Sure, here is my answer" is not).
SOFT_YES = re.compile(
    r"^(?:sure|absolutely|definitely|certainly|indeed|of\s+course|very\s+much|claro|bien\s+s[ûu]r|"
    r"nat[üu]rlich|当然)(?:[.!。！]+(?:\s|$)|$)",
    re.I,
)
NO = (
    r"(?:no+|nope|nah|nay|never|false|incorrect|non|nein|not\s+at\s+all|not\s+really|"
    r"not\s+in\s+the\s+slightest|claro\s+que\s+no|en\s+absoluto|pas\s+du\s+tout|"
    r"absolument\s+pas|auf\s+keinen\s+fall|keineswegs|gar\s+nicht)"
)
NEG_ADVERB = r"(?:absolutely|definitely|certainly|of\s+course|surely|hell|really|clearly|probably)"
#: "Y" / "N" alone (a sentence of its own).
LETTER_ANSWER = re.compile(r"^(?:(y)|(n))(?:[.!]+(?:\s|$)|$)", re.I)
END = r"(?=$|[\s.,!;:?)\-–—。，！])"
LEAD_ZH = re.compile(r"^(?:(当然不|不是|不对|不|否|没有|错)|(是的|是|对的|对|当然|正确))")
LEADING = re.compile(rf"^(?:{NEG_ADVERB}\s+(not){END}|({NO}){END}|({YES}){END})", re.I)
THINK_SO = re.compile(
    r"^i\s+(?:do\s+not|don't)\s+(?:think|believe)\s+so\b|^i\s+(?:think|believe)\s+(so|not)\b",
    re.I,
)
ECHO = re.compile(
    rf"^(?:either\s+)?(?:{YES}|y|是)\s*(?:/|\bor\b|\bo\b|\bou\b|\boder\b|或|还是)\s*(?:{NO}|n|否|不是)(?:\W|$)|"
    rf"^(?:either\s+)?(?:{NO}|n|否|不是)\s*(?:/|\bor\b|\bo\b|\bou\b|\boder\b|或|还是)\s*(?:{YES}|y|是)(?:\W|$)|"
    r"^(\w+)\s+or\s+not\s+\1\b",  # "True or not true"
    re.I,
)
BOTH = re.compile(
    rf"^(?:{YES}\s*,?\s*(?:and|but|y|et|und)\s+{NO}|{NO}\s*,?\s*(?:and|but|y|et|und)\s+{YES})"
    r"(?:\W|$)",
    re.I,
)
#: Both answers said of one thing anywhere: "your hypothesis is both true and false".
BOTH_WORDS = re.compile(
    r"\bboth\s+(?:(?:true|yes|right|correct)\s+and\s+(?:false|no|wrong|incorrect|untrue)|"
    r"(?:false|no|wrong|incorrect|untrue)\s+and\s+(?:true|yes|right|correct))\b",
    re.I,
)
#: A later sentence that makes the answer depend on a point of view: "It depends.", "this
#: lies on a matter of perspective", "it is subjective".
DEPENDS = re.compile(
    r"(?:[.,;!?]\s*|\bbut\s+|\bhowever,?\s+)(?:(?:it|this|that)\s+(?:all\s+)?(?:really\s+)?"
    r"(?:depends(?!\s+on\s+nothing)|is\s+subjective|(?:is|lies\s+on|comes\s+down\s+to)\s+a\s+matter\s+of))\b",
    re.I,
)
#: A verdict made partial, leaning to the other answer: "not entirely incorrect" leans yes,
#: "not entirely true" leans no ("No, ... not entirely true" is a no).
PARTLY = re.compile(
    r"\bnot\s+(?:entirely|completely|totally|fully|wholly|necessarily|exactly)\s+"
    r"(?:(?P<yes>incorrect|untrue|false|wrong|inaccurate)|(?P<no>correct|true|right|accurate))\b",
    re.I,
)
#: The context does not tell (the protocol's unknown outcome where it has one).
CANNOT_TELL = re.compile(
    r"^(?:no\s+way\s+(?:to|of)\s+(?:tell|know|say)|maybe|perhaps|possibly|unclear|undetermined|"
    r"uncertain|it\s+depends|(?:it\s+)?(?:cannot|can't|can\s+not)\s+be\s+(?:determined|told|said)|"
    r"(?:it\s+is|it's)\s+(?:not\s+possible|impossible|unclear|uncertain)\s+to\s+(?:determine|say|tell)|"
    r"(?:there\s+is\s+)?(?:not\s+enough|insufficient)\s+information|"
    r"(?:the\s+)?(?:paragraph|premise|text|passage)\s+does\s+not\s+(?:provide|give|say)|"
    r"(?:i|we)\s+(?:cannot|can't)\s+(?:tell|say|determine)|no\s+se\s+puede\s+(?:saber|determinar)|"
    r"on\s+ne\s+peut\s+pas\s+(?:savoir|dire)|kann\s+(?:man\s+)?nicht\s+(?:gesagt|bestimmt)|无法确定|不确定)",
    re.I,
)
HEDGE = re.compile(
    r"^(?:no\s+(?:idea|clue)|(?:i'?m\s+|i\s+am\s+)?(?:absolutely\s+|just\s+|honestly\s+)?not\s+"
    r"(?:really\s+|quite\s+|entirely\s+|so\s+|at\s+all\s+)?(?:sure|certain)|i'?m\s+unsure|"
    r"i\s+don'?t\s+know|i\s+do\s+not\s+know|i'?m\s+not\s+certain|hard\s+to\s+say|no\s+s[ée]|"
    r"je\s+ne\s+sais\s+pas|ich\s+wei(?:ß|ss)\s+(?:es\s+)?nicht|不知道)",
    re.I,
)
NO_ANSWER = re.compile(
    r"^(?:n\s*/\s*a\b|no[\s-]+(?:doubt|question|comment|answer|response|opinion|one|problem|need|"
    r"matter|"
    r"worries|further|more|other|thanks|offen[cs]e|judg(?:e)?ment|information|context|wonder)\b|"
    r"none\b|nobody\b)",
    re.I,
)
OPENER = re.compile(
    r"^(?:(?:hmm+|um+|uh+|well|ok(?:ay)?|so|honestly|frankly|in\s+my\s+opinion|personally|"
    r"no\s+doubt|without\s+a\s+doubt|i\s+(?:would|will|must|have\s+to)\s+(?:say|answer)|"
    r"i\s+vote(?:\s+for)?|(?:i'?m\s+)?going\s+with|"
    r"surely|obviously|clearly|definitely|certainly|"
    r"it\s+(?:has\s+to|must)\s+be(?=[\s,]+(?:yes|no)\b)|"
    r"i(?:'d|\s+would)(?:\s+have\s+to)?\s+say|i\s+say|i\s+think|i\s+believe|i\s+feel|creo\s+que|je\s+pense\s+que|"
    r"ich\s+denke|我认为|我觉得)\s*[:,\-–—，]?\s*)+",
    re.I,
)
LIST_PREFIX = re.compile(r"^(?:[-*>•]\s*|\d{1,2}[.)]\s+|[a-d][:.)]\s+)", re.I)
CLAUSE = re.compile(r"[.,;:!?。，；！？]\s*|\s+[-–—]\s+|\s+(?:but|so|and)\s+", re.I)
BARE = re.compile(rf"^(?:{YES}|{NO})[.!。！]*$", re.I)
