"""«Сообщить, когда появится» and price drops (issue 43): `alert_subscriptions` holds what a
person asked to be told about — a wine asked for by name or from a label photo (`name`), a wine
shown earlier that has sold out (`wine`), a price drop of a favourite (`price`, with the price
it is measured from) — until it expires; `alerts_sent` holds every alert that went out, opened
when the person pressed a button on it or followed its «Купить» (an order through that click is
the alert's order). /forget deletes the subscriptions and keeps the sent alerts' counts
without the person.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _at(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(
        name, sa.DateTime(timezone=True), nullable=nullable, server_default=sa.func.now()
    )


def upgrade() -> None:
    op.create_table(
        "alert_subscriptions",
        sa.Column("id", sa.BigInteger, sa.Identity(), primary_key=True),
        sa.Column("user_id", sa.BigInteger, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),  # 'name', 'wine' or 'price'
        sa.Column(
            "wine_id",
            postgresql.UUID(as_uuid=True),
            sa.ForeignKey("wines.id", ondelete="CASCADE"),
        ),
        sa.Column("asked_name", sa.Text),  # as the person wrote it (or the label showed it)
        sa.Column("name_key", sa.Text),  # folded: one subscription per person and name
        sa.Column("ref_price", sa.Numeric(12, 2)),  # a price drop is measured from it
        _at("created_at"),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "(kind = 'name' AND name_key IS NOT NULL) "
            "OR (kind = 'wine' AND wine_id IS NOT NULL) "
            "OR (kind = 'price' AND wine_id IS NOT NULL AND ref_price IS NOT NULL)",
            name="alert_subscriptions_kind",
        ),
    )
    op.create_index(
        "alert_subscriptions_wine",
        "alert_subscriptions",
        ["user_id", "kind", "wine_id"],
        unique=True,
        postgresql_where=sa.text("wine_id IS NOT NULL"),
    )
    op.create_index(
        "alert_subscriptions_name",
        "alert_subscriptions",
        ["user_id", "name_key"],
        unique=True,
        postgresql_where=sa.text("kind = 'name'"),
    )
    op.create_index("alert_subscriptions_due", "alert_subscriptions", ["kind", "wine_id"])
    op.create_index("alert_subscriptions_expires", "alert_subscriptions", ["expires_at"])
    op.create_table(
        "alerts_sent",
        sa.Column("id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column("user_id", sa.BigInteger),  # NULL after /forget: the count stays
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("wine_id", postgresql.UUID(as_uuid=True), nullable=False),
        sa.Column("price_rub", sa.Numeric(12, 2), nullable=False),
        _at("created_at"),
        sa.Column("opened_at", sa.DateTime(timezone=True)),
    )
    op.create_index("alerts_sent_created", "alerts_sent", ["created_at"])
    op.create_index(
        "alerts_sent_unopened",
        "alerts_sent",
        ["user_id", "wine_id"],
        postgresql_where=sa.text("opened_at IS NULL"),
    )


def downgrade() -> None:
    op.drop_table("alerts_sent")
    op.drop_table("alert_subscriptions")
