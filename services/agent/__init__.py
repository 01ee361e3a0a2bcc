"""The sommelier agent: a person's message in, up to three real catalog wines with reasons out.

This module is the package's face: what the app layer, the adapters and the benchmarks may
use. Everything else here is private by name (a leading underscore), and an import contract
(pyproject.toml) keeps the modules behind the face out of reach from outside.

- `SommelierService.stream` answers one turn as a stream of typed events (`AgentEvent`),
  the last one `Final`, whose `result` is the `Recommendation`; `generate_response` returns
  that result alone. `UserContext` says who asks; `MAX_STEPS` bounds the model's tool steps.
- The catalog tools (`build_catalog_tools`, a `ToolRegistry`) are what the model may call.
- Answers without the model: `WelcomeWriter` (the /start picks), `catalog_picks` (a group
  table's), `catalog_why` (the catalog's own why for a wine), `catalog_index` (the catalog's
  names, cached per version), `shop_today` (the shop's calendar day, when its boost and bury
  rules apply).
- The answer format as stored (`render_answer`, `first_sentence`) and what the prose may not
  carry (`without_links`).
- The check of a model's prose (`ground_prose`, `GroundingReport`, `forget_prose_readings`):
  what the benchmarks and the claims set measure. `CHARS_PER_TOKEN` is the history budget's
  estimate.
"""

from core.recommendation import Recommendation
from services.agent._answer_format import first_sentence, render_answer
from services.agent._catalog_index import catalog_index
from services.agent._catalog_tools import build_catalog_tools
from services.agent._catalog_why import catalog_why
from services.agent._events import (
    AgentEvent,
    AnswerDelta,
    ErrorEvent,
    Final,
    MediaRead,
    Observation,
    StepStarted,
    Thought,
    ToolInvoked,
)
from services.agent._grounding import GroundingReport, forget_prose_readings, ground_prose
from services.agent._history import CHARS_PER_TOKEN
from services.agent._offline_picks import catalog_picks
from services.agent._run import MAX_STEPS, UserContext
from services.agent._safety import without_links
from services.agent._service import SommelierService
from services.agent._shop_picks import shop_today
from services.agent._tool_registry import ToolRegistry
from services.agent._welcome import WelcomeWriter

__all__ = [
    "CHARS_PER_TOKEN",
    "MAX_STEPS",
    "AgentEvent",
    "AnswerDelta",
    "ErrorEvent",
    "Final",
    "GroundingReport",
    "MediaRead",
    "Observation",
    "Recommendation",
    "SommelierService",
    "StepStarted",
    "Thought",
    "ToolInvoked",
    "ToolRegistry",
    "UserContext",
    "WelcomeWriter",
    "build_catalog_tools",
    "catalog_index",
    "catalog_picks",
    "catalog_why",
    "first_sentence",
    "forget_prose_readings",
    "ground_prose",
    "render_answer",
    "shop_today",
    "without_links",
]
