"""The World Bank's Remittance Prices Worldwide survey: imports, periods, observations, corridor ids.

Revision ID: 0002_survey
Revises: 0001_accounts
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_survey"
down_revision = "0001_accounts"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "survey_imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("file_sha256", sa.String(length=64), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "survey_corridors",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("source_country", sa.String(length=3), nullable=False),
        sa.Column("destination_country", sa.String(length=3), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("source_country", "destination_country"),
    )
    op.create_table(
        "survey_periods",
        sa.Column("period", sa.String(length=6), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["import_id"], ["survey_imports.id"]),
        sa.PrimaryKeyConstraint("period"),
    )
    op.create_table(
        "survey_observations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("import_id", sa.Integer(), nullable=False),
        sa.Column("row", sa.Integer(), nullable=False),
        sa.Column("period", sa.String(length=6), nullable=False),
        sa.Column("source_country", sa.String(length=3), nullable=False),
        sa.Column("destination_country", sa.String(length=3), nullable=False),
        sa.Column("firm", sa.String(length=255), nullable=False),
        sa.Column("firm_type", sa.String(length=255), nullable=True),
        sa.Column("speed", sa.String(length=255), nullable=True),
        sa.Column("pickup", sa.String(length=255), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("cc1_amount", sa.Double(), nullable=False),
        sa.Column("cc1_denomination", sa.Double(), nullable=True),
        sa.Column("cc1_fee", sa.Double(), nullable=False),
        sa.Column("cc1_margin", sa.Double(), nullable=False),
        sa.Column("cc1_total", sa.Double(), nullable=False),
        sa.Column("cc2_amount", sa.Double(), nullable=True),
        sa.Column("cc2_denomination", sa.Double(), nullable=True),
        sa.Column("cc2_fee", sa.Double(), nullable=True),
        sa.Column("cc2_margin", sa.Double(), nullable=True),
        sa.Column("cc2_total", sa.Double(), nullable=True),
        sa.Column("interbank", sa.Double(), nullable=True),
        sa.Column("transparent", sa.Boolean(), nullable=False),
        sa.Column("collected", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(["import_id"], ["survey_imports.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_survey_observations_pair_period", "survey_observations", ["source_country", "destination_country", "period"]
    )
    op.create_index("ix_survey_observations_period_import", "survey_observations", ["period", "import_id"])


def downgrade():
    op.drop_index("ix_survey_observations_period_import", table_name="survey_observations")
    op.drop_index("ix_survey_observations_pair_period", table_name="survey_observations")
    op.drop_table("survey_observations")
    op.drop_table("survey_periods")
    op.drop_table("survey_corridors")
    op.drop_table("survey_imports")
