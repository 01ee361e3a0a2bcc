"""Durable intake: the update ledger keeps each update's body until it is answered, a lease
held by the process working on it, how many times it was taken, the answer planned for it and
how much of that answer already went out, and, for an update that keeps killing its handler,
where it was parked and why.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Rows from before this revision carry no body: nothing can redo them, so they are closed.
    op.execute("UPDATE telegram_updates SET finished_at = now() WHERE finished_at IS NULL")
    op.add_column("telegram_updates", sa.Column("user_id", sa.BigInteger))
    op.add_column("telegram_updates", sa.Column("body", postgresql.JSONB))
    op.add_column("telegram_updates", sa.Column("lease_owner", sa.Text))
    op.add_column("telegram_updates", sa.Column("lease_until", sa.DateTime(timezone=True)))
    op.add_column(
        "telegram_updates",
        sa.Column("attempts", sa.SmallInteger, nullable=False, server_default="1"),
    )
    op.add_column("telegram_updates", sa.Column("plan", postgresql.JSONB))
    op.add_column(
        "telegram_updates",
        sa.Column("sent_parts", sa.SmallInteger, nullable=False, server_default="0"),
    )
    op.add_column("telegram_updates", sa.Column("parked_at", sa.DateTime(timezone=True)))
    op.add_column("telegram_updates", sa.Column("error", sa.Text))
    # What a recovering process looks for: unfinished, not parked, by lease expiry.
    op.create_index(
        "ix_telegram_updates_lease",
        "telegram_updates",
        ["lease_until"],
        postgresql_where=sa.text("finished_at IS NULL AND parked_at IS NULL"),
    )
    op.create_index(
        "ix_telegram_updates_parked",
        "telegram_updates",
        ["parked_at"],
        postgresql_where=sa.text("parked_at IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_telegram_updates_parked", table_name="telegram_updates")
    op.drop_index("ix_telegram_updates_lease", table_name="telegram_updates")
    for column in (
        "error",
        "parked_at",
        "sent_parts",
        "plan",
        "attempts",
        "lease_until",
        "lease_owner",
        "body",
        "user_id",
    ):
        op.drop_column("telegram_updates", column)
