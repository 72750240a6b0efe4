"""A small hand-written synonym and modifier table for template perturbation.

No WordNet data can be downloaded here, and the PyPI packages that bundle it pull in large,
unrelated stacks, so the perturbation uses this table instead. It was written for CALM's
templates: it covers frequent function-free words of the 224 templates (verbs of motion and
speech, common nouns, adverbs) and only meaning-preserving, sentiment-neutral substitutes,
so a substitution should change neither an NLI label nor a sentiment label. Words that are
answers of a template are never replaced (see `perturb.py`).
"""

from __future__ import annotations

SYNONYMS: dict[str, tuple[str, ...]] = {
    "went": ("headed", "proceeded"),
    "moved": ("relocated", "went"),
    "journeyed": ("traveled", "went"),
    "travelled": ("journeyed", "went"),
    "said": ("stated", "remarked"),
    "told": ("informed", "notified"),
    "asked": ("inquired of", "questioned"),
    "gave": ("handed", "passed"),
    "took": ("grabbed", "picked up"),
    "got": ("obtained", "received"),
    "made": ("created", "prepared"),
    "saw": ("noticed", "spotted"),
    "thought": ("believed", "figured"),
    "wanted": ("wished", "desired"),
    "needed": ("required", "had to have"),
    "tried": ("attempted", "sought"),
    "found": ("discovered", "located"),
    "helped": ("assisted", "aided"),
    "began": ("started", "commenced"),
    "started": ("began", "commenced"),
    "looked": ("glanced", "peered"),
    "walking": ("strolling", "ambling"),
    "running": ("jogging", "racing"),
    "talking": ("speaking", "chatting"),
    "buy": ("purchase", "get"),
    "bought": ("purchased", "got"),
    "show": ("display", "present"),
    "help": ("assist", "aid"),
    "very": ("really", "quite"),
    "really": ("truly", "very"),
    "quickly": ("rapidly", "swiftly"),
    "sometimes": ("occasionally", "at times"),
    "always": ("constantly", "invariably"),
    "often": ("frequently", "regularly"),
    "maybe": ("perhaps", "possibly"),
    "also": ("too", "as well"),
    "then": ("afterwards", "next"),
    "around": ("about", "roughly"),
    "near": ("close to", "next to"),
    "beside": ("next to", "alongside"),
    "large": ("big", "huge"),
    "big": ("large", "sizable"),
    "small": ("little", "tiny"),
    "fast": ("quick", "rapid"),
    "begin": ("start", "commence"),
    "house": ("home", "residence"),
    "job": ("position", "occupation"),
    "friend": ("pal", "buddy"),
    "friends": ("pals", "buddies"),
    "people": ("folks", "individuals"),
    "kids": ("children", "youngsters"),
    "children": ("kids", "youngsters"),
    "child": ("kid", "youngster"),
    "store": ("shop", "market"),
    "road": ("street", "route"),
    "car": ("automobile", "vehicle"),
    "movie": ("film", "picture"),
    "film": ("movie", "picture"),
    "story": ("tale", "account"),
    "idea": ("notion", "thought"),
    "chance": ("opportunity", "possibility"),
    "lot": ("great deal", "bunch"),
    "things": ("stuff", "items"),
    "everything": ("all of it", "it all"),
    "couple": ("pair", "few"),
    "evening": ("night", "dusk"),
    "afternoon": ("midday", "daytime"),
}

#: Neutral adjectives inserted before a noun that follows an article ("the house" ->
#: "the quiet house"); consonant-initial so "a" never needs to become "an".
ADJECTIVES: tuple[str, ...] = ("quiet", "familiar", "nearby", "small", "regular", "usual")

#: Nouns that may receive an adjective (frequent, concrete, never sentiment-bearing).
NOUNS: frozenset[str] = frozenset(
    {
        "house", "room", "table", "car", "book", "school", "city", "office", "park",
        "street", "store", "restaurant", "building", "train", "bus", "river",
        "garden", "kitchen", "bedroom", "hallway", "bathroom", "library", "party", "game",
        "day", "morning", "evening", "night", "town", "village", "shop", "field", "road",
    }
)  # fmt: skip

#: Neutral sentences appended to the main passage (clause addition).
CLAUSES: tuple[str, ...] = (
    "This happened a while ago.",
    "That is how things went.",
    "It was an ordinary week.",
    "Nobody else was around at the time.",
)
