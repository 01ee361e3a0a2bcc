"""Server-sent events: the one encoding of an event stream over HTTP, for the HTTP API's agent
events and the web chat's page events alike."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from services.agent import AgentEvent


def server_sent(name: str, data: Mapping[str, Any]) -> bytes:
    """One event: its name and its data as one line of JSON."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def server_sent_agent_event(event: AgentEvent) -> bytes:
    """An agent event as the HTTP API streams it: the event's own name and fields."""
    return server_sent(event.event, event.model_dump(mode="json", exclude={"event"}))
