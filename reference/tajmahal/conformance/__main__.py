"""``python -m tajmahal.conformance [PATH...]``: run the position cases against the reference."""

from tajmahal.conformance import main

raise SystemExit(main())
