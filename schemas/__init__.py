"""marshmallow schemas: load schemas validate the seed and queries, dump schemas shape responses."""
