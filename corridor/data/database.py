"""The database the instances share (accounts, imports, rates): SQLAlchemy through Flask-SQLAlchemy, its schema owned
by Alembic (Flask-Migrate)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Select, create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, Row, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.pool import NullPool

from corridor.settings import ConfigError

# inside the package, so that an installed copy migrates as a checkout does, from any folder
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
UPGRADE = ".venv/bin/flask --app app db upgrade"
# every migration's revision, oldest first (tests/test_migrations.py checks them against Alembic's): start-up
# compares the database with the last one without asking Alembic, and reads no folder when imported
REVISIONS = (
    "0001_accounts",
    "0002_survey",
    "0003_survey_regions",
    "0004_survey_notes",
    "0005_published_and_flows",
    "0006_survey_by_pair",
    "0007_rates_store",
)


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
if TYPE_CHECKING:
    Model = Base  # what db.Model is made from, as mypy can take it (no instance's attribute as a base class)
else:
    Model = db.Model


def engine_url(database_url: str) -> str:
    """DATABASE_URL as SQLAlchemy takes it: `postgres://` and `postgresql://` are psycopg 3's; or ConfigError."""
    scheme = urlsplit(database_url).scheme.lower()
    if scheme in ("postgres", "postgresql"):
        database_url = "postgresql+psycopg" + database_url[len(scheme) :]
    elif scheme not in ("sqlite", "postgresql+psycopg"):
        raise ConfigError(
            "DATABASE_URL must start with sqlite:/// or postgresql://, "
            f"not {scheme + '://' if scheme else 'a value without a scheme'}."
        )
    try:
        make_url(database_url)
    except ArgumentError:
        raise ConfigError("DATABASE_URL is not a database URL such as postgresql://user@host/name.") from None
    return database_url


def init_database(app: Flask) -> None:
    url = app.config["SQLALCHEMY_DATABASE_URI"] = engine_url(app.config["DATABASE_URL"])
    # parameters (emails, hashes) are left out of SQLAlchemy's error messages, which reach the log
    # a request waits 3 s for a connection from the pool before it answers 503
    options: dict[str, Any] = {"pool_pre_ping": True, "hide_parameters": True, "pool_timeout": 3}
    if url.startswith("postgresql"):
        # an unreachable server costs a request 3 s, not 2 minutes; a stalled one (a lock held, an overloaded server)
        # answers 503 after 3 s; one gone silent on the network is given up after 5 s
        options["connect_args"] = {"connect_timeout": 3, "options": "-c statement_timeout=3s", "tcp_user_timeout": 5000}
    app.config.setdefault("SQLALCHEMY_ENGINE_OPTIONS", options)
    db.init_app(app)
    Migrate(app, db, directory=str(MIGRATIONS))
    with app.app_context():
        if db.engine.dialect.name == "sqlite":  # else foreign keys go unchecked: a deleted account's keys stay
            event.listen(db.engine, "connect", lambda connection, record: connection.execute("PRAGMA foreign_keys=ON"))


_unpooled: dict[str, Engine] = {}


def unpooled_engine(app: Flask) -> Engine:
    """One per URL, its connections closed when released: for the master, whose forked workers must share none."""
    with app.app_context():
        url = db.engine.url  # as Flask-SQLAlchemy resolved it: a relative SQLite path is in the instance folder
    key = url.render_as_string(hide_password=False)
    if key not in _unpooled:
        options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]
        _unpooled[key] = create_engine(
            url, poolclass=NullPool, hide_parameters=True, connect_args=options.get("connect_args", {})
        )
    return _unpooled[key]


def error_reason(error: SQLAlchemyError) -> str:
    """The first line of what the database driver said, without SQLAlchemy's statement and parameters."""
    return str(getattr(error, "orig", None) or error).strip().splitlines()[0]


def migrations_pending(engine: Engine) -> str | None:
    """Why the database cannot be read yet, naming the command that fixes it; None when it is at the newest revision."""
    shown = engine.url.render_as_string(hide_password=True)
    try:
        with engine.connect() as connection:
            migrated = inspect(connection).has_table("alembic_version")
            current = set(connection.scalars(text("SELECT version_num FROM alembic_version"))) if migrated else set()
    except SQLAlchemyError as err:
        raise ConfigError(f"The database {shown} cannot be reached: {error_reason(err)}") from None
    if current == {REVISIONS[-1]}:
        return None
    if not current:
        return f"The database {shown} has no tables yet: run `{UPGRADE}` first."
    if current <= set(REVISIONS):
        return f"The database {shown} is behind the code's migrations: run `{UPGRADE}` first."
    raise ConfigError(
        f"The database {shown} is at revision {', '.join(sorted(current - set(REVISIONS)))}, "
        "which this code does not know: newer code migrated it; serve that code, or downgrade the "
        "database with it."
    )


T = TypeVar("T")
_held: dict[tuple[str, Callable], tuple[Row, Any]] = {}  # by database URL and reader: (the version read, what it made)


def read_versioned(engine: Engine, version: Select, read: Callable[[Connection, Row], T]) -> T | None:
    """What `read` makes of the imports, read again only when the one row the query `version` gives changes: its first
    column the latest import's number (None before any: then None), the others anything else that dates the result."""
    key = (engine.url.render_as_string(hide_password=False), read)
    with engine.connect() as connection:
        row = connection.execute(version).one()
        if row[0] is None:
            return None
        held = _held.get(key)
        if held is not None and held[0] == row:
            return held[1]
        value = read(connection, row)
    _held[key] = (row, value)
    return value
