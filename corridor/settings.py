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
        "PROXY_HOPS": environ.get("PROXY_HOPS", "0"),
    }


def proxy_hops(value: str | int) -> int:
    """How many proxies in front set X-Forwarded-For/Proto: 0 to 5."""
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or int(text) > 5:
        raise ConfigError(f"PROXY_HOPS must be a whole number from 0 to 5, not {text!r}.")
    return int(text)
