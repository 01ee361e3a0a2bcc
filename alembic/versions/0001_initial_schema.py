"""Initial schema: catalog with pgvector and full text, users, conversations, feedback.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from pgvector.sqlalchemy import Vector
from sqlalchemy.dialects import postgresql as pg

from alembic import op
from repositories.migrations import migration_embedding_dim

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# HNSW in pgvector 0.6 indexes at most 2000 dimensions.
HNSW_MAX_DIM = 2000


def _timestamps() -> list[sa.Column]:
    return [
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column(
            "updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    ]


def upgrade() -> None:
    dim = migration_embedding_dim()
    op.execute("CREATE EXTENSION IF NOT EXISTS vector")
    wine_type = pg.ENUM(
        "red", "white", "rose", "sparkling", "dessert", "fortified", name="wine_type"
    )
    sweetness = pg.ENUM("dry", "semi_dry", "semi_sweet", "sweet", name="sweetness")

    op.create_table(
        "wines",
        sa.Column(
            "id",
            pg.UUID(as_uuid=True),
            primary_key=True,
            server_default=sa.text("gen_random_uuid()"),
        ),
        sa.Column("slug", sa.Text, nullable=False, unique=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("producer", sa.Text, nullable=False),
        sa.Column("vintage_year", sa.Integer),
        sa.Column("country", sa.Text, nullable=False),
        sa.Column("region", sa.Text),
        sa.Column("appellation", sa.Text),
        sa.Column(
            "grape_varieties", pg.ARRAY(sa.Text), nullable=False, server_default=sa.text("'{}'")
        ),
        sa.Column("wine_type", wine_type, nullable=False),
        sa.Column("sweetness", sweetness, nullable=False),
        sa.Column("acidity", sa.SmallInteger, nullable=False),
        sa.Column("tannins", sa.SmallInteger, nullable=False),
        sa.Column("body", sa.SmallInteger, nullable=False),
        sa.Column("description", sa.Text, nullable=False, server_default=""),
        sa.Column("tasting_notes", sa.Text, nullable=False, server_default=""),
        sa.Column(
            "food_pairings", pg.ARRAY(sa.Text), nullable=False, server_default=sa.text("'{}'")
        ),
        sa.Column("price_rub", sa.Numeric(12, 2), nullable=False),
        sa.Column("image_url", sa.Text),
        sa.Column("embedding", Vector(dim)),
        sa.Column("embedding_model", sa.Text),
        sa.Column("search_vector", pg.TSVECTOR),
        *_timestamps(),
        sa.CheckConstraint("acidity BETWEEN 1 AND 5", name="wines_acidity_range"),
        sa.CheckConstraint("tannins BETWEEN 1 AND 5", name="wines_tannins_range"),
        sa.CheckConstraint("body BETWEEN 1 AND 5", name="wines_body_range"),
        sa.CheckConstraint("price_rub >= 0", name="wines_price_nonnegative"),
        sa.CheckConstraint(
            "vintage_year IS NULL OR vintage_year BETWEEN 1800 AND 2100", name="wines_vintage_range"
        ),
    )
    # The full-text column and updated_at are kept in sync by the database itself.
    op.execute(
        """
        CREATE FUNCTION wines_sync() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.search_vector :=
            setweight(to_tsvector('russian', coalesce(NEW.name, '') || ' ' ||
                                  coalesce(NEW.producer, '')), 'A') ||
            setweight(to_tsvector('russian', array_to_string(NEW.grape_varieties, ' ') || ' ' ||
                                  coalesce(NEW.country, '') || ' ' || coalesce(NEW.region, '') ||
                                  ' ' || coalesce(NEW.appellation, '')), 'B') ||
            setweight(to_tsvector('russian', array_to_string(NEW.food_pairings, ' ')), 'B') ||
            setweight(to_tsvector('russian', coalesce(NEW.description, '') || ' ' ||
                                  coalesce(NEW.tasting_notes, '')), 'C');
          IF TG_OP = 'UPDATE' THEN
            NEW.updated_at := now();
          END IF;
          RETURN NEW;
        END $$;
        """
    )
    op.execute(
        "CREATE TRIGGER wines_sync BEFORE INSERT OR UPDATE ON wines "
        "FOR EACH ROW EXECUTE FUNCTION wines_sync()"
    )
    op.create_index(
        "ix_wines_grape_varieties", "wines", ["grape_varieties"], postgresql_using="gin"
    )
    op.create_index("ix_wines_food_pairings", "wines", ["food_pairings"], postgresql_using="gin")
    op.create_index("ix_wines_search_vector", "wines", ["search_vector"], postgresql_using="gin")
    op.create_index(
        "ix_wines_type_sweetness_price", "wines", ["wine_type", "sweetness", "price_rub"]
    )
    op.create_index("ix_wines_price", "wines", ["price_rub"])
    op.create_index("ix_wines_country", "wines", [sa.text("lower(country)")])
    op.create_index("ix_wines_region", "wines", [sa.text("lower(region)")])
    op.create_index("ix_wines_body", "wines", ["body"])
    if dim <= HNSW_MAX_DIM:
        op.execute(
            "CREATE INDEX ix_wines_embedding_hnsw ON wines "
            "USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)"
        )

    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("first_name", sa.Text),
        sa.Column("last_name", sa.Text),
        sa.Column("username", sa.Text),
        sa.Column("language_code", sa.Text),
        sa.Column("age_confirmed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("age_confirmed_at", sa.DateTime(timezone=True)),
        sa.Column("taste_profile", pg.JSONB, nullable=False, server_default=sa.text("'{}'")),
        sa.Column("is_active", sa.Boolean, nullable=False, server_default=sa.true()),
        *_timestamps(),
    )
    op.create_table(
        "conversations",
        sa.Column(
            "id",
            pg.UUID(as_uuid=True),
            primary_key=True,
            server_default=sa.text("gen_random_uuid()"),
        ),
        sa.Column(
            "user_id", sa.BigInteger, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "started_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column(
            "last_activity_at",
            sa.DateTime(timezone=True),
            server_default=sa.func.now(),
            nullable=False,
        ),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
    )
    op.create_index(
        "ix_conversations_user_open",
        "conversations",
        ["user_id"],
        postgresql_where=sa.text("ended_at IS NULL"),
    )
    op.create_table(
        "messages",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column(
            "conversation_id",
            pg.UUID(as_uuid=True),
            sa.ForeignKey("conversations.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("content", sa.Text),
        sa.Column("tool_calls", pg.JSONB),
        sa.Column("tool_call_id", sa.Text),
        sa.Column("wine_ids", pg.ARRAY(pg.UUID(as_uuid=True))),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.CheckConstraint(
            "role IN ('system', 'user', 'assistant', 'tool')", name="messages_role_valid"
        ),
        sa.CheckConstraint(
            "role <> 'tool' OR tool_call_id IS NOT NULL", name="messages_tool_has_call_id"
        ),
    )
    op.create_index("ix_messages_conversation", "messages", ["conversation_id", "id"])
    op.create_table(
        "feedback",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column(
            "user_id", sa.BigInteger, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "wine_id",
            pg.UUID(as_uuid=True),
            sa.ForeignKey("wines.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("vote", sa.SmallInteger, nullable=False),
        *_timestamps(),
        sa.CheckConstraint("vote IN (-1, 1)", name="feedback_vote_valid"),
        sa.UniqueConstraint("user_id", "wine_id", name="feedback_one_per_user_wine"),
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.BigInteger),
        sa.Column("path", sa.Text, nullable=False),
        sa.Column("llm_calls", sa.SmallInteger, nullable=False, server_default="0"),
        sa.Column("duration_ms", sa.Integer, nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
    )
    op.create_index("ix_answers_created", "answers", ["created_at"])


def downgrade() -> None:
    op.drop_table("answers")
    op.drop_table("feedback")
    op.drop_table("messages")
    op.drop_table("conversations")
    op.drop_table("users")
    op.drop_table("wines")
    op.execute("DROP FUNCTION IF EXISTS wines_sync()")
    op.execute("DROP TYPE IF EXISTS wine_type")
    op.execute("DROP TYPE IF EXISTS sweetness")
    op.execute("DROP EXTENSION IF EXISTS vector")
