"""Every import's transaction: its rows inserted in batches, the run recorded, every running instance told last."""

from __future__ import annotations

import datetime as dt
import itertools
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import DateTime, String, Table, insert, text
from sqlalchemy.engine import Connection, Engine, RootTransaction
from sqlalchemy.orm import Mapped, mapped_column

from corridor.rates.store import bump_stamp

BATCH = 2000  # rows per INSERT: few round trips, little memory


class ImportRun:
    """One run of an import that changed something: its number (never reused) is the imported data's version."""

    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    file_name: Mapped[str] = mapped_column(String(255))
    imported_at: Mapped[dt.datetime] = mapped_column(DateTime())


@contextmanager
def transaction(engine: Engine) -> Iterator[tuple[Connection, RootTransaction]]:
    """The import's one transaction; once committed, every running instance takes it up within seconds."""
    with engine.connect() as connection, connection.begin() as begun:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SET LOCAL statement_timeout = 0"))  # the service's 3 s is for requests
        yield connection, begun
        if begun.is_active:
            bump_stamp(connection)


def batches(items: Iterable, size: int = BATCH) -> Iterator[list]:
    each = iter(items)  # read as the batches are: a generator's rows are never all in memory
    return iter(lambda: list(itertools.islice(each, size)), [])


def insert_all(connection: Connection, table: Table, rows: Iterable[dict]) -> None:
    for batch in batches(rows, BATCH):  # BATCH read now: a test makes it small
        connection.execute(insert(table), batch)


def record(connection: Connection, run: type[ImportRun], path: str, **values: Any) -> int:
    """The import's number, its run stored at the current second, UTC."""
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None, microsecond=0)
    return connection.execute(
        insert(run).values(file_name=os.path.basename(path)[:255], imported_at=now, **values).returning(run.id)
    ).scalar_one()
