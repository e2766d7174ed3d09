"""How the service is served: HTTP around every response, the logs' filters, gunicorn's hooks and the rates refresher
(a process of its own under gunicorn, a thread under `flask run`)."""
