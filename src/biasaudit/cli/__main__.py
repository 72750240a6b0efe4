"""`python -m biasaudit.cli`: the `biasaudit` command."""

import sys

from biasaudit.cli.app import main

sys.exit(main())
