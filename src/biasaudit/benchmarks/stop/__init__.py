"""STOP: Sensitivity Testing on Offensive Progressions (Morabito et al., EMNLP 2024).

See docs/benchmarks/stop.md. The benchmark class is `benchmark.STOP`; the math is in
`metrics`, released-number checks in `reproduce`, human-study scoring in `human` and the
alignment fine-tuning export in `finetune`.
"""
