"""The wheel: `pip wheel` builds it from the tree with every module and the data; installed, it serves."""

import email
import json
import shutil
import subprocess
import sys
import zipfile

import pytest
from conftest import RAW_KEY, running_gunicorn
from harness import DIRECT, ROOT, gunicorn_env

# what a checkout holds that is no part of the source: environments, caches (.cache holds the TypeScript client's
# node_modules, written while this copies when the suite runs in parallel), local databases, earlier builds
NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv*",
    "__pycache__",
    "*.pyc",
    ".cache",
    ".*_cache",
    ".hypothesis",
    ".schemathesis",
    "instance",
    "build",
    "dist",
    "*.egg-info",
)


def _source_files(package):
    """Every file of a package directory that a wheel must carry: its modules and its data."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / package).rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and path.suffix != ".pyc"
        and not path.name.startswith(".")
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """The wheel pip builds from a copy of the tree (a build leaves build/ and *.egg-info behind)."""
    work = tmp_path_factory.mktemp("wheel")
    shutil.copytree(ROOT, work / "tree", ignore=NOT_SOURCE, symlinks=True)
    command = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--quiet",
        "--disable-pip-version-check",
        "--wheel-dir",
        str(work / "out"),
        str(work / "tree"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    [built] = (work / "out").glob("corridor_api-*.whl")
    return built


def test_pip_builds_a_wheel_with_every_module_and_the_metadata(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(f"{info}/METADATA"))
        shipped = archive.read("corridor/data/seed_data.json")

    code = {name for name in names if not name.startswith(info)}
    assert code == {"app.py", "wsgi.py"} | _source_files("corridor") | _source_files("schemas")
    assert "corridor/pages/assets/docs.js" in code and "corridor/pages/templates/docs.html" in code
    assert "corridor/accounts/templates/account/layout.html" in code
    assert shipped == (ROOT / "seed_data.json").read_bytes()  # the file itself, not the checkout's link to it
    assert f"{info}/licenses/LICENSE" in names
    assert (metadata["Name"], metadata["License-Expression"]) == ("corridor-api", "MIT")
    assert metadata.get_payload().startswith("# Corridor API")  # the README
    # the runtime's direct dependencies are requirements.in's, unpinned
    wanted = [
        line.strip()
        for line in (ROOT / "requirements.in").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert sorted(metadata.get_all("Requires-Dist")) == sorted(wanted)


def test_an_installed_copy_serves_the_shipped_data_and_page_from_another_folder(wheel, tmp_path):
    installed, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--quiet",
            "--disable-pip-version-check",
            "--target",
            str(installed),
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    # the Procfile's release step, then gunicorn wsgi:app, as a deployment without this repository runs them: no
    # gunicorn.conf.py, no checkout, the migrations from the package
    database = f"sqlite:///{tmp_path}/installed.sqlite3"
    env = gunicorn_env(PYTHONPATH=str(installed), DATABASE_URL=database)
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", "db", "upgrade"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Running upgrade  -> 0001_accounts" in result.stderr
    with running_gunicorn(
        tmp_path / "gunicorn.log",
        command=["gunicorn", "--workers", "1", "wsgi:app"],
        cwd=elsewhere,
        PYTHONPATH=str(installed),
        API_KEYS=RAW_KEY,
        WEB_CONCURRENCY="1",
        DATABASE_URL=database,
    ) as server:
        with DIRECT.open(f"{server.base}/api/poc/health", timeout=5) as response:
            health = json.load(response)
        with DIRECT.open(f"{server.base}/", timeout=5) as response:
            page = response.read().decode()
    assert health["dataAsOf"] == json.loads((ROOT / "seed_data.json").read_text())["as_of"]
    assert 'id="quote-form"' in page
    assert f"{installed}/corridor/data/seed_data.json" in server.log.read_text()
