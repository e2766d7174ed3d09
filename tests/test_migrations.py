"""The schema is Alembic's: `flask db upgrade` makes it and may run again; a server refuses a database behind it."""

import shutil

import psycopg
import pytest
import sqlalchemy as sa
from conftest import run_migration

from corridor.data.database import engine_url
from corridor.settings import ConfigError

HEAD = "0007_rates_store"


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request, tmp_path):
    """A database with no table yet, of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/empty.sqlite3"
        return
    request.getfixturevalue("postgres_url")  # skips where no PostgreSQL runs
    from conftest import POSTGRES_ADMIN

    name = f"corridor_empty_{request.node.name.split('[')[0][-20:]}"
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgresql://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def tables(url):
    engine = sa.create_engine(engine_url(url))
    try:
        with engine.connect() as connection:
            return set(sa.inspect(connection).get_table_names()), connection.execute(
                sa.text("SELECT version_num FROM alembic_version")
            ).scalar_one()
    finally:
        engine.dispose()


def test_upgrade_makes_the_schema_and_is_safe_to_run_twice(empty_database):
    for _ in range(2):
        code, output = run_migration(empty_database, "upgrade")
        assert code == 0, output
    assert tables(empty_database) == (
        {
            "accounts",
            "api_keys",
            "survey_imports",
            "survey_periods",
            "survey_corridors",
            "survey_observations",
            "published_imports",
            "published_costs",
            "flow_imports",
            "remittance_flows",
            "feed_states",
            "data_stamp",
            "alembic_version",
        },
        HEAD,
    )


def test_serving_knows_every_migration_in_order():
    from alembic.script import ScriptDirectory

    from corridor.data.database import MIGRATIONS, REVISIONS

    newest_first = [script.revision for script in ScriptDirectory(str(MIGRATIONS)).walk_revisions()]
    assert tuple(reversed(newest_first)) == REVISIONS


def test_the_models_and_the_migrations_agree(migrated_sqlite):
    code, output = run_migration(f"sqlite:///{migrated_sqlite}", "check")
    assert code == 0, output
    assert "No new upgrade operations detected." in output


def test_a_database_with_no_tables_is_served_without_imports_not_ready_naming_the_command(
    make_app, empty_database, caplog
):
    client = make_app(DATABASE_URL=empty_database).test_client()
    shown = empty_database.replace("postgresql://", "postgresql+psycopg://")
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING" and "database" in r.getMessage()] == [
        f"The database {shown} has no tables yet: run `.venv/bin/flask --app app db upgrade` first. "
        "Until then no import is served, and readiness fails."
    ]
    health = client.get("/api/poc/health")
    assert health.status_code == 503
    assert (health.json["ok"], health.json["status"]) == (False, "migrations_pending")
    assert client.get("/api/poc/corridors").status_code == 200


@pytest.fixture(params=["sqlite", "postgresql"])
def migrated_url(request, migrated_sqlite, tmp_path):
    """A migrated database of each kind: a copy of the session's SQLite one, or this run's PostgreSQL, at the newest
    revision again after the test."""
    if request.param == "sqlite":
        path = tmp_path / "migrated.sqlite3"
        shutil.copyfile(migrated_sqlite, path)
        yield f"sqlite:///{path}"
        return
    url = request.getfixturevalue("postgres_url")
    yield url
    set_revision(url, HEAD)


def set_revision(url, revision):
    engine = sa.create_engine(engine_url(url))
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE alembic_version SET version_num = :revision"), {"revision": revision})
    engine.dispose()


def test_a_server_refuses_a_database_at_a_revision_it_does_not_know(make_app, migrated_url):
    set_revision(migrated_url, "0002_newer")
    with pytest.raises(
        ConfigError,
        match=r"is at revision 0002_newer, which this code does not know: newer code "
        r"migrated it; serve that code, or downgrade the database with it\.",
    ):
        make_app(DATABASE_URL=migrated_url)


@pytest.mark.parametrize(
    "url, message",
    [
        ("mysql://root@127.0.0.1/test", "DATABASE_URL must start with sqlite:/// or postgresql://, not mysql://."),
        (
            "127.0.0.1:5432/test",
            "DATABASE_URL must start with sqlite:/// or postgresql://, not a value without a scheme.",
        ),
        (
            "postgresql://corridor:s3cret-pass@127.0.0.1:1/corridor",
            "The database postgresql+psycopg://corridor:***@127.0.0.1:1/corridor cannot be reached: ",
        ),
    ],
)
def test_an_unusable_database_url_is_refused_with_a_reason(make_app, url, message):
    with pytest.raises(ConfigError) as refused:
        make_app(DATABASE_URL=url)
    assert refused.value.format_message().startswith(message)
    assert "s3cret" not in refused.value.format_message()


def test_postgres_urls_use_psycopg_3():
    assert engine_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert engine_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert engine_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"
