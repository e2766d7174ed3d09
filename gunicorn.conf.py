"""gunicorn settings, from the environment: `gunicorn -c gunicorn.conf.py wsgi:app`.

The figures behind each choice are in docs/OPERATIONS.md and docs/PERFORMANCE.md.
"""

import multiprocessing
import os


def _int_env(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip() or str(default)
    if not value.isascii() or not value.isdigit() or int(value) < 1:
        raise SystemExit(f"Error: {name} must be a positive integer, not {value!r}.")
    return int(value)


bind = f"0.0.0.0:{_int_env('PORT', 8000)}"
# gevent: a slow or idle client costs a greenlet, not a worker (sync and gthread workers stall
# behind 400 half-sent requests); workers = cores + 1 keeps both cores busy with CPU-bound handlers
worker_class = "gevent"
worker_connections = 1000
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
secure_scheme_headers = {}
# gunicorn's runtime control socket is unused here, and its default path is shared by every
# instance on a machine
control_socket_disable = True
loglevel = os.environ.get("LOG_LEVEL", "info").lower()
accesslog = "-"
errorlog = "-"
# redacts query parameters the API does not define (a misplaced key) and the Authorization header
logger_class = "corridor.web.access_log.AccessLogger"
# time, request id, method, path and query, status, bytes, duration, client
access_log_format = '%(t)s rid=%({x-request-id}o)s "%(r)s" %(s)s %(b)s %(M)sms %(h)s'


def on_starting(server):
    """Refuse to start, before binding the port, when the keys or the data are unusable."""
    from app import create_app
    from corridor.data.refresh import DataSnapshots
    from corridor.settings import ConfigError

    server.corridor_data = DataSnapshots()
    try:
        server.corridor_data.take()
        create_app()
    except BaseException as err:
        server.corridor_data.remove()  # on_exit does not run for a refused start
        if isinstance(err, ConfigError):
            # gunicorn prints a RuntimeError raised here as "Error: …" and exits 1
            raise RuntimeError(err.format_message()) from None
        raise


def on_reload(server):
    """HUP: serve the data file anew if it validates, else keep the last good data and say why."""
    from corridor.data.load import summary
    from corridor.settings import ConfigError

    snapshots = server.corridor_data
    try:
        dataset = snapshots.take()
    except ConfigError as err:
        server.log.error("Data refresh refused; still serving %s as of %s. %s", snapshots.source,
                         snapshots.dataset.as_of.isoformat(), err.format_message())
        return
    server.log.info("Data refresh: %s: %s", snapshots.source, summary(dataset))


def on_exit(server):
    """Remove the data snapshots."""
    if hasattr(server, "corridor_data"):
        server.corridor_data.remove()


def post_worker_init(worker):
    """Keep what start-up built (data, schemas, bodies) out of the garbage collector's full
    collections, which would otherwise walk all of it in the middle of a request."""
    import gc

    gc.freeze()


def post_request(worker, req, environ, resp):
    """Yield after each response so a gevent worker shares itself fairly among kept-alive clients."""
    if type(worker).__module__.endswith("ggevent"):  # not when a command line picks another worker
        import gevent

        # a timer due at once, not sleep(0): sleep(0) resumes before gevent polls the sockets again,
        # so clients whose next request had already arrived would take turns while others wait
        gevent.sleep(1e-6)
