"""How the service is served: HTTP around every response, the logs' filters, gunicorn's hooks and the refresh that
keeps each serving process's data as new as the database (a greenlet of each worker, a thread under `flask run`)."""
