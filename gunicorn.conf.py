"""gunicorn settings, from the environment: `gunicorn -c gunicorn.conf.py wsgi:app`.

The figures behind each choice are in docs/OPERATIONS.md and docs/PERFORMANCE.md.
"""

import multiprocessing
import os

from corridor.serving.logs import gunicorn_log_config
from corridor.serving.multiprocess import prepare_multiprocess_directory
from corridor.settings import WORKER_CONNECTIONS


def _int_env(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip() or str(default)
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise SystemExit(f"Error: {name} must be a positive integer, not {value!r}.")
    return int(value)


# psycopg chooses how to wait for PostgreSQL when it is first imported, in the master, before the
# gevent workers patch `select`: its C wait would then stop every greenlet of a worker during a
# query, while poll(), looked up at each call, is gevent's once patched
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
# gunicorn's runtime control socket is unused here, and its default path is shared by every
# instance on a machine
control_socket_disable = True
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
accesslog = "-"
errorlog = "-"
# time, request id, method, path, protocol, status, bytes, duration, client: no query string and no
# credentials, where a misplaced key could be
access_log_format = '%(t)s rid=%({x-request-id}o)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(M)sms %(h)s'
# LOG_FORMAT=json: every line of gunicorn's and the app's one JSON object (corridor/serving/logs.py)
logconfig_dict = gunicorn_log_config(os.environ.get("LOG_FORMAT", "text"))
# the master loads the app, and so reads, checks and prices the data, once: workers fork with it,
# share its memory, and boot at once, whenever they (re)start
preload_app = True


def on_starting(server):
    """Keep what a client sent out of gunicorn's own messages, and on its line in the access log."""
    from corridor.serving import hooks

    hooks.on_starting(server)


def pre_fork(server, worker):
    """Keep what the master loaded out of the workers' full garbage collections."""
    # they would walk all of it in the middle of a request, and copy every page it sits on
    import gc

    gc.freeze()


def post_fork(server, worker):
    """Keep a stop that comes while the worker boots: until it sets its own handlers, the master's would queue it
    unseen. Hold back a terminal's Ctrl-C until post_worker_init ignores it: gunicorn's own handler, set in between,
    would answer it as a second quit beside the master's."""
    import signal

    def stop_once_booted(signum, frame):
        worker.alive = False  # its serving loop then ends at once, as on a TERM after boot

    for signum in (signal.SIGTERM, signal.SIGQUIT):
        signal.signal(signum, stop_once_booted)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})


def when_ready(server):
    """Build the whole lists before the workers fork, start the drain on TERM and the metrics' port (METRICS_PORT)."""
    from corridor.serving import hooks

    hooks.when_ready(server)


def post_worker_init(worker):
    """Leave a terminal's Ctrl-C to the master, which stops the workers itself (QUIT); serve on through the instance's
    drain on TERM (docs/OPERATIONS.md#stopping-an-instance-the-drain-on-term); keep the data as new as the database
    (docs/OPERATIONS.md#refreshing-the-data-and-the-rates)."""
    # the terminal sends INT to every process of its group: a worker that answered it too would run gunicorn's quit
    # twice, and the second greenlet's sys.exit, left for the interpreter's exit, printed a SystemExit traceback
    import signal

    from corridor.serving import hooks

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # one held back since post_fork is dropped, ignored
    hooks.post_worker_init(worker)


def pre_request(worker, req):
    """While the instance drains, close each connection after its answer
    (docs/OPERATIONS.md#stopping-an-instance-the-drain-on-term)."""
    from corridor.serving import hooks

    hooks.pre_request(worker, req)


def child_exit(server, worker):
    """prometheus_client's multiprocess mode: forget a worker gone."""
    from corridor.serving import hooks

    hooks.child_exit(server, worker)


def on_reload(server):
    """On HUP, before gunicorn forks new workers: serve the keys and data read anew with the rates stored, the whole
    lists built, and ask for the feeds (docs/OPERATIONS.md#refreshing-the-data-and-the-rates)."""
    from corridor.serving import hooks

    hooks.on_reload(server)


def on_exit(server):
    """Remove the metrics' folder."""
    from corridor.serving import hooks

    hooks.on_exit(server)


def post_request(worker, req, environ, resp):
    """Yield after each response so a gevent worker shares itself fairly among kept-alive clients."""
    if type(worker).__module__.endswith("ggevent"):  # not when a command line picks another worker
        import gevent

        # a timer due at once, not sleep(0): sleep(0) resumes before gevent polls the sockets again,
        # so clients whose next request had already arrived would take turns while others wait
        gevent.sleep(1e-6)
