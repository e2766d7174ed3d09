"""The docs write every `flask` command one way, the venv's (`.venv/bin/flask --app app …`), which works after
`make run` whatever other Flask is on the PATH; and each command they name exists."""

import re

import pytest
from harness import ROOT

DOCS = sorted(
    [
        "README.md",
        "CONTRIBUTING.md",
        "Makefile",
        *(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md")),
    ]
)
# a bare `flask` that runs something; the Procfile's own line, quoted as the platform runs it, is the one exception
BARE = re.compile(r"(?<![\w./-])(?<!release: )flask (?:--app|run|db|data|keys|rates|prices|history|flows)\b")
VENV = re.compile(r"\.venv/bin/flask --app app ([a-z-]+)(?: ([a-z-]+))?")


@pytest.mark.parametrize("name", DOCS)
def test_the_docs_name_no_bare_flask_command(name):
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    assert [f"{name}:{n}: {line}" for n, line in enumerate(lines, 1) if BARE.search(line)] == []


def test_every_command_of_ours_the_docs_name_exists(app):
    named = {match.groups() for name in DOCS for match in VENV.finditer((ROOT / name).read_text(encoding="utf-8"))}
    assert {"db", "data", "keys", "rates", "prices", "history", "run"} <= {group for group, _ in named}
    ours = app.cli.commands  # `db` and `run` are Flask-Migrate's and Flask's
    missing = [
        f"{group} {command}"
        for group, command in sorted(named, key=str)
        if group in ours and command not in ours[group].commands
    ]
    assert missing == []
