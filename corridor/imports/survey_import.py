"""`flask prices import-rpw`: a survey file read, streaming, into the database, and what it did, said."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager

from sqlalchemy.engine import Engine

from corridor.domain.model import Corridor
from corridor.domain.survey import Observation
from corridor.imports.rpw import Sheet, observations, open_rpw
from corridor.imports.survey_db import ImportResult, import_observations
from corridor.imports.tabular import ImportRefused, Skips

# wraps a sheet's rows so as to show how far reading is: click's progress bar on a terminal
Progress = Callable[[Sheet], AbstractContextManager[Iterator[tuple[int, tuple]]]]


@dataclasses.dataclass
class ImportReport:
    """An import: the file, what was read and skipped, and what the database took."""

    path: str
    kind: str
    sheets: list[str]
    skips: Skips
    result: ImportResult

    @property
    def imported(self) -> int:
        return sum(p.rows for p in self.result.periods.values())

    def lines(self) -> list[str]:
        """The summary printed at the end."""
        name = os.path.basename(self.path)
        where = self.kind if self.kind == "CSV" else f"workbook, sheets {', '.join(repr(s) for s in self.sheets)}"
        read = self.imported + self.skips.total
        periods = self.result.periods
        if self.result.import_id is None:
            return [
                f"{name} ({where}): {read:,} rows read. Nothing changed: {_listed(sorted(periods))} "
                f"{'is' if len(periods) == 1 else 'are'} imported already with these very rows."
            ]
        lines = [
            f"{name} ({where}): {read:,} rows read, {self.imported:,} imported, {self.skips.total:,} skipped; "
            f"import {self.result.import_id}."
        ]
        for period, done in sorted(periods.items()):
            revised = f"revised: replaces the {_count(done.replaced, 'row')} imported before"
            states = [
                (counts, state)
                for counts, state in ((done.new, "new"), (done.revised, revised), (done.unchanged, "unchanged, kept"))
                if counts.pairs
            ]
            if len(states) == 1:
                lines.append(f"  {period}: {_count(done.rows, 'row')}, {states[0][1]}")
                continue
            pairs = sum(counts.pairs for counts, _ in states)
            lines.append(
                f"  {period}: {_count(done.rows, 'row')} of {_count(pairs, 'country pair')}: "
                + "; ".join(
                    f"{_count(counts.pairs, 'pair')} ({_count(counts.rows, 'row')}) {state}" for counts, state in states
                )
            )
        lines += skipped_lines(self.skips)
        joined = [f"{a}-{b} (id {c.id}, {c.key})" for (a, b), c in sorted(self.result.joined.items())]
        new = [f"{a}-{b} (id {i})" for (a, b), i in sorted(self.result.new_corridors.items())]
        lines.append(
            f"{_count(len(self.result.pairs), 'country pair')}, {_count(len(self.result.firms), 'firm')}"
            + "".join(
                f"; {what}: {', '.join(names)}"
                for what, names in (("joined the data file's corridors", joined), ("new corridors", new))
                if names
            )
            + "."
        )
        lines.append(
            "A running service serves it within seconds: every process reads the database's version stamp every 2 s."
        )
        return lines


def skipped_lines(skips: Skips) -> list[str]:
    """Each reason rows were skipped for: how many, and the first five."""
    return [
        f"  skipped, {reason}: {count:,} row{'s' if count > 1 else ''} ({', '.join(skips.first[reason])}"
        f"{', …' if count > 5 else ''})"
        for reason, count in sorted(skips.counts.items())
    ]


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def import_rpw(
    engine: Engine, path: str, progress: Progress, file_corridors: Callable[[], Iterable[Corridor]]
) -> ImportReport:
    """Read the survey file at `path` into the database in one transaction, each pair of `file_corridors` joining its
    corridor; ImportRefused (nothing stored) if it cannot be imported at all."""
    kind, sheets, close = open_rpw(path)
    skips = Skips()
    try:
        rows = _read(sheets, skips, progress)
        result = import_observations(engine, rows, os.path.basename(path), _sha256(path), file_corridors)
    except _NoRow:
        raise ImportRefused(
            f"{path}: no row can be imported ({skips.total:,} skipped):\n" + "\n".join(skipped_lines(skips))
        ) from None
    finally:
        close()
    return ImportReport(path, kind, [s.name for s in sheets], skips, result)


class _NoRow(Exception):
    """The file held no row that could be imported: the transaction is rolled back."""


def _read(sheets: list[Sheet], skips: Skips, progress: Progress) -> Iterator[tuple[int, Observation]]:
    found = False
    for sheet in sheets:
        with progress(sheet) as rows:
            for row in observations(dataclasses.replace(sheet, rows=rows), skips):
                found = True
                yield row
    if not found:
        raise _NoRow()


def _sha256(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()
