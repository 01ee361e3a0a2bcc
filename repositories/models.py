"""SQLAlchemy 2 typed models. The schema itself is owned by the Alembic migrations."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    Numeric,
    SmallInteger,
    Text,
    func,
)
from sqlalchemy import Enum as SAEnum
from sqlalchemy.dialects.postgresql import ARRAY, JSONB, TSVECTOR, UUID
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from core.domain import Sweetness, WineType


class Base(DeclarativeBase):
    pass


def _enum(enum_cls: type, name: str) -> SAEnum:
    return SAEnum(enum_cls, name=name, values_callable=lambda e: [m.value for m in e])


class Wine(Base):
    __tablename__ = "wines"

    id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), primary_key=True, server_default=func.gen_random_uuid()
    )
    slug: Mapped[str] = mapped_column(Text, unique=True)
    name: Mapped[str] = mapped_column(Text)
    producer: Mapped[str] = mapped_column(Text)
    vintage_year: Mapped[int | None] = mapped_column(Integer)
    country: Mapped[str] = mapped_column(Text)
    region: Mapped[str | None] = mapped_column(Text)
    appellation: Mapped[str | None] = mapped_column(Text)
    grape_varieties: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    wine_type: Mapped[WineType] = mapped_column(_enum(WineType, "wine_type"))
    sweetness: Mapped[Sweetness] = mapped_column(_enum(Sweetness, "sweetness"))
    acidity: Mapped[int | None] = mapped_column(SmallInteger)
    tannins: Mapped[int | None] = mapped_column(SmallInteger)
    body: Mapped[int | None] = mapped_column(SmallInteger)
    description: Mapped[str] = mapped_column(Text)
    tasting_notes: Mapped[str | None] = mapped_column(Text)
    food_pairings: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)
    price_rub: Mapped[Decimal] = mapped_column(Numeric(12, 2))
    image_url: Mapped[str | None] = mapped_column(Text)
    available: Mapped[bool] = mapped_column(Boolean, default=True)
    stock: Mapped[int | None] = mapped_column(Integer)
    url: Mapped[str | None] = mapped_column(Text)
    volume_l: Mapped[Decimal | None] = mapped_column(Numeric(6, 3))
    alcohol: Mapped[Decimal | None] = mapped_column(Numeric(4, 1))
    external_id: Mapped[str | None] = mapped_column(Text, unique=True)
    source: Mapped[str | None] = mapped_column(Text)
    old_price_rub: Mapped[Decimal | None] = mapped_column(Numeric(12, 2))
    tags: Mapped[list[str]] = mapped_column(ARRAY(Text), default=list)  # from the feed
    margin: Mapped[Decimal | None] = mapped_column(Numeric(6, 2))  # percent, from the feed
    embedding: Mapped[list[float] | None] = mapped_column(Vector(), deferred=True)
    embedding_model: Mapped[str | None] = mapped_column(Text)
    search_vector: Mapped[str | None] = mapped_column(TSVECTOR, deferred=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    first_name: Mapped[str | None] = mapped_column(Text)
    last_name: Mapped[str | None] = mapped_column(Text)
    username: Mapped[str | None] = mapped_column(Text)
    language_code: Mapped[str | None] = mapped_column(Text)
    age_confirmed: Mapped[bool] = mapped_column(Boolean, default=False)
    age_confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    taste_profile: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)  # 👍/👎 alone
    # The profile merged with the quiz (core.taste.taste_profile), kept as either changes.
    taste: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    is_active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class Conversation(Base):
    __tablename__ = "conversations"

    id: Mapped[uuid.UUID] = mapped_column(
        UUID(as_uuid=True), primary_key=True, server_default=func.gen_random_uuid()
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    last_activity_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now()
    )
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Message(Base):
    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    conversation_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("conversations.id", ondelete="CASCADE")
    )
    role: Mapped[str] = mapped_column(Text)
    content: Mapped[str | None] = mapped_column(Text)
    tool_calls: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONB)
    tool_call_id: Mapped[str | None] = mapped_column(Text)
    wine_ids: Mapped[list[uuid.UUID] | None] = mapped_column(ARRAY(UUID(as_uuid=True)))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class QuizAnswers(Base):
    __tablename__ = "quiz_answers"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    answers: Mapped[dict[str, Any]] = mapped_column(JSONB, default=dict)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class Feedback(Base):
    __tablename__ = "feedback"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    wine_id: Mapped[uuid.UUID] = mapped_column(ForeignKey("wines.id", ondelete="CASCADE"))
    vote: Mapped[int] = mapped_column(SmallInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), server_default=func.now(), onupdate=func.now()
    )


class Favourite(Base):
    """A wine the person keeps («⭐ В избранное»); migration 0008."""

    __tablename__ = "favourites"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    wine_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("wines.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Answer(Base):
    """One row per answered message: what /stats reports on."""

    __tablename__ = "answers"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    path: Mapped[str] = mapped_column(Text)
    llm_calls: Mapped[int] = mapped_column(SmallInteger, default=0)
    duration_ms: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class AnswerFact(Base):
    """What one answer was asked and shown (migration 0009): what the shop's console reads."""

    __tablename__ = "answer_facts"

    id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    person: Mapped[str | None] = mapped_column(Text)
    path: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(Text, default="request")
    style: Mapped[str | None] = mapped_column(Text)
    body: Mapped[str | None] = mapped_column(Text)
    country: Mapped[str | None] = mapped_column(Text)
    region: Mapped[str | None] = mapped_column(Text)
    grape: Mapped[str | None] = mapped_column(Text)
    food: Mapped[str | None] = mapped_column(Text)
    occasion: Mapped[str | None] = mapped_column(Text)
    price_band: Mapped[str | None] = mapped_column(Text)
    price_max: Mapped[int | None] = mapped_column(Integer)
    match: Mapped[str] = mapped_column(Text)
    asked_name: Mapped[str | None] = mapped_column(Text)
    wine_ids: Mapped[list[uuid.UUID] | None] = mapped_column(ARRAY(UUID(as_uuid=True)))
    nearest_price: Mapped[int | None] = mapped_column(Integer)
    latency_ms: Mapped[int] = mapped_column(Integer, default=0)
    tokens: Mapped[int] = mapped_column(Integer, default=0)
    llm_calls: Mapped[int] = mapped_column(SmallInteger, default=0)
    tools: Mapped[int] = mapped_column(SmallInteger, default=0)
    wording: Mapped[str | None] = mapped_column(Text)


class BuyClick(Base):
    """A «Купить» click that went through the signed redirect (migration 0009)."""

    __tablename__ = "buy_clicks"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    fact_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    wine_id: Mapped[uuid.UUID] = mapped_column(UUID(as_uuid=True))
    token: Mapped[str | None] = mapped_column(Text, unique=True)  # carried back by an order


class CatalogSync(Base):
    """One catalog import's outcome (migration 0009): the console's Catalog view."""

    __tablename__ = "catalog_syncs"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    source: Mapped[str] = mapped_column(Text)
    format: Mapped[str | None] = mapped_column(Text)
    rows: Mapped[int] = mapped_column(Integer, default=0)
    inserted: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[int] = mapped_column(Integer, default=0)
    unchanged: Mapped[int] = mapped_column(Integer, default=0)
    marked_unavailable: Mapped[int] = mapped_column(Integer, default=0)
    skipped: Mapped[int] = mapped_column(Integer, default=0)
    reasons: Mapped[list[Any]] = mapped_column(JSONB, default=list)
    error: Mapped[str | None] = mapped_column(Text)


class Order(Base):
    """One of the shop's orders (migration 0014), idempotent by the shop's own id."""

    __tablename__ = "orders"

    order_id: Mapped[str] = mapped_column(Text, primary_key=True)
    placed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(Text, default="placed")  # placed | cancelled
    token: Mapped[str | None] = mapped_column(Text)  # the referral token it carried
    source: Mapped[str] = mapped_column(Text)  # «api», or the file/URL it came from
    total_rub: Mapped[Decimal] = mapped_column(Numeric(14, 2), default=Decimal(0))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class OrderLine(Base):
    """A line of an order, attributed to the sommelier as led, assisted or none."""

    __tablename__ = "order_lines"

    order_id: Mapped[str] = mapped_column(
        Text, ForeignKey("orders.order_id", ondelete="CASCADE"), primary_key=True
    )
    line_no: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    product: Mapped[str] = mapped_column(Text)  # the feed's product id or SKU
    wine_id: Mapped[uuid.UUID | None] = mapped_column(UUID(as_uuid=True))
    quantity: Mapped[int] = mapped_column(Integer)
    price_rub: Mapped[Decimal] = mapped_column(Numeric(12, 2))  # per unit
    attribution: Mapped[str] = mapped_column(Text, default="none")  # led | assisted | none
    user_id: Mapped[int | None] = mapped_column(BigInteger)  # nulled by /forget, never deleted
    click_id: Mapped[int | None] = mapped_column(BigInteger)


class OrderSync(Base):
    """One order import's outcome: the console's Catalog view and /stats."""

    __tablename__ = "order_syncs"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    source: Mapped[str] = mapped_column(Text)
    rows: Mapped[int] = mapped_column(Integer, default=0)
    inserted: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[int] = mapped_column(Integer, default=0)
    unchanged: Mapped[int] = mapped_column(Integer, default=0)
    cancelled: Mapped[int] = mapped_column(Integer, default=0)
    skipped: Mapped[int] = mapped_column(Integer, default=0)
    reasons: Mapped[list[Any]] = mapped_column(JSONB, default=list)
    error: Mapped[str | None] = mapped_column(Text)


class MerchRule(Base):
    """The shop's own pick (migration 0014): boost or bury wines by wine, producer, country,
    tag or a minimum margin, optionally within dates."""

    __tablename__ = "merch_rules"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    action: Mapped[str] = mapped_column(Text)  # boost | bury
    field: Mapped[str] = mapped_column(Text)  # wine | producer | country | tag | margin
    value: Mapped[str] = mapped_column(Text)
    starts_on: Mapped[date | None] = mapped_column(Date)
    ends_on: Mapped[date | None] = mapped_column(Date)
    note: Mapped[str | None] = mapped_column(Text)
    admin_id: Mapped[int | None] = mapped_column(BigInteger)
