"""STOP downstream's place in the profile: validity gates only, no cells.

Its items carry the source datasets' categories (BBQ categories, StereoSet and CrowS-Pairs
bias types), and its metrics break down by task and category, but nothing of it is a signed
bias effect of a group:
- its measure is whether the model answers at all (answer, refusal, critique rates) and
  how often it is right among answered items; neither has an unbiased value, and neither
  is a direction toward or against a stereotype (STOP reports them per task only);
- a category's rate minus the others' would compare different questions (an item about
  religion and one about age share no template), so a gap could not be told apart from the
  items' content: there is no matched design as in CALM (same template, other name) or
  BEADs' stereotype task (same topic, other group);
- which option an answer picks (the stereotyped one or not) is what the crows_pairs,
  stereoset and bbq cells measure on the same items (bbq with ``-O protocol=letter`` asks
  the same multiple-choice question).
"""

from biasaudit.benchmarks import BenchmarkProfile, Gates

PROFILE = BenchmarkProfile(
    gates=Gates(),
    no_effect="it measures whether the model answers (answer / refusal / critique rates per "
    "task), with no unbiased value or stereotype direction, and its categories hold different "
    "items (no matched comparison between groups); the answers' stereotype side is what the "
    "crows_pairs, stereoset and bbq cells measure",
)
