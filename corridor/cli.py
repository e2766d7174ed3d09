"""`flask data check`, `flask keys generate`, `flask rates import-ecb`: none needs API keys."""

import json

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from corridor.data.ecb import merge_into, read_ecb
from corridor.data.load import load_dataset, read_data_file
from corridor.data.write import write_valid_data
from corridor.settings import whole_number
from corridor.web.auth import generate_key
from corridor.web.service import load_data

data_cli = AppGroup("data", help="Work with data files.")
keys_cli = AppGroup("keys", help="Work with API keys.")
rates_cli = AppGroup("rates", help="Update the rate tables.")


@data_cli.command("check")
@click.argument("path", required=False)
def check_data(path: str | None) -> None:
    """Check PATH (default: SEED_DATA) as serving would; print a summary, or why not and exit 1."""
    data = load_data(current_app, path)  # the size limit, validation, and every body built
    click.echo(data.summary.replace(": ", ": OK, ", 1))


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


def register_commands(app: Flask) -> None:
    """Add the command groups to `flask --app app`."""
    app.cli.add_command(data_cli)
    app.cli.add_command(keys_cli)
    app.cli.add_command(rates_cli)
