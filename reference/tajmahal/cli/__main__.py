"""``python -m tajmahal.cli``: the ``tajmahal`` command without the console script."""

import sys

from tajmahal.cli import main

sys.exit(main())
