"""How the service is served: HTTP around every response, the logs, gunicorn's hooks, the data refresh, the metrics."""
