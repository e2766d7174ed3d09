"""`flask prices import-rpw`: a survey file read into the database in one transaction, and what it did, said."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import replace

from sqlalchemy.engine import Engine

from corridor.domain.model import Corridor
from corridor.domain.observations import Observation
from corridor.imports.rpw import observations, sheets_of
from corridor.imports.survey_db import ImportResult, import_observations
from corridor.imports.tabular import ImportRefused, Rows, Skips, Table, open_tables, plural

# wraps a sheet's rows so as to show how far reading is: click's progress bar on a terminal
Progress = Callable[[Table], AbstractContextManager[Rows]]
STATES = {"new": "new", "revised": "revised: replaces the {} imported before", "unchanged": "unchanged, kept"}


def summary(file: str, skips: Skips, result: ImportResult) -> list[str]:
    """What an import did, as the command says it; `file`: the file's name and kind."""
    imported = sum(p.rows.total() for p in result.periods.values())
    read = imported + skips.counts.total()
    if result.import_id is None:
        periods = sorted(result.periods)
        listed = periods[0] if len(periods) == 1 else f"{', '.join(periods[:-1])} and {periods[-1]}"
        return [
            f"{file}: {read:,} rows read. Nothing changed: {listed} "
            f"{'is' if len(periods) == 1 else 'are'} imported already with these very rows."
        ]
    lines = [
        f"{file}: {read:,} rows read, {imported:,} imported, {skips.counts.total():,} skipped; "
        f"import {result.import_id}."
    ]
    for period, done in sorted(result.periods.items()):
        rows, replaced = plural(done.rows.total(), "row"), plural(done.replaced, "row")
        states = {state: text.format(replaced) for state, text in STATES.items() if done.pairs[state]}
        if len(states) == 1:
            lines.append(f"  {period}: {rows}, {next(iter(states.values()))}")
            continue
        each = (f"{plural(done.pairs[s], 'pair')} ({plural(done.rows[s], 'row')}) {text}" for s, text in states.items())
        lines.append(f"  {period}: {rows} of {plural(done.pairs.total(), 'country pair')}: " + "; ".join(each))
    joined = [f"{a}-{b} (id {c.id}, {c.key})" for (a, b), c in sorted(result.joined.items())]
    new = [f"{a}-{b} (id {i})" for (a, b), i in sorted(result.new_corridors.items())]
    named = (("joined the data file's corridors", joined), ("new corridors", new))
    return [
        *lines,
        *skips.lines("row"),
        f"{plural(len(result.pairs), 'country pair')}, {plural(len(result.firms), 'firm')}"
        + "".join(f"; {what}: {', '.join(names)}" for what, names in named if names)
        + ".",
        "A running service serves it within seconds: every process reads the database's version stamp every 2 s.",
    ]


def import_rpw(
    engine: Engine, path: str, progress: Progress, file_corridors: Callable[[], Iterable[Corridor]]
) -> list[str]:
    """Read the survey file at `path` into the database in one transaction, each pair of `file_corridors` joining it."""
    skips = Skips()

    def read() -> Iterator[tuple[int, Observation]]:
        found = False
        for sheet in sheets:
            with progress(sheet) as rows:
                for row in observations(replace(sheet, rows=rows), skips):
                    found = True
                    yield row
        if not found:  # the transaction is rolled back
            if not skips.counts:
                raise ImportRefused(f"{path}: it holds no row under its header; nothing was stored.")
            raise ImportRefused(
                f"{path}: no row can be imported ({skips.counts.total():,} skipped):\n" + "\n".join(skips.lines("row"))
            )

    with open_tables(path) as (kind, tables):
        sheets = sheets_of(path, kind, tables)
        with open(path, "rb") as handle:
            sha256 = hashlib.file_digest(handle, "sha256").hexdigest()
        result = import_observations(engine, read(), os.path.basename(path), sha256, file_corridors)
    where = kind if kind == "CSV" else f"workbook, sheets {', '.join(repr(s.name) for s in sheets)}"
    return summary(f"{os.path.basename(path)} ({where})", skips, result)
