"""COBIAS: how reliable each statement of a bias dataset is as a probe (Govil et al., 2025).

Scoring (`benchmark.COBIAS`), context-addition points and context generation
(`generation`), generation-quality diagnostics (`diagnostics`), multi-model averaging
(`ensemble`), human validation (`validation`) and the reproduction of the released numbers
(`reproduce`). The formulas are pure functions in `metrics`.
"""
