"""The shop's console (issue 27): one row of request facts per answer, «Купить» clicks through
the signed redirect, and the catalog imports' outcomes,
the used one-time console links, and the per-day rollups the console reads.

`answer_facts` and `buy_clicks` carry `user_id`, so /forget (which finds tables by that column)
deletes them; the console shows only `person`, a keyed hash. `wording` (the request's words,
at most 200 characters) is cleared by the message retention like the conversations.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "answer_facts",
        sa.Column("id", postgresql.UUID(as_uuid=True), primary_key=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.Column("user_id", sa.BigInteger),
        sa.Column("person", sa.Text),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, nullable=False, server_default="request"),
        sa.Column("style", sa.Text),  # «красное сухое»
        sa.Column("body", sa.Text),
        sa.Column("country", sa.Text),
        sa.Column("region", sa.Text),
        sa.Column("grape", sa.Text),
        sa.Column("food", sa.Text),
        sa.Column("occasion", sa.Text),
        sa.Column("price_band", sa.Text),
        sa.Column("price_max", sa.Integer),
        # exact | relaxed | none | free (nothing to match: «посоветуй вино»)
        sa.Column("match", sa.Text, nullable=False),
        sa.Column("asked_name", sa.Text),  # a wine asked for by name that the shop lacks
        sa.Column("wine_ids", postgresql.ARRAY(postgresql.UUID(as_uuid=True))),
        sa.Column("nearest_price", sa.Integer),  # the cheapest wine shown when relaxed
        sa.Column("latency_ms", sa.Integer, nullable=False, server_default="0"),
        sa.Column("tokens", sa.Integer, nullable=False, server_default="0"),
        sa.Column("llm_calls", sa.SmallInteger, nullable=False, server_default="0"),
        sa.Column("tools", sa.SmallInteger, nullable=False, server_default="0"),
        sa.Column("wording", sa.Text),
    )
    op.create_index("answer_facts_created_at", "answer_facts", ["created_at"])
    op.create_index("answer_facts_user_id", "answer_facts", ["user_id"])
    op.create_table(
        "buy_clicks",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.Column("user_id", sa.BigInteger),
        sa.Column("fact_id", postgresql.UUID(as_uuid=True)),
        sa.Column("wine_id", postgresql.UUID(as_uuid=True), nullable=False),
    )
    op.create_index("buy_clicks_created_at", "buy_clicks", ["created_at"])
    op.create_index("buy_clicks_user_id", "buy_clicks", ["user_id"])
    op.create_table(
        "catalog_syncs",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("format", sa.Text),
        sa.Column("rows", sa.Integer, nullable=False, server_default="0"),
        sa.Column("inserted", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.Integer, nullable=False, server_default="0"),
        sa.Column("unchanged", sa.Integer, nullable=False, server_default="0"),
        sa.Column("marked_unavailable", sa.Integer, nullable=False, server_default="0"),
        sa.Column("skipped", sa.Integer, nullable=False, server_default="0"),
        sa.Column("reasons", postgresql.JSONB, nullable=False, server_default="[]"),
        sa.Column("error", sa.Text),
    )

    # Per-day rollups of answer_facts (the console reads these): complete days are computed
    # once (`final`), today on every console view; /forget drops the days it touched.
    op.create_table(
        "fact_days",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("path", sa.Text, primary_key=True),  # '*': all paths
        sa.Column("answers", sa.Integer, nullable=False),
        sa.Column("unmet", sa.Integer, nullable=False),
        sa.Column("tokens", sa.BigInteger, nullable=False),
        sa.Column("people", sa.Integer, nullable=False),
        sa.Column("final", sa.Boolean, nullable=False),
    )
    op.create_table(
        "fact_day_values",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("path", sa.Text, primary_key=True),
        sa.Column("dim", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, primary_key=True),
        sa.Column("n", sa.BigInteger, nullable=False),
        sa.Column("extra", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("low", sa.Integer),
    )
    op.create_index("fact_day_values_dim_day", "fact_day_values", ["dim", "path", "day"])
    # One-time console links: a link's nonce is stored when it is used, so it opens one session.
    op.create_table(
        "console_links",
        sa.Column("nonce", sa.Text, primary_key=True),
        sa.Column(
            "used_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
    )


def downgrade() -> None:
    op.drop_table("console_links")
    op.drop_table("fact_day_values")
    op.drop_table("fact_days")
    op.drop_table("catalog_syncs")
    op.drop_table("buy_clicks")
    op.drop_table("answer_facts")
