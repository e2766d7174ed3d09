"""The survey's notes: a row noted as a promotion's prices is served marked as one.

Revision ID: 0004_survey_notes
Revises: 0003_survey_regions
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_survey_notes"
down_revision = "0003_survey_regions"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey_observations") as table:
        table.add_column(sa.Column("note", sa.String(length=255), nullable=True))


def downgrade():
    with op.batch_alter_table("survey_observations") as table:
        table.drop_column("note")
