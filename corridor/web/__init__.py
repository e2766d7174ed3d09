"""HTTP: the two blueprints, how an endpoint is declared and served, errors, auth, docs."""
