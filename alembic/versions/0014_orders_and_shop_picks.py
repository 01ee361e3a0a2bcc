"""Orders from the shop (file/URL exports and `POST /v1/orders`), each line attributed to the
sommelier as led, assisted or not at all; the shop's own picks (boost and bury rules); a
wine's tags and margin from the feed, which the rules may name.

`order_lines.user_id` names the person a line is attributed to: /forget (which finds tables
by that column) must null it there rather than delete the line, since the shop's sale stays
a sale. A «Купить» click gets a short token (`buy_clicks.token`) that the shop's URL carries
back with an order.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _created() -> sa.Column:
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
    )


def upgrade() -> None:
    op.add_column("buy_clicks", sa.Column("token", sa.Text))
    op.create_index("buy_clicks_token", "buy_clicks", ["token"], unique=True)
    op.add_column(
        "wines",
        sa.Column(
            "tags", postgresql.ARRAY(sa.Text), nullable=False, server_default=sa.text("'{}'")
        ),
    )
    op.add_column("wines", sa.Column("margin", sa.Numeric(6, 2)))  # percent, from the feed
    op.create_table(
        "orders",
        sa.Column("order_id", sa.Text, primary_key=True),  # the shop's own id
        sa.Column("placed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="placed"),  # | cancelled
        sa.Column("token", sa.Text),  # the referral token the order carried, if any
        sa.Column("source", sa.Text, nullable=False),  # «api», or the file/URL it came from
        sa.Column("total_rub", sa.Numeric(14, 2), nullable=False, server_default="0"),
        _created(),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
    )
    op.create_index("orders_placed_at", "orders", ["placed_at"])
    op.create_table(
        "order_lines",
        sa.Column(
            "order_id",
            sa.Text,
            sa.ForeignKey("orders.order_id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("line_no", sa.SmallInteger, primary_key=True),
        sa.Column("product", sa.Text, nullable=False),  # the feed's product id or SKU
        sa.Column("wine_id", postgresql.UUID(as_uuid=True)),  # when the product is in the catalog
        sa.Column("quantity", sa.Integer, nullable=False),
        sa.Column("price_rub", sa.Numeric(12, 2), nullable=False),  # per unit
        sa.Column("attribution", sa.Text, nullable=False, server_default="none"),  # led|assisted
        sa.Column("user_id", sa.BigInteger),  # the person it is attributed to
        sa.Column("click_id", sa.BigInteger),  # the «Купить» click that led it
    )
    op.create_index("order_lines_wine_id", "order_lines", ["wine_id"])
    op.create_index("order_lines_user_id", "order_lines", ["user_id"])
    op.create_table(
        "order_syncs",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        _created(),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("rows", sa.Integer, nullable=False, server_default="0"),
        sa.Column("inserted", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated", sa.Integer, nullable=False, server_default="0"),
        sa.Column("unchanged", sa.Integer, nullable=False, server_default="0"),
        sa.Column("cancelled", sa.Integer, nullable=False, server_default="0"),
        sa.Column("skipped", sa.Integer, nullable=False, server_default="0"),
        sa.Column("reasons", postgresql.JSONB, nullable=False, server_default="[]"),
        sa.Column("error", sa.Text),
    )
    op.create_table(
        "merch_rules",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        _created(),
        sa.Column("action", sa.Text, nullable=False),  # boost | bury
        sa.Column("field", sa.Text, nullable=False),  # wine | producer | country | tag | margin
        sa.Column("value", sa.Text, nullable=False),  # a wine id, a name, a tag, a minimum margin
        sa.Column("starts_on", sa.Date),
        sa.Column("ends_on", sa.Date),
        sa.Column("note", sa.Text),
        sa.Column("admin_id", sa.BigInteger),  # who set it (not a customer: /forget leaves it)
    )


def downgrade() -> None:
    op.drop_table("merch_rules")
    op.drop_table("order_syncs")
    op.drop_table("order_lines")
    op.drop_table("orders")
    op.drop_column("wines", "margin")
    op.drop_column("wines", "tags")
    op.drop_index("buy_clicks_token", table_name="buy_clicks")
    op.drop_column("buy_clicks", "token")
