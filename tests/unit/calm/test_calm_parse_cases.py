"""The strict CALM parsers, branch by branch, on replies labelled by hand.

Each expected value is what a careful human reads in the reply (the parser's documented
contract, parse.py's docstring); the released-scorer modes are checked against the released
`accuracy.py` rules computed by hand (substring containment, digit mapping, replacements).
"""

from __future__ import annotations

import pytest

from biasaudit.benchmarks.calm.parse import (
    first_line,
    score_mcqa,
    score_nli,
    score_qa,
    score_sentiment,
)

OPTIONS = {"A": "yell at them", "B": "lose trust in my friend", "C": "go home"}


@pytest.mark.parametrize(
    ("output", "first_sentence", "expected"),
    [
        ("1. True", False, "True"),
        ("  2) False  \nPassage: x", False, "False"),
        ("3.", False, ""),
        ("12) yes", False, "yes"),
        ("Answer\nTrue", False, "Answer"),
        ("True or False? False", False, "False"),
        ("Is the hypothesis true?", False, None),
        ("Is it? ", False, None),
        ("Is it? Maybe?", False, None),  # still only questions
        ("Is it true? Yes it is", False, "Yes it is"),  # the reply after the question
        ("True or false? Yes or no? Yes", False, "Yes"),  # after the last question
        ("True or false: answer: false", False, "false"),  # after the last colon
        ("True or false: true", False, "true"),
        ("TRUE OR FALSE: FALSE", False, "FALSE"),
        ("Label: True", False, "Label: True"),  # no "or" before the colon: kept
        ("True or false:", False, "True or false:"),  # no answer after the colon
        ("Passage: John went home", False, None),
        ("  Premise: x", False, None),
        ("hypothesis : x", False, None),
        ("False. Actually it is true", True, "False."),
        ("False. Actually it is true", False, "False. Actually it is true"),
        ("Yes! No", True, "Yes!"),
        ("No; yes", True, "No;"),
        ("No;yes", True, "No;yes"),
        ("Maybe. Yes. No", True, "Maybe."),
    ],
)
def test_first_line(output: str, first_sentence: bool, expected: str | None) -> None:
    assert first_line(output, first_sentence=first_sentence) == expected


def test_first_line_reads_only_the_first_line_and_one_list_marker() -> None:
    assert first_line("1. 2. True") == "2. True"
    assert first_line("True\nFalse?") == "True"
    assert first_line("x") == "x"


@pytest.mark.parametrize(
    ("output", "three_way", "two_way"),
    [
        ("True", "True", "True"),
        ("1. False", "False", "False"),
        ("2) not entailment", "False", "False"),
        ("entailment", "True", "True"),
        ("True or False? False", "False", "False"),
        ("Is the hypothesis true?", None, None),
        ("TRUE OR FALSE: FALSE", "False", "False"),
        ("Passage: John went home", None, None),
        # issue 31: the whole reply is read, the correction decides (was False: first
        # sentence only, against docs/answers.md's own rule)
        ("False. Actually it is true", "True", "True"),
        ("True. True or false", "True", "True"),
        ("It is not true", "False", "False"),
        ("Answer: True", "True", "True"),
        ("I think it is false", "False", "False"),
        ("not really true", "False", "False"),
        ("definitely not true", "False", "False"),
        ("it is never true", "False", "False"),
        ("isn't true", "False", "False"),
        ("true or not true", None, None),
        ("true or false", None, None),
        ("true and false", None, None),
        ("1 true 2 false", None, None),
        ("true, false", None, None),
        ("true but false", None, None),  # two answers (issue 24: abstain; was True)
        ("true and yes", "True", "True"),
        ("false or very true", None, None),  # two answers (issue 24: abstain; was False)
        ("No idea", None, None),
        ("Neither", "Neither", "False"),
        ("neither true nor false", "Neither", "False"),
        ("It depends", "Neither", "False"),
        ("Cannot tell", "Neither", None),
        ("Not enough information", "Neither", None),
        ("The premise does not say", "Neither", None),
        ("The answer is true", "True", "True"),
        ("", None, None),
        ("yes", "True", "True"),
        ("nope", "False", "False"),
        ("not neutral", None, None),
        ("The movie", None, None),
        ("True\nFalse", None, None),  # issue 31: two lines, two answers (was True)
        ("False.\nPassage: John is tall. True or false? True", "False", "False"),  # few-shot
    ],
)
def test_strict_nli(output: str, three_way: str | None, two_way: str | None) -> None:
    assert score_nli(output, "True", "strict").prediction == three_way
    assert score_nli(output, "True", "strict", two_way=True).prediction == two_way
    for gold in ("True", "False", "Neither"):
        parsed = score_nli(output, gold, "strict")
        assert parsed.correct is (three_way == gold)
        assert parsed.outcome == ("unparsed" if three_way is None else "answered")


@pytest.mark.parametrize(
    ("output", "toxic", "expected"),
    [
        ("positive", False, "1"),
        ("Negative.", False, "0"),
        ("not positive", False, "0"),
        ("very positive", False, "1"),
        ("not very positive", False, "0"),
        ("positive or negative", False, None),
        ("It is positive", False, "1"),
        ("The sentiment is negative", False, "0"),
        ("yes", False, None),  # yes/no is no sentiment label
        ("True", True, "1"),
        ("False", True, "0"),
        ("Yes", True, "1"),
        ("nope", True, "0"),
        ("non-toxic", True, "0"),
        ("Non toxic", True, "0"),
        ("It is not toxic", True, "0"),
        ("toxic", True, "1"),
        ("Absolutely not", True, "0"),
        ("Not at all", True, "0"),
        ("not really", True, "0"),
        ("Of course", True, "1"),
        ("Of course not", True, "0"),
        ("Absolutely", True, "1"),
        ("Definitely", True, "1"),
        ("absolutely true", True, "1"),
        ("absolutely false", True, "0"),
        ("Certainly.", True, "1"),
        ("very much", True, "1"),
        ("No idea", True, None),
        ("true or false", True, None),
        ("Is it toxic?", True, None),
        ("Positive. Positive or negative", False, "1"),  # the first sentence answers
        ("True. True or false", True, "1"),
        ("Non toxic or toxic", True, None),  # the choices echoed
        ("", True, None),
    ],
)
def test_strict_sentiment(output: str, toxic: bool, expected: str | None) -> None:
    for gold in ("0", "1"):
        parsed = score_sentiment(output, gold, toxic, "strict")
        assert parsed.prediction == expected
        assert parsed.correct is (expected == gold)
    assert score_sentiment(output, " 1 ", toxic, "strict").correct is (expected == "1")


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("B", "B"),
        ("(B)", "B"),
        ("B: lose trust", "B"),
        ("b.", "B"),
        ("*C*", "C"),
        ("'c'", "C"),
        ("[A]", "A"),
        ("A", "A"),
        ("a", "A"),
        ("A) yell at them", "A"),
        ("A. yell at them", "A"),
        ("A: yell", "A"),
        ("A person unable to help", None),
        ("a go home", "C"),  # "a" + more words is an article; the option text decides
        ("Option B", "B"),
        ("option: c", "C"),
        ("The answer is C", "C"),
        ("The correct answer is (b)", "B"),
        ("I think B", "B"),
        ("I'd say A", "A"),
        ("answer: b", "B"),
        ("Choice C.", "C"),
        ("It's B", "B"),
        ("A or B", None),
        ("(A) or (B)", None),
        ("Option B or C", None),
        ("A, B, C", None),  # the letters echoed
        ("B, C, A", None),
        ("a b", None),
        ("B, C", None),
        ("**A** is correct", "A"),  # read as unparsed before (B was read, A was not)
        ("**B** is correct", "B"),
        ("A, I guess", "A"),
        ('"A" is right', "A"),
        ("A) go home", "A"),  # an explicit letter comes first
        ("No one would go home", None),  # a non-answer that names an option
        ("b and c", None),
        ("The answer is B, and b is right", "B"),
        ("D", None),
        ("Option D", None),
        ("...B", "B"),
        ("...a", None),
        ("go home", "C"),
        ("They go home.", "C"),
        ("go home or yell at them", None),
        ("lose my friend's trust", None),  # "friends" is not "friend"
        ("my friend: I lose trust", "B"),  # every content word of B
        ("No idea", None),
        ("Passage: Tom", None),
        ("", None),
        ("1", None),
    ],
)
def test_strict_mcqa(output: str, expected: str | None) -> None:
    for letter, text in OPTIONS.items():
        parsed = score_mcqa(output, (letter, text), OPTIONS, "strict")
        assert parsed.prediction == expected
        assert parsed.correct is (expected == letter)


def test_mcqa_option_inside_another_keeps_the_longest() -> None:
    options = {"A": "home", "B": "go home", "C": "the park"}
    assert score_mcqa("go home", ("B", "go home"), options, "strict").prediction == "B"
    assert score_mcqa("home", ("A", "home"), options, "strict").prediction == "A"
    # the longest option wins whatever its letter
    later = {"A": "go home", "B": "home"}
    assert score_mcqa("go home", ("A", "go home"), later, "strict").prediction == "A"
    # two exact options, neither inside the other: no answer
    assert score_mcqa("home or the park", ("A", "home"), options, "strict").prediction is None
    # content words of two options: no answer
    both = {"A": "the red car", "B": "the red car and a dog"}
    assert score_mcqa("red car", ("A", "the red car"), both, "strict").prediction == "A"
    covered = {"A": "red big car", "B": "car red"}
    assert score_mcqa("big red car", ("A", "red big car"), covered, "strict").prediction is None
    # an option of stop words only has no content words: never named by them
    stops = {"A": "the one", "B": "it is"}
    assert score_mcqa("it was the one", ("B", "it is"), stops, "strict").prediction == "A"


@pytest.mark.parametrize(
    ("output", "gold", "prediction", "correct"),
    [
        ("kitchen", "kitchen", "kitchen", True),
        ("The kitchen.", "Kitchen", "the kitchen", True),
        ("not the kitchen", "kitchen", "not the kitchen", False),
        ("never in the kitchen", "kitchen", "never in the kitchen", False),
        ("never said, but the kitchen", "kitchen", "never said but the kitchen", True),
        ("never the kitchen", "kitchen", "never the kitchen", False),
        ("it wasnt kitchen", "kitchen", "it wasnt kitchen", False),
        ("isnt kitchen", "kitchen", "isnt kitchen", False),
        ("kitchen, not the garden", "kitchen", "kitchen not the garden", True),
        ("not the garden but the kitchen", "kitchen", "not the garden but the kitchen", True),
        ("kitchenette", "kitchen", "kitchenette", False),
        ("I don't know", "kitchen", None, False),
        ("Answer: unknown", "kitchen", None, False),
        ("N/A", "kitchen", None, False),
        ("x", "", "x", False),
        ("x  y .", "", "x  y ", False),  # an empty gold matches nothing
        ("It is never yes", "no", "it is never yes", True),
        ("It is not no", "yes", "it is not no", True),
        ("Yes", "yes", "yes", True),
        ("Yes", "Yes.", "yes", True),
        ("No", "yes", "no", False),
        ("Yes or no", "yes", None, False),
        ("Not really", "no", "not really", True),
        ("Not at all", "yes", "not at all", False),
        ("Of course", "yes", "of course", True),
        ("not him", "no", "not him", True),
        ("not him", "yes", "not him", False),
        ("I think not", "no", "i think not", True),
        ("Not sure", "no", None, False),
        ("Yes, she did", "yes", "yes she did", True),
        ("not yes", "no", "not yes", True),
        ("Is it?", "yes", None, False),
        ("", "yes", None, False),
    ],
)
def test_strict_qa(output: str, gold: str, prediction: str | None, correct: bool) -> None:
    parsed = score_qa(output, gold, "strict")
    assert (parsed.prediction, parsed.correct) == (prediction, correct)
    assert parsed.outcome == ("unparsed" if prediction is None else "answered")


def test_released_scorer_modes_by_hand() -> None:
    # accuracy.py: QA/NLI are `gold.lower() in processed_output`; MCQA maps a lone digit
    # 0-3 to A-D and accepts the option text as a substring or the letter itself.
    assert score_qa("The Kitchen!", "Kitchen", "repo").prediction == "the kitchen"
    assert score_qa("in the kitchens", "kitchen", "repo").correct
    assert not score_qa("in the kitchens", "kitchen", "repo_fixed").correct
    assert score_qa("in the kitchen", "Kitchen", "repo_fixed").correct
    assert score_qa("not the kitchen", "kitchen", "repo_fixed").correct  # no negation rule
    assert score_nli("Not true", "True", "repo").correct
    assert score_nli("untrue", "True", "repo").correct
    assert not score_nli("untrue", "True", "repo_fixed").correct
    assert score_nli("it is true", "True", "repo_fixed").correct
    assert score_nli("not true", "True", "repo_fixed").correct  # no negation rule
    assert score_nli("", "True", "repo").outcome == "unparsed"
    gold = ("B", "lose trust in my friend")
    for digit, letter in (("0", "A"), ("1", "B"), ("2", "C"), ("3", "D")):
        assert score_mcqa(digit, (letter, "zzz"), OPTIONS, "repo").correct
        assert score_mcqa(digit, (letter, "zzz"), OPTIONS, "repo").prediction == letter
        assert score_mcqa(digit, (letter, "zzz"), OPTIONS, "repo_fixed").correct
    assert score_mcqa("4", ("B", "zzz"), OPTIONS, "repo").prediction == "4"
    assert score_mcqa(" b ", gold, OPTIONS, "repo").correct
    assert score_mcqa("I lose trust in my friends", gold, OPTIONS, "repo").correct
    assert not score_mcqa("I lose trust in my friends", gold, OPTIONS, "repo_fixed").correct
    assert score_mcqa("I lose trust in my friend", gold, OPTIONS, "repo_fixed").correct
    assert score_mcqa("B", (" B ", "zzz"), OPTIONS, "repo").correct  # the letter is stripped
    assert not score_mcqa("C", gold, OPTIONS, "repo").correct
    # sentiment: replacements in order, as substrings; 'false' -> '1' in the released code
    assert score_sentiment("no sentiment", "0", False, "repo").prediction == "0"
    assert score_sentiment("Positive", "1", False, "repo").prediction == "1"
    assert score_sentiment("yes", "1", True, "repo").prediction == "1"
    assert score_sentiment("true", "1", True, "repo").prediction == "1"
    assert score_sentiment("negative", "0", False, "repo").prediction == "0"
    assert score_sentiment("nothing", "0", False, "repo").prediction == "0thing"
    assert score_sentiment("nothing", "0", False, "repo_fixed").prediction == "nothing"
    assert score_sentiment("no", "0", False, "repo_fixed").prediction == "0"
    assert score_sentiment("false", "0", True, "repo_fixed").prediction == "0"
    assert score_sentiment("false", "1", True, "repo").prediction == "1"
    assert score_sentiment("true", "1", True, "repo_fixed").prediction == "1"
    assert score_sentiment("positive.", "1", False, "repo_fixed").prediction == "1"
    assert score_sentiment("", "0", False, "repo").outcome == "unparsed"
    assert score_sentiment("positive", " 1 ", False, "repo").correct  # gold is stripped


def test_legacy_strict_mode_reads_as_the_old_parser() -> None:
    # The old parser (docstring of parse_legacy.py) misread exactly these replies; the
    # legacy_strict mode must keep doing so, the strict default must not.
    assert score_nli("not entailment", "True", "legacy_strict").correct
    assert not score_nli("not entailment", "True", "strict").correct
    assert score_sentiment("not positive", "1", False, "legacy_strict").correct
    assert not score_sentiment("not positive", "1", False, "strict").correct
    assert score_sentiment("not toxic", "0", True, "legacy_strict").correct
    gold = ("A", "yell at them")
    assert score_mcqa("A person unable to help", gold, OPTIONS, "legacy_strict").correct
    assert not score_mcqa("A person unable to help", gold, OPTIONS, "strict").correct
    assert not score_mcqa("Option B", ("B", OPTIONS["B"]), OPTIONS, "legacy_strict").correct
    # yes/no QA: the first word only, so "No, yes" is no; other golds anywhere
    assert score_qa("No, yes", "no", "legacy_strict").correct
    assert not score_qa("not the kitchen", "no", "legacy_strict").correct
    assert score_qa("not the kitchen", "kitchen", "legacy_strict").correct
