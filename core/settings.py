"""Runtime settings read from the environment and `.env` (names are a public contract)."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from core.errors import SettingsError


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str | None = None
    data_dir: Path = Path("~/.local/share/sommelier")
    db_pool_size: int = Field(default=10, ge=1, le=200)
    db_timeout_seconds: float = Field(default=10.0, gt=0)

    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str = "gpt-4o-mini"
    llm_timeout_seconds: float = Field(default=30.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)

    embedding_base_url: str | None = None
    embedding_api_key: str | None = None
    embedding_model: str = "text-embedding-3-small"
    embedding_dim: int = Field(default=1536, ge=1, le=16000)

    # Photos and voice (issue 17): "none" as the vision model turns photos off.
    vision_model: str = ""
    vision_base_url: str | None = None
    transcription_model: str = "whisper-1"
    transcription_base_url: str | None = None
    max_voice_seconds: int = Field(default=60, ge=1, le=3600)

    tool_timeout_seconds: float = Field(default=10.0, gt=0)
    history_token_budget: int = Field(default=3000, ge=200)

    telegram_bot_token: str | None = None
    telegram_api_url: str | None = None
    telegram_timeout_seconds: float = Field(default=30.0, gt=0)
    # Telegram's limits, kept by every replica together (docs/telegram-limits.md): the bot's
    # messages a second (Telegram allows about 30), a chat's burst before its pace (one a
    # second in private, twenty a minute in a group) holds it back; 0 turns pacing off.
    telegram_messages_per_second: float = Field(default=27.0, ge=0, le=1000)
    telegram_chat_burst: int = Field(default=5, ge=1, le=100)
    health_file: Path = Path("/tmp/sommelier-bot.health")
    admin_ids: str = ""
    webhook_url: str | None = None
    webhook_secret: str | None = None
    http_host: str = "0.0.0.0"
    http_port: int = Field(default=8080, ge=1, le=65535)
    api_token: str | None = None
    web_secret: str | None = None
    # The shop's sites that may embed the web chat's widget (comma-separated origins).
    web_origins: str = ""
    web_rate_limit_per_address: int = Field(default=60, ge=1, le=100_000)
    # The shop's console (issue 27): where the bot is reachable from outside (links it hands
    # out: the console's one-time link, «Купить» through the tracked redirect).
    public_url: str | None = Field(default=None, pattern=r"^https?://")
    # ₽ per 1,000 LLM tokens; 0: not known, the console shows tokens and no cost.
    llm_price_per_1k_tokens: Decimal = Field(default=Decimal(0), ge=0, le=1_000_000)
    weekly_digest: bool = True

    # Answers in flight per process; most of each is waiting for the LLM, so this caps the
    # throughput at about this many divided by the seconds an answer takes (BENCHMARKS.md).
    max_concurrent_updates: int = Field(default=200, ge=1, le=10_000)
    rate_limit_per_minute: int = Field(default=10, ge=1, le=10_000)
    max_message_chars: int = Field(default=1000, ge=10, le=4096)
    conversation_inactivity_hours: float = Field(default=24.0, gt=0)
    shutdown_grace_seconds: float = Field(default=30.0, ge=0)
    update_lease_seconds: float = Field(default=30.0, ge=2, le=600)
    update_max_attempts: int = Field(default=3, ge=1, le=20)
    # A process whose heartbeat (written every third of this) is older is dead: its updates
    # are taken over at once, without waiting for their leases.
    process_timeout_seconds: float = Field(default=5.0, ge=1, le=600)
    log_format: Literal["text", "json"] = "text"
    # "auto": uvloop where it is installed (it is a dependency on Linux and macOS).
    event_loop: Literal["auto", "uvloop", "asyncio"] = "auto"
    backup_dir: Path | None = None
    backup_every_hours: float = Field(default=0.0, ge=0)
    backup_keep: int = Field(default=7, ge=1, le=1000)
    message_retention_days: float = Field(default=180.0, ge=0)

    catalog_feed_url: str | None = Field(default=None, pattern=r"^https?://")
    catalog_sync_hours: float = Field(default=24.0, gt=0, le=24 * 365)

    # The shop's orders (issue 42): an export re-read on a schedule, and `POST /v1/orders`.
    orders_url: str | None = Field(default=None, pattern=r"^https?://")
    orders_sync_minutes: float = Field(default=60.0, gt=0, le=60 * 24 * 365)
    orders_webhook_secret: str | None = None
    # An order's time without a zone is the shop's local time.
    orders_timezone: str = "Europe/Moscow"
    attribution_days: float = Field(default=7.0, gt=0, le=365)
    # What «Купить» adds to the shop's URL: fixed pairs, and the name of the click's token
    # (empty: no token, so orders cannot be led back to a click).
    referral_params: str = "utm_source=sommelier"
    referral_token_param: str = Field(default="sm", pattern=r"^[A-Za-z0-9_.-]{0,40}$")

    # Alerts (issue 43): how long a «Сообщить, когда появится» or a price watch lasts, how
    # often each replica looks for alerts a catalog change made due, and the price drop of a
    # favourite that is worth a message.
    alert_days: float = Field(default=90.0, gt=0, le=3650)
    alert_check_seconds: float = Field(default=60.0, gt=0, le=86400)
    alert_price_drop_percent: float = Field(default=10.0, gt=0, lt=100)

    @field_validator("data_dir", "backup_dir")
    @classmethod
    def _expand_data_dir(cls, value: Path | None) -> Path | None:
        return value.expanduser() if value is not None else None

    @field_validator("database_url")
    @classmethod
    def _check_database_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        try:
            url = make_url(value.strip())
        except ArgumentError as exc:
            raise ValueError(
                "not a database URL (expected postgresql://user:pass@host/db)"
            ) from exc
        if not url.drivername.startswith("postgres"):
            raise ValueError(f"only PostgreSQL is supported, got '{url.drivername}'")
        return value.strip()

    @field_validator("webhook_secret")
    @classmethod
    def _check_webhook_secret(cls, value: str | None) -> str | None:
        # Telegram allows 1-256 characters of A-Z, a-z, 0-9, _ and -.
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", value):
            raise ValueError("use 1-256 characters of A-Z, a-z, 0-9, _ and -")
        return value

    @field_validator("admin_ids")
    @classmethod
    def _check_admin_ids(cls, value: str) -> str:
        for part in value.split(","):
            if part.strip() and not part.strip().lstrip("-").isdigit():
                raise ValueError(f"'{part.strip()}' is not a Telegram id")
        return value

    @field_validator("web_origins")
    @classmethod
    def _check_web_origins(cls, value: str) -> str:
        for part in value.split(","):
            origin = part.strip()
            if origin and not re.fullmatch(r"https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?", origin):
                raise ValueError(f"'{origin}' is not an origin (scheme://host[:port], no path)")
        return value

    @field_validator("orders_timezone")
    @classmethod
    def _check_orders_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"'{value}' is not a time zone (e.g. Europe/Moscow)") from None
        return value

    @field_validator("referral_params")
    @classmethod
    def _check_referral_params(cls, value: str) -> str:
        for pair in value.split("&"):
            name, sep, _ = pair.partition("=")
            if pair and (not sep or not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", name)):
                raise ValueError(f"'{pair}' is not name=value (pairs joined by &)")
        return value

    @model_validator(mode="after")
    def _embedding_defaults(self) -> Settings:
        if self.embedding_base_url is None:
            self.embedding_base_url = self.llm_base_url
        if self.embedding_api_key is None:
            self.embedding_api_key = self.llm_api_key
        return self

    @model_validator(mode="after")
    def _media_defaults(self) -> Settings:
        if not self.vision_model or not self.vision_model.strip():
            self.vision_model = self.llm_model
        if self.vision_base_url is None:
            self.vision_base_url = self.llm_base_url
        if self.transcription_base_url is None:
            self.transcription_base_url = self.llm_base_url
        return self

    @property
    def admin_id_set(self) -> frozenset[int]:
        return frozenset(int(p) for p in self.admin_ids.split(",") if p.strip())

    @property
    def web_origin_list(self) -> tuple[str, ...]:
        """WEB_ORIGINS as origins compared exactly (lower case, no trailing slash)."""
        return tuple(p.strip().lower() for p in self.web_origins.split(",") if p.strip())

    @property
    def public_base_url(self) -> str | None:
        """PUBLIC_URL, else the scheme and host of WEBHOOK_URL (the same server); None in
        polling mode without PUBLIC_URL."""
        if self.public_url:
            return self.public_url.rstrip("/")
        if self.webhook_url:
            scheme, _, rest = self.webhook_url.partition("://")
            return f"{scheme}://{rest.split('/', 1)[0]}"
        return None

    @property
    def backups_path(self) -> Path:
        """Where backups go: BACKUP_DIR, else DATA_DIR/backups."""
        return self.backup_dir or self.data_dir / "backups"

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_api_key)

    @property
    def vision_enabled(self) -> bool:
        """Photos are read when an LLM is configured and VISION_MODEL is not `none`."""
        return self.llm_configured and (self.vision_model or "").strip().lower() != "none"

    @property
    def embeddings_configured(self) -> bool:
        return bool(self.embedding_api_key)


def load_settings(**overrides: object) -> Settings:
    """Build settings, turning a validation failure into one line naming the variable."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        name = str(first["loc"][0]).upper() if first["loc"] else "settings"
        raise SettingsError(f"Invalid value for {name}: {first['msg']}") from None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()
