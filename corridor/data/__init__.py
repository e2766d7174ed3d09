"""The store: the data file (read, validated, written), the operator's keys, and the database with its migrations."""
