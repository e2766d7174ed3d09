"""`flask data check`, `keys generate`, `rates fetch`, `rates import-ecb`, `prices import-rpw`,
`prices import-published`, `flows import`, `history show`: none needs API keys."""

import datetime as dt
import json
import sys
from collections.abc import Callable
from contextlib import nullcontext

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy.exc import SQLAlchemyError

from corridor.data.database import db, error_reason, migrations_pending
from corridor.data.keys import generate_key
from corridor.data.load import DataError, load_dataset, parse_dataset, read_data_file
from corridor.data.write import write_valid_data
from corridor.domain.history import INTERVALS
from corridor.domain.model import Corridor, Dataset
from corridor.domain.rounding import round_significant
from corridor.imports.flows import import_flows
from corridor.imports.published import import_published
from corridor.imports.survey_import import import_rpw
from corridor.imports.tabular import ImportRefused, Table
from corridor.rates.ecb import ImportReport, merge_into, read_ecb
from corridor.rates.history import default_history_path, load_history
from corridor.rates.live import LiveRates, file_day, refresh_live
from corridor.rates.store import read_live, write_live
from corridor.serving.logs import json_line
from corridor.settings import CommandError, current_settings
from corridor.state.versions import load_data


def say(text: str, err: bool = False) -> None:
    """A command's output on stdout (stderr if `err`): as text, or with LOG_FORMAT=json each line one JSON object, as
    the service logs them."""
    if current_settings().log_format != "json":
        click.echo(text, err=err)
        return
    for line in text.splitlines():
        click.echo(json_line(line.strip(), "corridor.cli"), err=err)


data_cli = AppGroup("data", help="Work with data files.")
keys_cli = AppGroup("keys", help="Work with API keys.")
rates_cli = AppGroup("rates", help="Update the rate tables.")
history_cli = AppGroup("history", help="Look at the ECB rate history.")
prices_cli = AppGroup("prices", help="Import surveyed prices and the World Bank's published averages.")
flows_cli = AppGroup("flows", help="Import the money sent between countries.")


@data_cli.command("check")
@click.argument("path", required=False)
def check_data(path: str | None) -> None:
    """Check PATH (default: SEED_DATA) as serving would, without the survey's prices; print a summary, or why not and
    exit 1."""
    data = load_data(current_app, path, survey=False)  # the size limit and validation, as serving does
    say(data.sources.summary.replace(": ", ": OK, ", 1))
    say(data.sources.history_summary.replace(": ", ": OK, ", 1))


@keys_cli.command("generate")
def generate_keys() -> None:
    """Print a new random key and the sha256: entry to put in API_KEYS instead of it."""
    key, entry = generate_key()
    say(f"key:   {key}\nentry: {entry}")
    say("Give the key to the client; put the key or, better, the entry in API_KEYS on the server.", err=True)


@rates_cli.command("import-ecb")
@click.argument("file")
@click.option("--data", "data_path", help="The data file to update (default: SEED_DATA).")
def import_ecb(file: str, data_path: str | None) -> None:
    """Update the interbank rates from the ECB's eurofxref-daily.xml or eurofxref.zip (or its CSV).

    Re-bases the euro rates to the data's base, records ECB and the file's day as their source, moves
    as_of to that day if it is later, keeps each consumer rate's margin, and replaces the data file atomically only
    if the result validates. A file older than the data file's ECB rates is refused, as the service ignores an older
    day from the feed. For use offline; `rates fetch` asks the feeds themselves.
    """
    data_path = data_path or current_settings().seed_data
    ecb = read_ecb(file)
    raw, dataset = _data_file(data_path)
    in_force = file_day("ECB", dataset.rates)
    if in_force is not None and ecb.date < in_force:
        raise CommandError(
            f"{file} holds the ECB's rates of {ecb.date}, older than the data file's ({in_force}): nothing was written."
        )
    before = raw["as_of"]
    report = merge_into(raw, [ecb])
    if ecb.date > dt.date.fromisoformat(before):  # as_of never goes back: the other rates may be newer
        for code in report.kept:  # the file's own rates: dated by as_of, which moves to the ECB's day
            raw["rates"]["sources"].setdefault(code, {"source": "data file", "date": before})
        raw["rates"]["sources"] = dict(sorted(raw["rates"]["sources"].items()))
        raw["as_of"] = ecb.date.isoformat()
    write_valid_data(raw, data_path)
    _print_report(report, data_path)
    say(f"as_of: {before} -> {raw['as_of']}" if raw["as_of"] != before else f"as_of: {before}, kept: not older")


@rates_cli.command("fetch")
@click.option("--data", "data_path", help="The data file to update (default: SEED_DATA).")
@click.option("--accept", is_flag=True, help="Take a day that moves the rates too far to be served unconfirmed.")
def fetch_rates(data_path: str | None, accept: bool) -> None:
    """Ask the ECB and Frankfurter once (ECB_RATES_URL, FRANKFURTER_URL) and merge their rates into the data file.

    The ECB's rate wins for a currency it publishes, Frankfurter's for the others; each rate records
    its source and day, and each consumer rate keeps its margin. The file is replaced atomically,
    only if the result validates; when every feed fails it is left untouched and the exit code is 1.
    The rates are stored in DATABASE_URL too, where every running instance takes them up within seconds;
    a database that is not migrated is refused before a feed is asked, and one that refuses the rates
    leaves the file untouched (exit 1).
    A day that moves a rate more than 2-fold (or most rates more than 25 %) is held back, as the
    service holds it, unless --accept: then it is written, and a HUP serves the file everywhere.
    """
    data_path = data_path or current_settings().seed_data
    raw, dataset = _data_file(data_path)
    live = LiveRates.configured(current_settings())
    if all(feed.url is None for feed in live.feeds):
        raise CommandError("ECB_RATES_URL and FRANKFURTER_URL are both off: there is no feed to ask.")
    pending = migrations_pending(db.engine)  # before a feed is asked: the rates could not be stored
    if pending:
        raise CommandError(pending)
    written = False
    try:
        with db.engine.connect() as connection:  # held against the rates the service serves, as it holds them
            live = read_live(connection, live)
        now = dt.datetime.now(dt.UTC).replace(microsecond=0)
        live = refresh_live(live, dataset, None, now, current_app.logger, accept)
        for feed in live.feeds:
            say(f"{feed.source}: {feed.status}" + (f" ({feed.error})" if feed.error and feed.url else ""))
        if not any(feed.status == "ok" for feed in live.feeds):
            raise CommandError(f"Every feed failed; {data_path} is untouched.")
        report = merge_into(raw, live.feed_rates)
        with db.engine.begin() as connection:  # every running instance serves them within seconds
            write_live(connection, live, now)
            write_valid_data(raw, data_path)  # inside the transaction: a file that cannot be written stores nothing
            written = True
    except SQLAlchemyError as err:
        reason = error_reason(err)
        if written:  # the commit failed: rare, but the file is new
            raise CommandError(f"{data_path} is written, but the database refused its rates: {reason}") from None
        raise CommandError(f"The database refused the rates, so {data_path} is untouched: {reason}") from None
    _print_report(report, data_path)


def _data_file(path: str) -> tuple[dict, Dataset]:
    """A valid data file to update, read once: as JSON, and as served."""
    data = read_data_file(path, current_settings().data_max_mb * 2**20)
    dataset = parse_dataset(data, path)
    return json.loads(data), dataset


def _print_report(report: ImportReport, path: str) -> None:
    for code, old, new, source in report.changed:
        say(f"changed  {code}: {old} -> {new} ({source.source}, {source.date})")
    say(f"changed: {len(report.changed)}; unchanged: {', '.join(report.unchanged) or 'none'}")
    say(f"kept their old rates (no feed gives them): {', '.join(report.kept) or 'none'}")
    say(f"given but not in the data, ignored: {', '.join(report.ignored) or 'none'}")
    say(f"wrote {path}. Send gunicorn HUP to serve it.")


@prices_cli.command("import-rpw")
@click.argument("path", type=click.Path(dir_okay=False))
def import_rpw_command(path: str) -> None:
    """Import the World Bank's Remittance Prices Worldwide survey into DATABASE_URL: its workbook (.xlsx) as
    published, or a CSV of its rows.

    One transaction: a file that fails halfway changes nothing, and the same file again changes nothing. A period
    already imported is replaced whole by a release that publishes it again. A row that cannot be read is skipped and
    counted; a file with no usable row, or without the required columns, is refused (exit 1).
    """

    def progress(sheet: Table):
        # a log or a pipe: the summary says it all
        if not sys.stdout.isatty() or current_settings().log_format == "json":
            return nullcontext(sheet.rows)
        label = "Reading rows" if sheet.name == "CSV" else f"Reading {sheet.name!r}"
        return click.progressbar(sheet.rows, length=sheet.size, label=label, show_pos=True)

    def file_corridors() -> tuple[Corridor, ...]:
        try:
            return load_dataset(current_settings().seed_data).corridors
        except DataError:
            return ()  # serving refuses a broken file on its own terms

    _database_import(path, lambda: import_rpw(db.engine, path, progress, file_corridors))


@prices_cli.command("import-published")
@click.argument("path", type=click.Path(dir_okay=False))
def import_published_command(path: str) -> None:
    """Import the World Bank's published average cost of each corridor by quarter (a DataBank CSV export of series
    ATCR.CORR) into DATABASE_URL.

    One transaction, and the same file again changes nothing. Each figure replaces the one stored for its corridor and
    period; `..` is no figure. A figure that cannot be read is skipped and counted; a file of another layout is refused
    (exit 1).
    """
    _database_import(path, lambda: import_published(db.engine, path).lines())


@flows_cli.command("import")
@click.argument("path", type=click.Path(dir_okay=False))
def import_flows_command(path: str) -> None:
    """Import the KNOMAD/World Bank bilateral remittance matrix (.xlsx, US$ millions) into DATABASE_URL.

    The year comes from the sheet's title; one transaction replaces that year's figures whole, and the same file again
    changes nothing. A country the import cannot name refuses the file (exit 1), naming the name and its cell.
    """
    _database_import(path, lambda: import_flows(db.engine, path).lines())


def _database_import(path: str, run: Callable[[], list[str]]) -> None:
    """Print an import's summary; a file or a database that refuses it is the command's error."""
    try:
        lines = run()
    except ImportRefused as err:
        raise CommandError(str(err)) from None
    except SQLAlchemyError as err:
        raise CommandError(
            f"{path}: the database refused the import, so nothing of it was stored: {error_reason(err)}"
        ) from None
    for line in lines:
        say(line)


@history_cli.command("show")
@click.argument("from_code", metavar="FROM")
@click.argument("to_code", metavar="TO")
@click.option("--start", type=click.DateTime(["%Y-%m-%d"]), help="First day (default: end minus 365 days).")
@click.option("--end", type=click.DateTime(["%Y-%m-%d"]), help="Last day (default: the history's last).")
@click.option("--interval", type=click.Choice(tuple(INTERVALS)), default="day", show_default=True)
def show_history(
    from_code: str, to_code: str, start: dt.datetime | None, end: dt.datetime | None, interval: str
) -> None:
    """Print the ECB rates of FROM in TO (HISTORY_DATA, or the shipped history) as a table."""
    path = current_settings().history_data or default_history_path()
    history = load_history(path, current_settings().data_max_mb * 2**20)
    from_code, to_code = from_code.upper(), to_code.upper()
    for code in (from_code, to_code):
        if code not in history.currencies:
            raise CommandError(f"The ECB history has no rates for {code}; it has {', '.join(history.currencies)}.")
    first, last = history.default_range(start and start.date(), end and end.date())
    if first > last:
        raise CommandError(f"--start {first} is after --end {last}.")
    points = history.series(from_code, to_code, first, last, interval)
    say(f"{from_code}→{to_code}, ECB, {interval}, {first} to {last}: {len(points)} points")
    say(f"{'date':<10}  {'rate':>12}")
    for point in points:
        say(f"{point.date.isoformat():<10}  {round_significant(point.rate, 6):>12}")


def register_commands(app: Flask) -> None:
    for group in (data_cli, keys_cli, rates_cli, history_cli, prices_cli, flows_cli):
        app.cli.add_command(group)
