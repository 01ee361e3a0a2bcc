"""Web chat visitors: a random token (kept in the visitor's cookie; only its SHA-256 is stored)
mapped to the user id the visitor is known by, and the one-time code that links the visitor
to a Telegram user (`/link CODE`).

A visitor's user id is a random negative number below -2^62: Telegram's user and chat ids
fit in 53 bits, so no visitor can ever share an id with a Telegram user or group. After
`/link` the visitor's rows point at the Telegram user's id instead. The `user_id` column puts
the table under /forget (found by that column) and the foreign key removes a visitor's rows
with its user.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "visitors",
        sa.Column("token_hash", sa.Text, primary_key=True),
        sa.Column(
            "user_id",
            sa.BigInteger,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("link_code", sa.Text, unique=True),
        sa.Column("link_expires_at", sa.DateTime(timezone=True)),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
    )
    op.create_index("ix_visitors_user_id", "visitors", ["user_id"])


def downgrade() -> None:
    op.drop_table("visitors")
