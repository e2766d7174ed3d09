"""Imports of the World Bank's files into the database: the survey (RPW), the published averages and the flows."""
