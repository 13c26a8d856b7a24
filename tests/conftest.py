"""Settings shared by every test."""

import os

# A bug must fail the test that meets it, not hide behind the command line's last line
# of defence (tajmahal.cli.main turns unexpected exceptions into one line otherwise).
os.environ.setdefault("TAJMAHAL_DEBUG", "1")
