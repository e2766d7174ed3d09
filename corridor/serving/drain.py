"""Drain on TERM: the instance stops being chosen before it stops.

On TERM, gunicorn's master closes its listening socket at once, and connections still waiting in the socket's queue are
reset. With DRAIN_SECONDS, a TERM first turns the instance's readiness to failing (`/api/poc/health` answers 503,
status `draining`) while every worker keeps serving; once DRAIN_SECONDS have passed, the master hands the TERM to
gunicorn, which stops as it always does. A platform that signals every process of the instance at once (Heroku does)
is served the same: a worker that gets a TERM waits a moment to see whether its master is draining, and serves on if so.

Python's signal module and SIGALRM only: each TERM handler wraps the one gunicorn set, and calls it when the stop is
due. The state lives in one byte of memory the master shares with every worker it forks.
"""

from __future__ import annotations

import mmap
import signal
from types import FrameType
from typing import Any

SERVING, DRAINING, STOPPING = 0, 1, 2
# how long a worker that got a TERM waits for its master to say it drains: signals sent to every process of an instance
# arrive together, and a TERM from a master that does not drain is gunicorn retiring the worker (a HUP, say)
MASTER_WAIT_S = 0.5


class Drain:
    """This instance's drain: made by the master before it forks its workers, which share it."""

    def __init__(self, seconds: int) -> None:
        self.seconds = seconds
        self._state = mmap.mmap(-1, 1)  # anonymous and shared: a forked worker reads what the master writes

    @property
    def draining(self) -> bool:
        """Whether a TERM has come: readiness fails from then on."""
        return self._state[0] != SERVING

    def watch_master(self, log: Any) -> None:
        """In the master, once gunicorn is ready: a TERM starts the drain; DRAIN_SECONDS later (or at a second TERM)
        gunicorn's own TERM handler stops the instance."""
        gunicorn_term = signal.getsignal(signal.SIGTERM)
        assert callable(gunicorn_term), "gunicorn set a function for TERM before any hook runs"

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
        """In a worker, once booted: a TERM while the master drains is ignored (the master sends another when the
        drain is over); one from a master that does not drain is gunicorn's, handled as gunicorn handles it."""
        gunicorn_term = signal.getsignal(signal.SIGTERM)
        assert callable(gunicorn_term), "gunicorn set a function for TERM before any hook runs"

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
