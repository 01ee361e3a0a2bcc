"""The merged taste kept with the person (issue 41): `users.taste` is the 👍/👎 profile merged
with the quiz's answers by core.taste's one rule (`taste_profile`), written whenever a vote, a
favourite or a quiz answer changes either, in the same transaction. A turn reads it as it is,
with the rest of what it starts from, and so do the picks, the welcome and inline answers.
Existing people are filled in by the same rule.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op
from core.taste import taste_profile

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "users",
        sa.Column("taste", postgresql.JSONB, nullable=False, server_default=sa.text("'{}'")),
    )
    bind = op.get_bind()
    people = bind.execute(
        sa.text(
            "SELECT u.id, u.taste_profile, q.answers FROM users u "
            "LEFT JOIN quiz_answers q ON q.user_id = u.id "
            "WHERE u.taste_profile <> '{}' OR q.answers IS NOT NULL"
        )
    ).all()
    for user_id, profile, quiz in people:
        bind.execute(
            sa.text("UPDATE users SET taste = CAST(:taste AS jsonb) WHERE id = :id"),
            {"id": user_id, "taste": json.dumps(taste_profile(profile, quiz), ensure_ascii=False)},
        )


def downgrade() -> None:
    op.drop_column("users", "taste")
