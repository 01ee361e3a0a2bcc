"""The one error hierarchy. Adapters catch `SommelierError` (or one of its kinds) and say why.

Every message is fit to show an operator: it names what failed and never carries a secret.
"""

from __future__ import annotations


class SommelierError(Exception):
    """Base of every error the product raises on purpose."""


class SettingsError(SommelierError):
    """A setting has a bad value; the message names the variable."""


class DatabaseUnavailableError(SommelierError):
    """The database cannot be reached or started right now; the user should try again later."""


class LeaseLostError(SommelierError):
    """Another process took over the update this one was answering (it had stopped beating
    or renewing: frozen, not dead): this one stops, and sends nothing more of it."""


class RecipientBlockedError(SommelierError):
    """The person blocked the bot: an alert to them is never sent."""


class ChatBusyError(SommelierError):
    """An alert's chat is at its pace (one a second, twenty a minute in a group): send it in
    `seconds`, after the others."""

    def __init__(self, chat_id: int, seconds: float) -> None:
        super().__init__(f"chat {chat_id} is at its pace for {seconds:.1f}s")
        self.chat_id = chat_id
        self.seconds = seconds


class DatabaseSchemaError(SommelierError):
    """The database holds tables this version did not make; the message names one."""


class CatalogFilterError(SommelierError, ValueError):
    """A catalog filter is invalid; the message says which and why."""


class CatalogFileError(SommelierError):
    """A catalog file cannot be loaded; `problems` lists every bad record."""

    def __init__(self, summary: str, problems: list[object] | None = None) -> None:
        self.summary = summary
        self.problems = problems or []
        lines = [summary, *(f"  {p}" for p in self.problems[:50])]
        if len(self.problems) > 50:
            lines.append(f"  … and {len(self.problems) - 50} more")
        super().__init__("\n".join(lines))


class OrderFileError(CatalogFileError):
    """The shop's orders cannot be read (a file, a URL, a mapping); nothing was written."""


class LLMUnavailableError(SommelierError):
    """No answer can be had from the LLM (no key, network, timeout, 429/5xx after retries)."""


class LLMRequestError(SommelierError):
    """The LLM rejected the request (400/404/422): e.g. the model cannot use tools."""


class EmbeddingUnavailableError(SommelierError):
    """No embedding could be computed (no key, API error); callers fall back to full text."""


class EmbeddingDimensionError(SommelierError):
    """The API returns vectors of another size than the database column holds."""


class ToolArgumentsError(SommelierError, ValueError):
    """A tool's arguments cannot be read at all (not JSON, not an object)."""


class BackupError(SommelierError):
    """A backup or restore could not be made; the message says why."""


class MediaUnreadableError(SommelierError):
    """A photo or voice message could not be turned into text: `reason` is `off` (no model
    for it is configured), `unsupported` (the model rejected the input: no vision, unknown
    transcription model) or `failed` (any other failure, an answer that cannot be read)."""

    def __init__(self, reason: str, detail: str) -> None:
        self.reason = reason
        super().__init__(detail)


class PickRuleError(SommelierError, ValueError):
    """A boost or bury rule (the console's form, a rules file) is invalid; the message says
    which part and why."""
