"""The survey by country pair: an import replaces a pair's rows of a period, not the whole period; each row's payment
instrument.

Revision ID: 0006_survey_by_pair
Revises: 0005_published_and_flows
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_survey_by_pair"
down_revision = "0005_published_and_flows"
branch_labels = None
depends_on = None


def _periods(*by: str) -> None:
    """survey_periods made again, keyed by `by`, from the rows stored. Their fingerprint is unknown (empty): the next
    import of the same rows replaces them once, reading their payment instrument."""
    op.drop_table("survey_periods")
    op.create_table(
        "survey_periods",
        sa.Column("period", sa.String(length=6), nullable=False),
        *(sa.Column(name, sa.String(length=3), nullable=False) for name in by[1:]),
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["import_id"], ["survey_imports.id"]),
        sa.PrimaryKeyConstraint(*by),
    )
    columns = ", ".join(by)
    op.execute(
        f"INSERT INTO survey_periods ({columns}, import_id, digest, rows) "
        f"SELECT {columns}, max(import_id), '', count(*) FROM survey_observations GROUP BY {columns}"
    )


def upgrade():
    with op.batch_alter_table("survey_observations") as table:
        table.add_column(sa.Column("payment", sa.String(length=255), nullable=True))
    _periods("period", "source_country", "destination_country")


def downgrade():
    _periods("period")
    with op.batch_alter_table("survey_observations") as table:
        table.drop_column("payment")
