"""gunicorn settings, from the environment (the figures behind each choice: docs/OPERATIONS.md, docs/PERFORMANCE.md)."""

import multiprocessing
import os

from corridor.serving.logs import gunicorn_log_config
from corridor.serving.metrics import prepare_multiprocess_directory
from corridor.settings import WORKER_CONNECTIONS


def _int_env(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip() or str(default)
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise SystemExit(f"Error: {name} must be a positive integer, not {value!r}.")
    return int(value)


# psycopg chooses how to wait for PostgreSQL when first imported, in the master, before the gevent workers patch
# `select`: its C wait would then stop every greenlet of a worker during a query; poll(), looked up at each call, is
# gevent's once patched
os.environ.setdefault("PSYCOPG_WAIT_FUNC", "wait_poll")
# with metrics on, every process writes its counts into one folder, which prometheus_client must know of before it is
# first imported, as the app is loaded; emptied now, so that a previous run's counts are not added in
prepare_multiprocess_directory()


bind = f"0.0.0.0:{_int_env('PORT', 8000)}"
# gevent: a slow or idle client costs a greenlet, not a worker (sync and gthread workers stall
# behind 400 half-sent requests); workers = cores + 1 keeps both cores busy with CPU-bound handlers
worker_class = "gevent"
worker_connections = WORKER_CONNECTIONS
workers = _int_env("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1)
keepalive = 2
timeout = 30
graceful_timeout = 20
# request limits (a longer request line → 414, more or larger headers → 431/400, by gunicorn):
# the longest URL this API serves is under 120 bytes, a client sends ~10 headers
limit_request_line = 2048
limit_request_fields = 50
limit_request_field_size = 8190
# X-Forwarded-* are honoured by the app's ProxyFix for PROXY_HOPS hops, never by gunicorn itself
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}
# gunicorn's runtime control socket is unused here, and its default path is shared by every instance on a machine
control_socket_disable = True
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
accesslog = "-"
errorlog = "-"
# no query string and no credentials, where a misplaced key could be
access_log_format = '%(t)s rid=%({x-request-id}o)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms %(h)s'
# LOG_FORMAT=json: every line of gunicorn's and the app's one JSON object (corridor/serving/logs.py)
logconfig_dict = gunicorn_log_config(os.environ.get("LOG_FORMAT", "text"))
# the master loads, checks and prices the data once: workers fork with it, share its memory, and boot at once
preload_app = True

# the hooks (corridor/serving/hooks.py) import the app's modules: only once the environment above is set
from corridor.serving.hooks import (  # noqa: E402, F401 - gunicorn reads them by name
    child_exit,
    on_exit,
    on_reload,
    on_starting,
    post_fork,
    post_request,
    post_worker_init,
    pre_fork,
    pre_request,
    when_ready,
)
