"""``python -m ragguard.cli``."""

import sys

from ragguard.cli import main

if __name__ == "__main__":
    sys.exit(main())
