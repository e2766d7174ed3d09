"""Alembic's environment for `flask --app app db …` (Flask-Migrate): the app's engine and models, and its log lines
written as the service's own."""

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

from corridor.serving.logs import format_as_json

config = context.config
if config.config_file_name is not None:
    fileConfig(config.config_file_name)  # alembic.ini's levels and handler
if current_app.config["LOG_FORMAT"] == "json":  # the migrations' lines as the service's own
    format_as_json(logging.getLogger())
migrate = current_app.extensions["migrate"]


def run_migrations_offline() -> None:
    """`flask db upgrade --sql`: the statements written out, from the database URL alone."""
    url = migrate.db.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=migrate.db.metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    def no_empty_revision(context, revision, directives):
        """`flask db migrate` writes no migration when the models have not changed."""
        if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
            directives[:] = []
            logging.getLogger("alembic.env").info("No changes in schema detected.")

    arguments = migrate.configure_args
    if arguments.get("process_revision_directives") is None:
        arguments["process_revision_directives"] = no_empty_revision
    with migrate.db.engine.connect() as connection:
        context.configure(connection=connection, target_metadata=migrate.db.metadata, **arguments)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
