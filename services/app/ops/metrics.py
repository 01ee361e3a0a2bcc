"""Prometheus metrics (`/metrics`), on a registry of their own (the client library's global
one would collect across test apps). Incremented where the events happen: the turn store for
answers, LLM use and tools, the rate limiter for refusals, the bot's request middleware for
Telegram API errors; the update backlog and the sales of the last days are read at scrape
time."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from core.recommendation import Recommendation

__all__ = ["CONTENT_TYPE", "REGISTRY", "SALES_DAYS", "observe_answer", "scrape"]

REGISTRY = CollectorRegistry(auto_describe=True)

ANSWERS = Counter("sommelier_answers", "Answers given, by path", ["path"], registry=REGISTRY)
ANSWER_SECONDS = Histogram(
    "sommelier_answer_seconds",
    "Time to make an answer",
    ["path"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30, 60),
    registry=REGISTRY,
)
LLM_CALLS = Counter("sommelier_llm_calls", "Chat-completion calls", registry=REGISTRY)
LLM_TOKENS = Counter("sommelier_llm_tokens", "LLM tokens used", ["kind"], registry=REGISTRY)
LLM_ERRORS = Counter(
    "sommelier_llm_errors", "Answers that fell back because the LLM failed", registry=REGISTRY
)
TOOL_CALLS = Counter("sommelier_tool_calls", "Agent tool calls", ["tool"], registry=REGISTRY)
RATE_LIMITED = Counter(
    "sommelier_rate_limit_refusals", "Requests refused by the rate limit", registry=REGISTRY
)
TELEGRAM_ERRORS = Counter(
    "sommelier_telegram_api_errors", "Failed Bot API requests", ["method"], registry=REGISTRY
)
BUY_CLICKS = Counter(
    "sommelier_buy_clicks", "«Купить» clicks through the redirect", registry=REGISTRY
)
BACKLOG = Gauge(
    "sommelier_update_backlog", "Telegram updates stored and not yet answered", registry=REGISTRY
)
SALES_DAYS = 30  # the sales gauges cover the console's default period
SALES_REVENUE = Gauge(
    "sommelier_sales_revenue_rub",
    f"Revenue (₽) of orders placed in the last {SALES_DAYS} UTC days, by the sommelier's part",
    ["attribution"],
    registry=REGISTRY,
)
SALES_ORDERS = Gauge(
    "sommelier_sales_orders",
    f"Orders placed in the last {SALES_DAYS} UTC days with a line the sommelier led or assisted",
    registry=REGISTRY,
)


def observe_answer(rec: Recommendation) -> None:
    ANSWERS.labels(rec.path).inc()
    ANSWER_SECONDS.labels(rec.path).observe(rec.timings_ms.get("total", 0.0) / 1000)
    if rec.llm_calls:
        LLM_CALLS.inc(rec.llm_calls)
    if rec.usage.prompt_tokens:
        LLM_TOKENS.labels("prompt").inc(rec.usage.prompt_tokens)
    if rec.usage.completion_tokens:
        LLM_TOKENS.labels("completion").inc(rec.usage.completion_tokens)
    if rec.fallback_reason:
        LLM_ERRORS.inc()
    for tool in rec.tools_called:
        TOOL_CALLS.labels(tool).inc()


def scrape(backlog: int | None, sales: Mapping[str, Any] | None = None) -> bytes:
    """The metrics as text; the backlog and the sales (read at scrape time) when known."""
    if backlog is not None:
        BACKLOG.set(backlog)
    if sales is not None:
        for attribution in ("led", "assisted"):
            SALES_REVENUE.labels(attribution).set(float(sales[attribution]))
        SALES_ORDERS.set(int(sales["orders"]))
    return generate_latest(REGISTRY)
