"""Reading a file an operator names: only a regular file, and no more of it than a bound."""

from __future__ import annotations

import os
import stat


class NotRegularFile(ValueError):
    """A FIFO, a device or a folder: reading it could block until something writes to it, or never end."""


def read_regular_file(path: str, max_bytes: int | None = None) -> bytes:
    """The file's bytes, or its first `max_bytes` + 1 (one more than the bound tells a file over it); NotRegularFile,
    or the OSError `open` raises."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise NotRegularFile(f"{path} is not a regular file (a FIFO, a device or a folder): import a saved file.")
    with open(path, "rb") as handle:
        return handle.read() if max_bytes is None else handle.read(max_bytes + 1)
