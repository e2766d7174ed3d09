"""The folder where, with metrics on under gunicorn, every process writes its counts (prometheus_client's multiprocess
mode): prepared by gunicorn.conf.py before the app is loaded, so this module imports nothing but the standard
library."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import MutableMapping

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"  # prometheus_client's own setting, read when it is first imported
_OWN_DIR = "CORRIDOR_OWN_METRICS_DIR"  # a folder the master made, to be removed when it exits
_PREPARED = "CORRIDOR_METRICS_PREPARED_BY"  # the master that emptied the folder


def metrics_wanted(environ: MutableMapping[str, str]) -> bool:
    """Whether the environment turns metrics on."""
    return bool(environ.get("METRICS_TOKEN", "").strip() or environ.get("METRICS_PORT", "").strip())


def prepare_multiprocess_directory(environ: MutableMapping[str, str] = os.environ) -> str | None:
    """Under gunicorn, before the app is loaded: where every process writes its counts (PROMETHEUS_MULTIPROC_DIR, or a
    folder of this instance's own), emptied, since the counts of a previous run must not be added in; None if metrics
    are off."""
    if not metrics_wanted(environ):
        return None
    folder = environ.get(MULTIPROC_DIR, "").strip()
    if environ.get(_PREPARED) == str(os.getpid()):
        return folder  # gunicorn reads its settings again on HUP: the counts so far stay
    if folder:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        for name in os.listdir(folder):
            if name.endswith(".db"):
                os.unlink(os.path.join(folder, name))
    else:
        folder = tempfile.mkdtemp(prefix="corridor-metrics-")
        environ[_OWN_DIR] = folder  # removed again on exit
    environ[MULTIPROC_DIR] = folder
    environ[_PREPARED] = str(os.getpid())
    return folder


def remove_own_directory(environ: MutableMapping[str, str] = os.environ) -> None:
    """On the master's exit: the folder it made for the counts, if it made one."""
    folder = environ.get(_OWN_DIR)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def forget_process(pid: int) -> None:
    """A worker has exited: its live gauges go (its counters stay, added in at every scrape)."""
    if MULTIPROC_DIR in os.environ:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)
