"""The console's sales per day: `sales_days` holds, per UTC day, the revenue the sommelier led
and assisted, its sales and lines (wine '*') and the same per wine; `sales_stale_days` lists the
days an order or a line changed since. Statement triggers on `orders` and `order_lines` mark
those days (one INSERT … SELECT DISTINCT per statement, so an import of 100,000 orders adds one
set statement, not a call per row); the console recomputes only the marked days before a view.
An order can arrive, change or be cancelled days after it was placed, so a past day is never
final: it is recomputed whenever it is marked. TRUNCATE of either table empties the rollup.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_DAY = "(placed_at AT TIME ZONE 'UTC')::date"


def _marking(function: str, days_of: str) -> str:
    """A statement trigger's function: the days of the rows a statement inserted, updated or
    deleted (`days_of` selects them from `{rows}`, the transition table) marked stale."""
    return f"""
CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO sales_stale_days {days_of.format(rows="new_rows")} ON CONFLICT DO NOTHING;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO sales_stale_days {days_of.format(rows="old_rows")} ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$
"""


_MARK_ORDERS = _marking("sales_mark_orders", f"SELECT DISTINCT {_DAY} FROM {{rows}}")
_MARK_LINES = _marking(
    "sales_mark_lines",
    "SELECT DISTINCT (o.placed_at AT TIME ZONE 'UTC')::date\n"
    "    FROM {rows} n JOIN orders o ON o.order_id = n.order_id",
)
_EMPTIED = """
CREATE FUNCTION sales_emptied() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM sales_days;
  DELETE FROM sales_stale_days;
  RETURN NULL;
END $$
"""
_REFERENCING = {
    "INSERT": "REFERENCING NEW TABLE AS new_rows",
    "UPDATE": "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows",
    "DELETE": "REFERENCING OLD TABLE AS old_rows",
}
_TABLES = {"orders": "sales_mark_orders", "order_lines": "sales_mark_lines"}


def upgrade() -> None:
    op.create_table(
        "sales_days",
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("wine", sa.Text, primary_key=True),  # a wine's id, or '*': the whole day
        sa.Column("led", sa.Numeric(14, 2), nullable=False),
        sa.Column("assisted", sa.Numeric(14, 2), nullable=False),
        sa.Column("orders", sa.Integer, nullable=False),  # with a line led or assisted
        sa.Column("lines", sa.Integer, nullable=False),  # led or assisted
    )
    op.create_table("sales_stale_days", sa.Column("day", sa.Date, primary_key=True))
    op.execute(_MARK_ORDERS)
    op.execute(_MARK_LINES)
    op.execute(_EMPTIED)
    for table, function in _TABLES.items():
        for event, referencing in _REFERENCING.items():
            op.execute(
                f"CREATE TRIGGER {table}_sales_{event.lower()} AFTER {event} ON {table} "
                f"{referencing} FOR EACH STATEMENT EXECUTE FUNCTION {function}()"
            )
        op.execute(
            f"CREATE TRIGGER {table}_sales_truncate AFTER TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION sales_emptied()"
        )
    # Orders already there (none before this release, but a database may have been migrated
    # to 0014 and filled): their days are computed at the first view.
    op.execute(f"INSERT INTO sales_stale_days SELECT DISTINCT {_DAY} FROM orders")


def downgrade() -> None:
    for table in _TABLES:
        for event in (*_REFERENCING, "TRUNCATE"):
            op.execute(f"DROP TRIGGER IF EXISTS {table}_sales_{event.lower()} ON {table}")
    for function in ("sales_mark_orders", "sales_mark_lines", "sales_emptied"):
        op.execute(f"DROP FUNCTION IF EXISTS {function}()")
    op.drop_table("sales_stale_days")
    op.drop_table("sales_days")
