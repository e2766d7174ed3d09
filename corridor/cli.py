"""`flask data check`, `flask keys generate`, `flask rates import-ecb`, `flask history show`: none needs API keys."""

import datetime as dt
import json

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from corridor.data.ecb import merge_into, read_ecb
from corridor.data.history import default_history_path, load_history
from corridor.data.load import load_dataset, read_data_file
from corridor.data.write import write_valid_data
from corridor.domain.history import INTERVALS
from corridor.domain.rounding import round_significant
from corridor.settings import whole_number
from corridor.web.auth import generate_key
from corridor.web.service import load_data

data_cli = AppGroup("data", help="Work with data files.")
keys_cli = AppGroup("keys", help="Work with API keys.")
rates_cli = AppGroup("rates", help="Update the rate tables.")
history_cli = AppGroup("history", help="Look at the ECB rate history.")


@data_cli.command("check")
@click.argument("path", required=False)
def check_data(path: str | None) -> None:
    """Check PATH (default: SEED_DATA) as serving would; print a summary, or why not and exit 1."""
    data = load_data(current_app, path)  # the size limit and validation, as serving does
    click.echo(data.summary.replace(": ", ": OK, ", 1))
    click.echo(data.history_summary.replace(": ", ": OK, ", 1))


@keys_cli.command("generate")
def generate_keys() -> None:
    """Print a new random key and the sha256: entry to put in API_KEYS instead of it."""
    key, entry = generate_key()
    click.echo(f"key:   {key}\nentry: {entry}")
    click.echo("Give the key to the client; put the key or, better, the entry in API_KEYS on the server.", err=True)


@rates_cli.command("import-ecb")
@click.argument("file")
@click.option("--data", "data_path", help="The data file to update (default: SEED_DATA).")
def import_ecb(file: str, data_path: str | None) -> None:
    """Update the interbank rates from the ECB's eurofxref-daily.xml or eurofxref.zip (or its CSV).

    Re-bases the euro rates to the data's base, sets as_of to the file's date, and replaces the
    data file atomically only if the result validates. The consumer table is another source and
    is left alone.
    """
    data_path = data_path or current_app.config["SEED_DATA"]
    ecb = read_ecb(file)
    load_dataset(data_path, whole_number(current_app.config, "DATA_MAX_MB") * 2**20)  # a file to update
    raw = json.loads(read_data_file(data_path))
    before = raw["as_of"]
    report = merge_into(raw, ecb)
    write_valid_data(raw, data_path)
    for code, old, new in report.changed:
        click.echo(f"changed  {code}: {old} -> {new}")
    click.echo(f"changed: {len(report.changed)}; unchanged: {', '.join(report.unchanged) or 'none'}")
    click.echo(f"kept their old rates (not in the ECB file): {', '.join(report.kept) or 'none'}")
    click.echo(f"in the ECB file but not in the data, ignored: {', '.join(report.ignored) or 'none'}")
    click.echo(f"as_of: {before} -> {raw['as_of']}; wrote {data_path}. Send gunicorn HUP to serve it.")


@history_cli.command("show")
@click.argument("from_code", metavar="FROM")
@click.argument("to_code", metavar="TO")
@click.option("--start", type=click.DateTime(["%Y-%m-%d"]), help="First day (default: end minus 365 days).")
@click.option("--end", type=click.DateTime(["%Y-%m-%d"]), help="Last day (default: the history's last).")
@click.option("--interval", type=click.Choice(tuple(INTERVALS)), default="day", show_default=True)
def show_history(from_code: str, to_code: str, start: dt.datetime | None, end: dt.datetime | None, interval: str) -> None:
    """Print the ECB rates of FROM in TO (HISTORY_DATA, or the shipped history) as a table."""
    path = current_app.config["HISTORY_DATA"] or default_history_path()
    history = load_history(path, whole_number(current_app.config, "DATA_MAX_MB") * 2**20)
    from_code, to_code = from_code.upper(), to_code.upper()
    for code in (from_code, to_code):
        if code not in history.currencies:
            raise click.ClickException(f"The ECB history has no rates for {code}; it has {', '.join(history.currencies)}.")
    first, last = history.default_range(start and start.date(), end and end.date())
    if first > last:
        raise click.ClickException(f"--start {first} is after --end {last}.")
    points = history.series(from_code, to_code, first, last, interval)
    click.echo(f"{from_code}→{to_code}, ECB, {interval}, {first} to {last}: {len(points)} points")
    click.echo(f"{'date':<10}  {'rate':>12}")
    for point in points:
        click.echo(f"{point.date.isoformat():<10}  {round_significant(point.rate, 6):>12}")


def register_commands(app: Flask) -> None:
    """Add the command groups to `flask --app app`."""
    app.cli.add_command(data_cli)
    app.cli.add_command(keys_cli)
    app.cli.add_command(rates_cli)
    app.cli.add_command(history_cli)
