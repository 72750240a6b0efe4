"""BEADs few-shot (benchmarks/beads/fewshot.py): the pieces test_beads_fewshot.py reaches only
through the benchmark, or not at all (module-level uses run before any test).

Oracles: App. A.1's definition lines and Figure 3's prompt 1 typed here from the paper's text
(spec §2.8); replies read as a careful reader reads them under the module's documented rule
(a recited definition sentence is not an answer: it names labels).
"""

from __future__ import annotations

import pytest

from biasaudit.benchmarks.beads.fewshot import Shot, definitions, prompt, read_answer, template_id

#: typed from App. A.1 (the annotation prompt's definitions)
DEFINITIONS = {
    "Bias": (
        "- Bias:\n"
        "  - Neutral - The statement shows no favor or prejudice towards any person, group, or "
        "idea.\n"
        "  - Biased - The statement shows favour or prejudice, clearly based on stereotypes or "
        "deep-seated beliefs."
    ),
    "Toxicity": (
        "- Toxicity:\n"
        "  - Non-toxic - The statement contains no offensive or harmful language.\n"
        "  - Toxic - The statement contains language that might be considered disrespectful or "
        "offensive to some."
    ),
    "Sentiment": (
        "- Sentiment:\n"
        "  - Positive - The statement expresses positive feelings or opinions.\n"
        "  - Neutral - The statement expresses neither clear positive nor negative feelings or "
        "opinions.\n"
        "  - Negative - The statement expresses negative feelings or opinions."
    ),
}


@pytest.mark.parametrize("category", ["Bias", "Toxicity", "Sentiment"])
def test_definitions_are_app_a1_lines(category: str) -> None:
    assert definitions(category) == DEFINITIONS[category]


def test_prompt_and_template_id_default_to_the_bias_subtask() -> None:
    shots = [Shot(4, "Old people are slow.", "biased"), Shot(9, "The sky is blue.", "neutral")]
    assert prompt(shots, "Men can cook.") == (
        "Determine whether the passage expresses any form of bias or prejudice. Return exactly "
        "one label: Biased if the passage contains stereotyping, hateful language, or unequal "
        "treatment; otherwise Non-Biased. Ignore irony or satire cues unless they explicitly "
        "neutralise the bias. Examples. Text: Old people are slow.\nLabel: Biased\n"
        "Text: The sky is blue.\nLabel: Non-Biased\nText: Men can cook.\nLabel:"
    )
    assert template_id(2, 5) == "beads/fig3-1-text-classification+2-per-class-from-train-seed5"


@pytest.mark.parametrize(
    ("subtask", "reply", "outcome", "value"),
    [
        # a recited definition, whatever its case or final period, commits to nothing
        ("sentiment", "the statement expresses positive feelings or opinions.", "unparsed", None),
        ("sentiment", "The statement expresses positive feelings or opinions", "unparsed", None),
        ("sentiment", "THE STATEMENT EXPRESSES NEGATIVE FEELINGS OR OPINIONS.", "unparsed", None),
        # the label glued to the recited sentence is still the label
        (
            "sentiment",
            "NegativeThe statement expresses negative feelings or opinions.",
            "answered",
            "negative",
        ),
        (
            "toxicity",
            "ToxicThe statement contains language that might be considered disrespectful or "
            "offensive to some.",
            "answered",
            "toxic",
        ),
    ],
)
def test_recited_definitions_are_read_without_them(
    subtask: str, reply: str, outcome: str, value: str | None
) -> None:
    parsed = read_answer(reply, subtask)
    assert (parsed.outcome, parsed.value) == (outcome, value)
