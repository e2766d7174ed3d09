"""The wheel: `pip wheel` builds it from the tree, with every module and the data the service reads."""

import email
import shutil
import subprocess
import sys
import zipfile

from harness import ROOT

# what a checkout holds that is no part of the source: environments, caches, earlier builds
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv*", "__pycache__", "*.pyc", ".*_cache", ".hypothesis",
                                    ".schemathesis", "build", "dist", "*.egg-info")


def _source_files(package):
    """Every file of a package directory that a wheel must carry: its modules and its data."""
    return {path.relative_to(ROOT).as_posix() for path in (ROOT / package).rglob("*")
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc" and not path.name.startswith(".")}


def test_pip_builds_a_wheel_with_every_module_and_the_metadata(tmp_path):
    tree, out = tmp_path / "tree", tmp_path / "wheel"
    shutil.copytree(ROOT, tree, ignore=NOT_SOURCE)  # a copy: a build leaves build/ and *.egg-info behind
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check",
               "--wheel-dir", str(out), str(tree)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    [wheel] = out.glob("corridor_api-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(f"{info}/METADATA"))

    code = {name for name in names if not name.startswith(info)}
    assert code == {"app.py", "wsgi.py"} | _source_files("corridor") | _source_files("schemas")
    assert "corridor/web/assets/docs.js" in code  # the docs page's script, read from beside the module
    assert f"{info}/licenses/LICENSE" in names
    assert (metadata["Name"], metadata["License-Expression"]) == ("corridor-api", "MIT")
    assert metadata.get_payload().startswith("# Corridor API")  # the README
    # the runtime's direct dependencies are requirements.in's, unpinned
    wanted = [line.strip() for line in (ROOT / "requirements.in").read_text().splitlines()
              if line.strip() and not line.startswith("#")]
    assert sorted(metadata.get_all("Requires-Dist")) == sorted(wanted)
