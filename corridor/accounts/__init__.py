"""Accounts: holders sign up and make their own API keys. Sessions are Flask's signed cookie, holding the account's id;
not Flask-Login, whose hook reads the session on every answer: Flask then sends `Vary: Cookie` with every public one,
which no cache in front could then share."""
