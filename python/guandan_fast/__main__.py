"""``python -m guandan_fast``: the command line."""

import sys

from guandan_fast.cli import main

sys.exit(main())
