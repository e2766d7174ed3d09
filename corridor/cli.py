"""`flask data check` and `flask keys generate`: both work without API keys."""

import click
from flask import Flask, current_app
from flask.cli import AppGroup

from corridor.auth import generate_key
from corridor.seed import load_dataset, summary

data_cli = AppGroup("data", help="Work with data files.")
keys_cli = AppGroup("keys", help="Work with API keys.")


@data_cli.command("check")
@click.argument("path", required=False)
def check_data(path: str | None) -> None:
    """Validate PATH (default: SEED_DATA); print a summary, or the errors and exit 1."""
    path = path or current_app.config["SEED_DATA"]
    click.echo(f"{path}: OK, {summary(load_dataset(path))}")


@keys_cli.command("generate")
def generate_keys() -> None:
    """Print a new random key and the sha256: entry to put in API_KEYS instead of it."""
    key, entry = generate_key()
    click.echo(f"key:   {key}\nentry: {entry}")
    click.echo("Give the key to the client; put the key or, better, the entry in API_KEYS on the server.", err=True)


def register_commands(app: Flask) -> None:
    """Add the command groups to `flask --app app`."""
    app.cli.add_command(data_cli)
    app.cli.add_command(keys_cli)
