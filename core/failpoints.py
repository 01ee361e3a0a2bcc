"""Named points where a process can be made to die on purpose (SIGKILL), for the crash tests
and the chaos benchmark: `SOMMELIER_FAILPOINTS=after_intro,before_finish`. Unset (always, in
production) nothing happens and the check costs one set lookup."""

from __future__ import annotations

import os
import signal

POINTS = frozenset(
    {"stored", "after_intro", "card_sent_unrecorded", "after_cards", "before_finish"}
)
ARMED = frozenset(
    name.strip()
    for name in os.environ.get("SOMMELIER_FAILPOINTS", "").split(",")
    if name.strip() in POINTS
)


def failpoint(name: str) -> None:
    if name in ARMED:
        os.kill(os.getpid(), signal.SIGKILL)
