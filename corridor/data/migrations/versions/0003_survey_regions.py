"""The survey's regions: the World Bank's regional averages are over the observations to a region.

Revision ID: 0003_survey_regions
Revises: 0002_survey
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_survey_regions"
down_revision = "0002_survey"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("survey_observations") as table:
        table.add_column(sa.Column("source_region", sa.String(length=255), nullable=True))
        table.add_column(sa.Column("destination_region", sa.String(length=255), nullable=True))


def downgrade():
    with op.batch_alter_table("survey_observations") as table:
        table.drop_column("destination_region")
        table.drop_column("source_region")
