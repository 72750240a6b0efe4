"""`biasaudit finetune`: the core fine-tuning analysis on the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from biasaudit.cli.args import add_model_arguments, model_from_namespace


def register(sub: argparse._SubParsersAction, data_parent: argparse.ArgumentParser) -> None:
    from biasaudit.cli.analyses import common_options
    from biasaudit.finetune.analysis import FINETUNE

    parser = sub.add_parser(
        "finetune",
        parents=[common_options()],
        help=FINETUNE.description,
        description=FINETUNE.description,
    )
    add_model_arguments(parser, FINETUNE.Args)
    parser.set_defaults(func=cmd_finetune)


def cmd_finetune(args: argparse.Namespace) -> int:
    from biasaudit.analysis import Context
    from biasaudit.discovery import open_store
    from biasaudit.finetune.analysis import FINETUNE

    parsed = model_from_namespace(FINETUNE.Args, args, "finetune")
    ctx = Context(
        store=open_store(args.data_dir),
        seed=args.seed,
        output_dir=Path(args.output) if args.output else None,
        progress=not args.quiet,
    )
    result = FINETUNE.run(parsed, ctx)
    print(result.to_json() if args.json else result.render(), file=sys.stdout)
    return 0
