"""Corridor API: what it really costs to send money from one currency to another."""

__version__ = "1.0.0"
