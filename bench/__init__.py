"""Benchmarks: catalog scale, search, agent overhead, prompt economy and concurrent chats.

Run with `sommelier bench [--quick]`; results are appended to BENCHMARKS.md. The harness uses
the project's fake OpenAI and Telegram servers (tests/fakes), so the project root must be
importable even when the package is installed in editable mode.
"""

from __future__ import annotations

import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent

if (PROJECT_ROOT / "tests" / "fakes").is_dir() and str(PROJECT_ROOT) not in sys.path:
    sys.path.insert(0, str(PROJECT_ROOT))
