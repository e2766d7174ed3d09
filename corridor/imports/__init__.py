"""Imports of the World Bank's files: the survey (RPW), the published averages and the money flows, read within
bounds and stored in the database."""
