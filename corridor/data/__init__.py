"""Data files: reading and validating them, writing them, importing ECB rates."""
