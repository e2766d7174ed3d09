"""gunicorn settings, all from the environment (SPEC §9); `gunicorn -c gunicorn.conf.py wsgi:app`."""

import multiprocessing
import os


def _int_env(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip() or str(default)
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise SystemExit(f"Error: {name} must be a positive integer, not {value!r}.")
    return int(value)


bind = f"0.0.0.0:{_int_env('PORT', 8000)}"
workers = _int_env("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1)
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
# gunicorn's runtime control socket is unused here, and its default path is shared by every
# instance on a machine
control_socket_disable = True
accesslog = "-"
# redacts query parameters the API does not define (a misplaced key) and the Authorization header
logger_class = "corridor.access_log.AccessLogger"
errorlog = "-"
# who, when, request line, status, bytes, duration, request id (SPEC §8); never the Authorization header
access_log_format = '%(h)s %(t)s "%(r)s" %(s)s %(b)s %(M)sms rid=%({x-request-id}o)s'


def on_starting(server):
    """Refuse to start, before binding the port, when the keys or the data are unusable."""
    from app import create_app
    from corridor.config import ConfigError

    try:
        create_app()
    except ConfigError as err:
        # gunicorn prints a RuntimeError raised here as "Error: …" and exits 1
        raise RuntimeError(err.format_message()) from None
