"""Coordination shared by bot replicas: update ledger (dedupe + per-chat order), rate counters.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "telegram_updates",
        sa.Column("update_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("chat_id", sa.BigInteger),
        sa.Column(
            "received_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
    )
    op.create_index(
        "ix_telegram_updates_pending",
        "telegram_updates",
        ["chat_id", "update_id"],
        postgresql_where=sa.text("finished_at IS NULL"),
    )
    op.create_index("ix_telegram_updates_received", "telegram_updates", ["received_at"])
    op.create_table(
        "rate_counters",
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hits", sa.Integer, nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("key", "window_start"),
    )


def downgrade() -> None:
    op.drop_table("rate_counters")
    op.drop_table("telegram_updates")
