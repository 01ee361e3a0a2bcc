"""The nearest-neighbour index in half precision: `embedding::halfvec(dim)`.

Measured on 100k wines (BENCHMARKS.md, `--variants current,vector`): half the index size
(781 → 391 MB), so more of it stays in memory, with the same or better latency and recall@10
against full-precision exact scans. The stored vectors stay full precision. HNSW indexes
halfvec up to 4000 dimensions (vector: 2000), so 3072-dimension embeddings get an index too.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op
from repositories.migrations import migration_embedding_dim

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HALFVEC_HNSW_MAX_DIM = 4000
VECTOR_HNSW_MAX_DIM = 2000
OPTIONS = "WITH (m = 16, ef_construction = 64)"


def upgrade() -> None:
    dim = migration_embedding_dim()
    if op.get_bind().execute(sa.text("SELECT to_regtype('halfvec')")).scalar() is None:
        raise RuntimeError(
            "this database's pgvector has no halfvec type (pgvector 0.7 or newer is needed): "
            "run ALTER EXTENSION vector UPDATE as the extension's owner, then start again"
        )
    op.execute("DROP INDEX IF EXISTS ix_wines_embedding_hnsw")
    if dim <= HALFVEC_HNSW_MAX_DIM:
        op.execute(
            "CREATE INDEX ix_wines_embedding_half ON wines USING hnsw "
            f"((embedding::halfvec({dim})) halfvec_cosine_ops) {OPTIONS}"
        )


def downgrade() -> None:
    dim = migration_embedding_dim()
    op.execute("DROP INDEX IF EXISTS ix_wines_embedding_half")
    if dim <= VECTOR_HNSW_MAX_DIM:
        op.execute(
            "CREATE INDEX ix_wines_embedding_hnsw ON wines "
            f"USING hnsw (embedding vector_cosine_ops) {OPTIONS}"
        )
