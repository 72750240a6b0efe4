"""The command line, all of it: `main` (the core verbs), one module per family of commands,
and `args` (the one parser of run and model options every command shares)."""

from biasaudit.cli.app import main

__all__ = ["main"]
