"""Rate limits: a budget per API key on Group A, per client address elsewhere (as each blueprint's policy declares),
and per address and per email on the forms that check passwords; counted by corridor/limits/counts.py.

A request costs one unit of its budget, a history range more, by the rates it can hold (charged where the response
cache answers it: corridor/api/caching.py). Every limited answer says where its tightest budget stands in RateLimit-*
headers; over budget, the answer is 429 with Retry-After.
"""
