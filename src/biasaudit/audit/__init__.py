"""`biasaudit audit`: every benchmark a model can serve, in one suite, one folder per model.

`plans` turns a suite into per-benchmark options and stratified sample plans; `run` drives
the audit through `api.evaluate_one` (one multi-benchmark run per model) and writes
``audit.json`` (`folder`); `folder` also reads and merges audit folders. See docs/audit.md.
"""
