"""The rates the service fetches, one row per feed, and the data's version stamp every writer bumps.

Revision ID: 0007_rates_store
Revises: 0006_survey_by_pair
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_rates_store"
down_revision = "0006_survey_by_pair"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "feed_states",
        sa.Column("source", sa.String(length=20), primary_key=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(), nullable=False),
    )
    stamp = op.create_table(
        "data_stamp",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("fetch_started_at", sa.Float(), nullable=True),
        sa.Column("asked_at", sa.Float(), nullable=True),
        sa.Column("burst_at", sa.Float(), nullable=True),
    )
    op.bulk_insert(stamp, [{"id": 1, "version": 0}])


def downgrade():
    op.drop_table("data_stamp")
    op.drop_table("feed_states")
