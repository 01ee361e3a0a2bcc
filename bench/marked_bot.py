"""`sommelier bot` whose Bot API calls each carry the update they answer (bench/replies.py):
the bot process of the chaos benchmark, so that what the fake Bot API accepted is counted per
update.

    python -m bench.marked_bot
"""

from __future__ import annotations

import sys

from bench.replies import mark_calls_with_their_update
from sommelier.cli import main

if __name__ == "__main__":
    mark_calls_with_their_update()
    sys.exit(main(["bot"]))
