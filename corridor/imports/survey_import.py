"""`flask prices import-rpw`: a survey file read, streaming, into the database, and what it did, said."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager

from sqlalchemy.engine import Engine

from corridor.domain.model import Corridor
from corridor.domain.observations import Observation
from corridor.imports.rpw import Sheet, observations, open_rpw
from corridor.imports.survey_db import ImportResult, import_observations
from corridor.imports.tabular import ImportRefused, Skips

# wraps a sheet's rows so as to show how far reading is: click's progress bar on a terminal
Progress = Callable[[Sheet], AbstractContextManager[Iterator[tuple[int, tuple]]]]
STATES = {"new": "new", "revised": "revised: replaces the {} imported before", "unchanged": "unchanged, kept"}


@dataclasses.dataclass
class ImportReport:
    path: str
    kind: str
    sheets: list[str]
    skips: Skips
    result: ImportResult

    def lines(self) -> list[str]:
        name, result = os.path.basename(self.path), self.result
        where = self.kind if self.kind == "CSV" else f"workbook, sheets {', '.join(repr(s) for s in self.sheets)}"
        imported = sum(p.rows.total() for p in result.periods.values())
        read = imported + self.skips.total
        if result.import_id is None:
            periods = sorted(result.periods)
            listed = periods[0] if len(periods) == 1 else f"{', '.join(periods[:-1])} and {periods[-1]}"
            return [
                f"{name} ({where}): {read:,} rows read. Nothing changed: {listed} "
                f"{'is' if len(periods) == 1 else 'are'} imported already with these very rows."
            ]
        lines = [
            f"{name} ({where}): {read:,} rows read, {imported:,} imported, {self.skips.total:,} skipped; "
            f"import {result.import_id}."
        ]
        for period, done in sorted(result.periods.items()):
            rows, replaced = _count(done.rows.total(), "row"), _count(done.replaced, "row")
            states = {state: text.format(replaced) for state, text in STATES.items() if done.pairs[state]}
            if len(states) == 1:
                lines.append(f"  {period}: {rows}, {next(iter(states.values()))}")
                continue
            each = (
                f"{_count(done.pairs[s], 'pair')} ({_count(done.rows[s], 'row')}) {text}" for s, text in states.items()
            )
            lines.append(f"  {period}: {rows} of {_count(done.pairs.total(), 'country pair')}: " + "; ".join(each))
        joined = [f"{a}-{b} (id {c.id}, {c.key})" for (a, b), c in sorted(result.joined.items())]
        new = [f"{a}-{b} (id {i})" for (a, b), i in sorted(result.new_corridors.items())]
        named = (("joined the data file's corridors", joined), ("new corridors", new))
        return [
            *lines,
            *self.skips.lines("row"),
            f"{_count(len(result.pairs), 'country pair')}, {_count(len(result.firms), 'firm')}"
            + "".join(f"; {what}: {', '.join(names)}" for what, names in named if names)
            + ".",
            "A running service serves it within seconds: every process reads the database's version stamp every 2 s.",
        ]


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def import_rpw(
    engine: Engine, path: str, progress: Progress, file_corridors: Callable[[], Iterable[Corridor]]
) -> ImportReport:
    """Read the survey file at `path` into the database in one transaction, each pair of `file_corridors` joining it."""
    kind, sheets, close = open_rpw(path)
    skips = Skips()

    def read() -> Iterator[tuple[int, Observation]]:
        found = False
        for sheet in sheets:
            with progress(sheet) as rows:
                for row in observations(dataclasses.replace(sheet, rows=rows), skips):
                    found = True
                    yield row
        if not found:  # the transaction is rolled back
            raise ImportRefused(
                f"{path}: no row can be imported ({skips.total:,} skipped):\n" + "\n".join(skips.lines("row"))
            )

    try:
        with open(path, "rb") as handle:
            sha256 = hashlib.file_digest(handle, "sha256").hexdigest()
        result = import_observations(engine, read(), os.path.basename(path), sha256, file_corridors)
    finally:
        close()
    return ImportReport(path, kind, [s.name for s in sheets], skips, result)
