"""Drain on TERM (docs/OPERATIONS.md#stopping-an-instance-the-drain-on-term), by Python's signal module and SIGALRM
only; the state is one byte of memory the master shares with every worker it forks."""

from __future__ import annotations

import mmap
import signal
from collections.abc import Callable
from types import FrameType
from typing import Any

SERVING, DRAINING, STOPPING = 0, 1, 2
# how long a worker that got a TERM waits for its master to say it drains: signals sent to every process of an instance
# arrive together, and a TERM from a master that does not drain is gunicorn retiring the worker (a HUP, say)
MASTER_WAIT_S = 0.5


def _gunicorn_term() -> Callable[[int, FrameType | None], Any]:
    handler = signal.getsignal(signal.SIGTERM)
    assert callable(handler), "gunicorn set a function for TERM before any hook runs"
    return handler


class Drain:
    """This instance's drain: made by the master before it forks its workers, which share it."""

    def __init__(self, seconds: int) -> None:
        self.seconds = seconds
        self._state = mmap.mmap(-1, 1)  # anonymous and shared: a forked worker reads what the master writes

    @property
    def draining(self) -> bool:
        return self._state[0] != SERVING

    def watch_master(self, log: Any) -> None:
        """In the master: a TERM starts the drain; DRAIN_SECONDS later, or at a second TERM, gunicorn's TERM stops."""
        gunicorn_term = _gunicorn_term()

        def stop(signum: int, frame: FrameType | None) -> None:
            self._state[0] = STOPPING
            gunicorn_term(signal.SIGTERM, frame)

        def on_term(signum: int, frame: FrameType | None) -> None:
            if self._state[0] != SERVING:
                log.info("A second TERM: stopping now.")
                signal.setitimer(signal.ITIMER_REAL, 0)
                stop(signum, frame)
                return
            self._state[0] = DRAINING
            log.info(
                "TERM: draining for %d s (readiness fails, every request is served), then stopping; "
                "a second TERM stops now.",
                self.seconds,
            )
            signal.setitimer(signal.ITIMER_REAL, self.seconds)

        signal.signal(signal.SIGALRM, stop)
        signal.signal(signal.SIGTERM, on_term)

    def watch_worker(self) -> None:
        """In a worker: a TERM while the master drains is ignored (the master sends another when the drain is over);
        one from a master that does not drain is gunicorn's, handled as gunicorn handles it."""
        gunicorn_term = _gunicorn_term()

        def decide(signum: int, frame: FrameType | None) -> None:
            if self._state[0] != DRAINING:
                gunicorn_term(signal.SIGTERM, frame)

        def on_term(signum: int, frame: FrameType | None) -> None:
            state = self._state[0]
            if state == SERVING:  # perhaps the master has not heard its own TERM yet: look again in a moment
                signal.setitimer(signal.ITIMER_REAL, MASTER_WAIT_S)
            elif state == STOPPING:
                gunicorn_term(signum, frame)

        signal.signal(signal.SIGALRM, decide)
        signal.signal(signal.SIGTERM, on_term)
        signal.siginterrupt(signal.SIGTERM, False)  # as gunicorn has it: a TERM interrupts no request's system call
        signal.siginterrupt(signal.SIGALRM, False)
