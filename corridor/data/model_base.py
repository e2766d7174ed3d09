"""The models' base class, `db.Model`, as mypy can take it: it takes no instance's attribute for a base class."""

from typing import TYPE_CHECKING

from corridor.data.database import Base, db

if TYPE_CHECKING:
    Model = Base  # what db.Model is made from: the same mapping, columns and metadata
else:
    Model = db.Model
