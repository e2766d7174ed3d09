"""The World Bank's published average cost by corridor and period, and the bilateral remittance matrix's flows.

Revision ID: 0005_published_and_flows
Revises: 0004_survey_notes
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_published_and_flows"
down_revision = "0004_survey_notes"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "published_imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.Column("figures", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "published_costs",
        sa.Column("source_country", sa.String(length=3), nullable=False),
        sa.Column("destination_country", sa.String(length=3), nullable=False),
        sa.Column("period", sa.String(length=6), nullable=False),
        sa.Column("cost", sa.Double(), nullable=False),
        sa.Column("source_name", sa.String(length=255), nullable=False),
        sa.Column("destination_name", sa.String(length=255), nullable=False),
        sa.PrimaryKeyConstraint("source_country", "destination_country", "period"),
    )
    op.create_table(
        "flow_imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=255), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "remittance_flows",
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("source_country", sa.String(length=3), nullable=False),
        sa.Column("destination_country", sa.String(length=3), nullable=False),
        sa.Column("usd_millions", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("year", "source_country", "destination_country"),
    )


def downgrade():
    op.drop_table("remittance_flows")
    op.drop_table("flow_imports")
    op.drop_table("published_costs")
    op.drop_table("published_imports")
