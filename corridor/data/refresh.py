"""Data refresh without downtime: gunicorn's master checks the file, workers load a checked copy.

On start and on every HUP the master reads the data file once, validates those bytes and writes
them to a private snapshot, then points SEED_DATA at it for the workers it forks next. A file
that fails validation on HUP is refused with its errors logged; the new workers boot on the last
good snapshot, so a broken file never takes the service down.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from corridor.settings import DEFAULT_SEED
from corridor.domain.model import Dataset
from corridor.data.load import parse_dataset, read_data_file


class DataSnapshots:
    """The operator's data file and the last good copy of it that workers load."""

    def __init__(self, source: str | None = None) -> None:
        self.source = source or os.environ.get("SEED_DATA") or str(DEFAULT_SEED)
        self.directory = tempfile.mkdtemp(prefix="corridor-data-")
        self.current: str | None = None
        self.dataset: Dataset | None = None

    def take(self) -> Dataset:
        """Validate the source file now; on success make it the snapshot workers load (DataError if not)."""
        data = read_data_file(self.source)
        dataset = parse_dataset(data, self.source)
        # named after the source, so each worker's "Loaded …" line says which file it came from
        handle, path = tempfile.mkstemp(dir=self.directory, prefix=f"{Path(self.source).stem}-", suffix=".json")
        with os.fdopen(handle, "wb") as snapshot:
            snapshot.write(data)
        previous, self.current, self.dataset = self.current, path, dataset
        os.environ["SEED_DATA"] = path  # inherited by every worker forked from now on
        if previous is not None:
            Path(previous).unlink(missing_ok=True)
        return dataset

    def remove(self) -> None:
        """Delete the snapshots (master exit)."""
        shutil.rmtree(self.directory, ignore_errors=True)
