"""When each scheduled housekeeping job (the backup, the retention purge) last began a run that
completed, for every replica to see: a replica whose timer fires runs the job only when a
whole round has passed since, so several replicas make one backup per round between them, not
one each.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "housekeeping_runs",
        sa.Column("job", sa.Text, primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("housekeeping_runs")
