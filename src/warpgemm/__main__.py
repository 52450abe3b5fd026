"""``python -m warpgemm``: the ``warpgemm`` command."""

import sys

from .cli import main

sys.exit(main())
