"""A shop's catalog: availability, stock, buy link, volume, alcohol, external id, old price.

Tasting notes, acidity, tannins and body become optional: a shop's feed rarely has them, and
an unknown value is stored as unknown rather than invented.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OPTIONAL = ("acidity", "tannins", "body")


def upgrade() -> None:
    op.add_column(
        "wines", sa.Column("available", sa.Boolean, nullable=False, server_default=sa.true())
    )
    op.add_column("wines", sa.Column("stock", sa.Integer))
    op.add_column("wines", sa.Column("url", sa.Text))
    op.add_column("wines", sa.Column("volume_l", sa.Numeric(6, 3)))
    op.add_column("wines", sa.Column("alcohol", sa.Numeric(4, 1)))
    op.add_column("wines", sa.Column("external_id", sa.Text))
    op.add_column("wines", sa.Column("source", sa.Text))
    op.add_column("wines", sa.Column("old_price_rub", sa.Numeric(12, 2)))
    op.create_unique_constraint("wines_external_id_key", "wines", ["external_id"])
    op.create_check_constraint("wines_stock_nonnegative", "wines", "stock IS NULL OR stock >= 0")
    op.create_check_constraint(
        "wines_old_price_nonnegative", "wines", "old_price_rub IS NULL OR old_price_rub >= 0"
    )
    op.create_index(
        "ix_wines_available", "wines", ["available"], postgresql_where=sa.text("NOT available")
    )
    for column in (*_OPTIONAL, "tasting_notes"):
        op.alter_column("wines", column, nullable=True)
    op.alter_column("wines", "tasting_notes", server_default=None)


def downgrade() -> None:
    # The older schema requires these values: unknown becomes the scale's middle / empty text.
    for column in _OPTIONAL:
        op.execute(f"UPDATE wines SET {column} = 3 WHERE {column} IS NULL")
        op.alter_column("wines", column, nullable=False)
    op.execute("UPDATE wines SET tasting_notes = '' WHERE tasting_notes IS NULL")
    op.alter_column("wines", "tasting_notes", nullable=False, server_default="")
    op.drop_index("ix_wines_available", table_name="wines")
    op.drop_constraint("wines_old_price_nonnegative", "wines", type_="check")
    op.drop_constraint("wines_stock_nonnegative", "wines", type_="check")
    op.drop_constraint("wines_external_id_key", "wines", type_="unique")
    for column in (
        "old_price_rub",
        "source",
        "external_id",
        "alcohol",
        "volume_l",
        "url",
        "stock",
        "available",
    ):
        op.drop_column("wines", column)
