"""Every import's file, a workbook (.xlsx) or a CSV, read row by row within READ_BYTES of memory and READ_SECONDS."""

from __future__ import annotations

import codecs
import csv
import os
import re
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from corridor.data.files import NotRegularFile, read_regular_file

READ_BYTES = 512 * 2**20
# a sheet streams, but a cell is held whole: one that unpacks this many times over, beyond the size, is refused
SHEET_RATIO, SHEET_PACKED_BYTES = 100, 64 * 2**20
READ_SECONDS = 300
MAX_COLUMNS = 128  # a sheet's columns read unless an import says: the survey's published sheets have 42
ENCODINGS = {"utf-8-sig": "UTF-8", "cp1252": "Windows-1252"}

Rows = Iterator[tuple[int, tuple]]  # (row number as a spreadsheet shows it, cells)


class ImportRefused(Exception):
    """A file that cannot be imported at all; the message names the file and the cause."""


def column_key(name: Any) -> str:
    return re.sub(r"[\s_\-]+", "", str(name or "")).lower()


def plural(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"


@dataclass
class Skips:
    """Rows skipped, by reason: how many, and where the first five are."""

    counts: Counter[str] = field(default_factory=Counter)
    first: dict[str, list[str]] = field(default_factory=dict)

    def add(self, reason: str, where: str) -> None:
        self.counts[reason] += 1
        if len(self.first.setdefault(reason, [])) < 5:
            self.first[reason].append(where)

    def lines(self, unit: str = "") -> list[str]:
        return [
            f"  skipped, {reason}: {plural(count, unit) if unit else f'{count:,}'} "
            f"({', '.join(self.first[reason])}{', …' if count > 5 else ''})"
            for reason, count in sorted(self.counts.items())
        ]


@dataclass
class Table:
    """A sheet, or the CSV: its rows, how many the file says it has (for a progress bar), its header's keys → index."""

    name: str
    rows: Rows
    size: int | None = None
    columns: dict[str, int] = field(default_factory=dict)


@contextmanager
def open_tables(path: str, columns: int = MAX_COLUMNS) -> Iterator[tuple[str, list[Table]]]:
    """The file's kind (`workbook` or `CSV`) and its tables (a sheet's first `columns` columns), open while in use."""
    try:
        head = read_regular_file(path, 65535)  # 64 KB: enough to tell the kind, and a CSV's encoding
    except NotRegularFile as err:
        raise ImportRefused(str(err)) from None
    except OSError as err:
        raise ImportRefused(f"{path}: cannot read it: {err.strerror}.") from None
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        raise ImportRefused(f"{path} is an old Excel .xls workbook: open it in a spreadsheet and save it as .xlsx.")
    clock = _Clock(path)
    if head.startswith(b"PK\x03\x04"):
        kind, (tables, close) = "workbook", _workbook_tables(path, clock, columns)
    else:
        kind, (tables, close) = "CSV", _csv_table(path, clock, head)
    try:
        yield kind, tables
    finally:
        close()


@dataclass
class _Clock:
    """The time spent reading a file, the rows' consumers' aside; ImportRefused past READ_SECONDS."""

    path: str
    spent: float = 0.0

    def timed(self, rows: Rows) -> Rows:
        while True:
            start = time.monotonic()
            row = next(rows, None)
            self.add(time.monotonic() - start)
            if row is None:
                return
            yield row

    def add(self, seconds: float) -> None:
        self.spent += seconds
        if self.spent > READ_SECONDS:
            raise ImportRefused(
                f"{self.path}: refused: reading it takes more than {READ_SECONDS / 60:g} minutes; "
                "nothing of it was stored."
            )


def _check_archive(path: str) -> None:
    """ImportRefused if the XML parts openpyxl reads whole (all but the worksheets, which it streams) would take more
    than READ_BYTES of memory: about 30 bytes an XML tag and twice their text, from what the archive says it holds."""
    need = 0
    with zipfile.ZipFile(path) as archive:
        for part in archive.infolist():
            # a part not counted below: openpyxl finds a sheet by the workbook's links, whatever its name
            streamed = part.filename.startswith("xl/worksheets/") or not part.filename.endswith((".xml", ".rels"))
            if streamed and part.file_size > max(SHEET_PACKED_BYTES, SHEET_RATIO * part.compress_size):
                raise ImportRefused(
                    f"{path}: refused: its part {part.filename} unpacks to {part.file_size / 2**20:,.0f} MB from "
                    f"{part.compress_size / 2**20:,.1f} MB, more than {SHEET_RATIO} times over, as no sheet of real "
                    "rows does (a cell that large would be held whole); nothing of it was stored."
                )
            if streamed:
                continue
            need += 2 * part.file_size
            if need > READ_BYTES:
                break
            with archive.open(part) as stream:  # zipfile yields no more than the declared size
                need += 30 * sum(block.count(b"<") for block in iter(lambda: stream.read(1 << 20), b""))
    if need > READ_BYTES:
        raise ImportRefused(
            f"{path}: refused: reading it would take more than {READ_BYTES // 2**20} MB of memory (its "
            "shared strings, styles or other parts hold too much); nothing of it was stored."
        )


def _workbook_tables(path: str, clock: _Clock, columns: int) -> tuple[list[Table], Callable[[], None]]:
    from openpyxl import load_workbook  # only an import needs it: serving never loads it

    start = time.monotonic()
    try:
        _check_archive(path)
        book = load_workbook(path, read_only=True, data_only=True)
    except ImportRefused:
        raise
    except Exception as err:  # openpyxl's own, zipfile's, a missing part's KeyError: all say the same to the operator
        raise ImportRefused(
            f"{path} is a zip file but not an Excel workbook (.xlsx) openpyxl can read: {err}"
        ) from None
    clock.add(time.monotonic() - start)
    tables = []
    for name in book.sheetnames:
        sheet = book[name]
        size = sheet.max_row  # as its <dimension> says: enough to show progress by
        # read-only mode trusts <dimension>: stale, it cuts the rows short; huge, it pads them to millions of cells
        sheet.reset_dimensions()
        tables.append(
            Table(name, clock.timed(_sheet_rows(path, name, sheet.iter_rows(values_only=True, max_col=columns))), size)
        )
    return tables, book.close


def _sheet_rows(path: str, name: str, rows: Iterator[tuple]) -> Rows:
    """A sheet's rows, numbered; ImportRefused for a part openpyxl cannot read as it streams (cut short, not XML, a
    cell it cannot convert), as for one it cannot open."""
    number = 0
    try:
        for number, cells in enumerate(rows, start=1):
            yield number, cells
    except Exception as err:  # openpyxl's, the XML parser's, a bad cell's ValueError: all say the same to the operator
        raise ImportRefused(
            f"{path}, sheet {name!r}, after row {number:,}: the workbook is damaged and openpyxl cannot read on "
            f"({type(err).__name__}: {str(err)[:200]}); nothing of it was stored."
        ) from None


def _csv_table(path: str, clock: _Clock, sample: bytes) -> tuple[list[Table], Callable[[], None]]:
    half = len(sample) // 2  # UTF-16 without a byte-order mark: a NUL as nearly every other byte of Latin letters
    if sample.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (
        half > 0 and max(sample[::2].count(0), sample[1::2].count(0)) > 0.9 * half
    ):
        raise ImportRefused(f"{path} line 1: the file is UTF-16 text; save it as CSV UTF-8 and import that.")
    if b"\x00" in sample:
        raise ImportRefused(f"{path} is neither an Excel workbook (.xlsx) nor a CSV file: it holds binary data.")
    encoding = "utf-8-sig"
    try:
        codecs.getincrementaldecoder(encoding)().decode(sample, final=False)
    except UnicodeDecodeError:
        encoding = "cp1252"  # what a spreadsheet on Windows saves a CSV as
    handle = open(path, "rb")  # closed by the caller, once read
    reader = csv.reader(_decoded(handle, encoding, path))
    return [Table("CSV", clock.timed(_csv_rows(reader, path)))], handle.close


def ends_a_line(path: str) -> bool:
    """Whether the file's last byte ends a line: one cut short ends within a line."""
    with open(path, "rb") as handle:
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) in (b"\n", b"\r")


def _decoded(handle: BinaryIO, encoding: str, path: str) -> Iterator[str]:
    """The file's lines as text, each with its line ending; ImportRefused naming the first line not in `encoding`."""
    decoder = codecs.getincrementaldecoder(encoding)()
    # a line ends at CR, LF or CR LF, as the csv module expects: a file saved with CRs alone is read too
    lines = (line for chunk in handle for line in chunk.splitlines(keepends=True))
    for number, line in enumerate(lines, start=1):
        try:
            yield decoder.decode(line)
        except UnicodeDecodeError as err:
            raise ImportRefused(
                f"{path} line {number}: byte 0x{err.object[err.start]:02x} is not "
                f"{ENCODINGS[encoding]} text; save the file as CSV UTF-8 and import that."
            ) from None


def _csv_rows(reader: Any, path: str) -> Rows:
    """The rows, each with its line, one behind the reader; ImportRefused for what would import fewer rows than the file
    holds, unseen: a row over several lines with another number of cells than the row before (a stray quote takes the
    lines after it into one field; a cell written with line breaks in it keeps the count), and a last line with fewer
    cells than the one before and no line break (a file cut short)."""
    line, before, held = 0, (), None  # the last row's line; the cells before the last row; the last row
    try:
        for row in reader:
            if reader.line_num > line + 1 and held is not None and len(row) != len(held[1]):
                raise ImportRefused(
                    f"{path} lines {line + 1}–{reader.line_num}: a quoted field runs over several lines and leaves "
                    f'{len(row)} cells where the line before has {len(held[1])}, as after a stray quote ("): fix the '
                    "line and import again."
                )
            if held is not None:
                yield held
                before = held[1]
            line, held = reader.line_num, (reader.line_num, tuple(row))
    except csv.Error as err:
        reason = str(err)
        if "field limit" in reason:
            reason = f"a field is longer than {csv.field_size_limit():,} characters, the most the CSV reader takes"
        raise ImportRefused(f"{path} line {reader.line_num}: {reason}.") from None
    if held is None:
        return
    if len(held[1]) < len(before) and not ends_a_line(path):
        raise ImportRefused(
            f"{path} line {line}: the file ends within it ({len(held[1])} of {len(before)} cells, and no line break): "
            "it looks cut short; nothing of it was stored. Import the whole file."
        )
    yield held
