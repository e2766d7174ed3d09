"""Group B blueprint, `/api/poc/`: camelCase, display strings, public (SPEC §4)."""

from flask import Blueprint

bp = Blueprint("poc", __name__, url_prefix="/api/poc")
