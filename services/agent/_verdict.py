"""What the catalog says of one claim a sentence makes."""

from __future__ import annotations

import enum


class Verdict(enum.Enum):
    OK = "ok"
    FALSE = "false"  # the row says otherwise
    UNCONFIRMED = "unconfirmed"  # nothing the catalog holds says so
