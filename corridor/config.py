"""Settings from the environment, and the error that refuses start-up."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Mapping

import click

DEFAULT_SEED = Path(__file__).resolve().parent.parent / "seed_data.json"


class ConfigError(click.ClickException):
    """Start-up is refused: the message says what to fix (the CLI prints it as `Error: …`)."""


def settings_from_env(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The app's settings: only environment variables, never files of secrets."""
    return {
        "API_KEYS": environ.get("API_KEYS", ""),
        "SEED_DATA": environ.get("SEED_DATA") or str(DEFAULT_SEED),
        "LOG_LEVEL": environ.get("LOG_LEVEL", "info").upper(),
    }
