"""What the service counts, in Prometheus' terms. Under gunicorn each process writes its own files (multiprocess
mode); a scrape adds up every process's, those of workers since exited included, so that no counter goes backwards."""

from __future__ import annotations

import datetime as dt
import functools
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, InfoMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from corridor.serving.logs import route_template

# seconds: the service's answers take from well under a millisecond (a kept one) to a few hundred (a large list)
DURATION_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
METHODS = frozenset({"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"})
UNMATCHED = "unmatched"  # the route of a request no route matched: never its path, which the client chose
REQUEST_LABELS = ("method", "route", "status")
# the cache label: `hit` or `miss` where the response cache was asked, empty (no label, to Prometheus) elsewhere
DURATION_LABELS = (*REQUEST_LABELS, "cache")
CACHE_RESULTS = ("hit", "miss")
DURATIONS = "http_request_duration_seconds"


class Metrics:
    """One app's counters and histograms, and the gauges of the data version `data` gives (the scraping process's):
    the age of each feed's rates, the survey's latest period."""

    def __init__(self, data: Callable[[], Any]) -> None:
        self.data = data
        self.registry = CollectorRegistry()
        self.registry.register(self)
        self.durations = Histogram(
            DURATIONS,
            "Time from a request reaching the app to its response, by method, route template, status, and the "
            "response cache's answer (hit, miss, or none asked).",
            DURATION_LABELS,
            buckets=DURATION_BUCKETS,
            registry=self.registry,
        )
        counter = functools.partial(Counter, registry=self.registry)
        self.refusals = counter(
            "corridor_rate_limit_refusals", "Requests refused with 429, by the budget spent.", ["budget"]
        )
        keys = counter(
            "corridor_account_key_checks",
            "Group A keys that are not the operator's, checked: hit (a live account key), miss (no live key) or error "
            "(the accounts database failed: 503).",
            ["result"],
        )
        self.key_hit, self.key_miss, self.key_error = keys.labels("hit"), keys.labels("miss"), keys.labels("error")
        self.fetches = counter(
            "corridor_feed_fetches",
            "Tries of each rates feed, by what the try gave (ok, held, failing).",
            ["feed", "outcome"],
        )
        # every child by its labels, made once: a request looks its two up in one dictionary
        self._children: dict[tuple[str, str, str, str], Any] = {}

    def request(self, method: str, route: str | None, status: str, cache: str, seconds: float) -> None:
        """Time and so count one answered request (`RequestCounts` reads the counts from the timings)."""
        key = (method if method in METHODS else "other", route or UNMATCHED, status, cache)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = self.durations.labels(key[0], route_template(key[1]), status, cache)
        child.observe(seconds)

    def scraped(self, multiprocess: bool) -> CollectorRegistry:
        """The counts, under gunicorn (`multiprocess`) every process's (those of workers gone included) with this
        process's gauges, else this registry's; and the requests counted from them."""
        registry = CollectorRegistry()
        if multiprocess:
            registry.register(RequestCounts(MultiProcessCollector(registry=None)))
            registry.register(self)
        else:
            registry.register(RequestCounts(self.registry))
        return registry

    def collect(self) -> Iterator[Metric]:
        data, now = self.data(), time.time()
        age = GaugeMetricFamily(
            "corridor_rates_age_seconds",
            "Seconds since the start (00:00 UTC) of the day of the rates in force from each feed; a feed that never "
            "gave rates: of the data file's.",
            labels=("feed",),
        )
        for feed in data.live.report(data.sources.dataset):
            midnight = dt.datetime.combine(feed["date"] or data.catalog.dataset.as_of, dt.time(), dt.UTC)
            age.add_metric((feed["source"],), now - midnight.timestamp())
        yield age
        survey = data.sources.survey
        if survey is not None and survey.latest:
            info = InfoMetricFamily("corridor_survey", "The World Bank survey import served, and its latest period.")
            info.add_metric((), {"import": str(survey.version), "period": max(o.period for o in survey.latest)})
            yield info


class RequestCounts:
    """`http_requests_total` and `corridor_response_cache_lookups_total` made at each scrape from the duration
    histogram's counts, the same numbers: a request writes two values, not four (docs/PERFORMANCE.md)."""

    def __init__(self, source: Collector) -> None:
        self.source = source

    def collect(self) -> Iterator[Metric]:
        requests = CounterMetricFamily(
            "http_requests", "HTTP requests answered, by method, route template and status.", labels=REQUEST_LABELS
        )
        lookups = dict.fromkeys(CACHE_RESULTS, 0.0)  # both, from the first scrape on
        for metric in self.source.collect():
            yield metric
            if metric.name != DURATIONS:
                continue
            answered: dict[tuple[str, ...], float] = {}
            for sample in metric.samples:
                if sample.name == DURATIONS + "_count":
                    labels = tuple(sample.labels[label] for label in REQUEST_LABELS)
                    answered[labels] = answered.get(labels, 0.0) + sample.value  # hits, misses and the rest
                    if sample.labels["cache"] in lookups:
                        lookups[sample.labels["cache"]] += sample.value
            for labels, count in answered.items():
                requests.add_metric(labels, count)
        yield requests
        cache = CounterMetricFamily(
            "corridor_response_cache_lookups",
            "Answers looked for in the response cache: hit when a kept answer was sent, miss when it had to be made.",
            labels=("result",),
        )
        for result, count in lookups.items():
            cache.add_metric((result,), count)
        yield cache
