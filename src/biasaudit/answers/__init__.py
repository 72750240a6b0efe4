"""One answer reader for every benchmark: yes/no, option letter / text, and label sets.

A benchmark declares the kind of answer it asks for and its vocabulary; the reader returns a
typed :class:`Reading`: the answer, or an abstention (``unparsed``, ``unknown`` where the
protocol has that outcome, ``refused``) with a :class:`Reason`. The rules are in each
module's docstring and in docs/answers.md.

- :func:`read_yes_no` (:mod:`.yesno`): STOP, BBNLI.
- :func:`read_choice` with :class:`Choices` (:mod:`.choice`): BBQ, the generic multiple-choice
  reader of stop_downstream / StereoSet / CrowS-Pairs.
- :func:`read_label` with :class:`LabelSet` (:mod:`.labels`): NLI, sentiment, bias labels.
"""

from biasaudit.answers.choice import UNKNOWN_WORDINGS, Choices, read_choice
from biasaudit.answers.labels import LabelSet, read_label
from biasaudit.answers.reading import Outcome, Reading, Reason
from biasaudit.answers.yesno import read_yes_no

__all__ = [
    "UNKNOWN_WORDINGS",
    "Choices",
    "LabelSet",
    "Outcome",
    "Reading",
    "Reason",
    "read_choice",
    "read_label",
    "read_yes_no",
]
