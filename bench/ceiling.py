"""The one-off quotes' ceiling: the service with an arbitrary amount's own work taken out (bench only).

Each request still goes through everything else the service does: routing, the key check, query
parsing, the corridor and sheet lookups, headers and the response. What an arbitrary amount costs
(ranking the sheet at it, writing its figures, hashing the body) is done once per sheet, at the
first amount asked, and that answer is served again. So its figures are wrong for any other
amount: it shows how close to the floor a one-off quote could come if that work cost nothing.
"""

from __future__ import annotations

from typing import Any, Callable

from flask import Flask

import corridor.endpoint
from app import create_app
from corridor.encoding import RawJSON
from corridor.quoting import QuoteSheet
from schemas.quotes import RankingWriter


def _first_answer(compute: Callable, key: Callable) -> Callable:
    """`compute`, answered once per `key(*args)`; a key of None is computed every time."""
    answers: dict[Any, Any] = {}

    def answer(*args: Any) -> Any:
        at = key(*args)
        if at is None:
            return compute(*args)
        found = answers.get(at)
        if found is None:
            found = answers[at] = compute(*args)
        return found

    return answer


def create_ceiling() -> Flask:
    """The service, with ranking, figure writing and body hashing answered once per sheet.

    It patches those for the whole process, so it runs in a gunicorn of its own:
    `gunicorn -c gunicorn.conf.py "bench.ceiling:create_ceiling()"`.

    A ranking is keyed by its id: every ranking is one that `rank` answered and keeps, so no id
    is reused while the process lives.
    """
    app = create_app()  # the kept responses are built before the patches
    QuoteSheet.rank = _first_answer(QuoteSheet.rank, lambda sheet, amount: sheet)
    RankingWriter.encode = _first_answer(RankingWriter.encode, lambda writer, ranking: (writer, id(ranking)))
    corridor.endpoint.make_body = _first_answer(
        corridor.endpoint.make_body, lambda payload: payload if isinstance(payload, RawJSON) else None)
    return app
