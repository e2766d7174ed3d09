"""One data version: the data file and the rate history as read, priced at the live rates, and what is kept of it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace

from flask import Flask
from werkzeug.http import http_date

from corridor.data.database import migrations_pending, unpooled_engine
from corridor.data.load import DataError, load_dataset, summary
from corridor.domain.catalog import Catalog
from corridor.domain.history import Histories, RateHistory
from corridor.domain.model import FRANKFURTER, Dataset
from corridor.domain.observations import Survey
from corridor.domain.published import Flows, PublishedCosts, with_flows
from corridor.domain.rates import live_rates, recorded_ecb_days
from corridor.domain.survey import with_survey
from corridor.imports.flows import read_latest_flows
from corridor.imports.published import read_published_costs
from corridor.imports.survey_db import read_survey
from corridor.rates.history import default_history_path, load_history
from corridor.rates.live import LiveRates
from corridor.rates.store import read_live, read_stamp
from corridor.settings import ConfigError, current_settings
from corridor.state.responses import ResponseCache


@dataclass(frozen=True, eq=False)
class Sources:
    """A data file, the survey's prices and a rate history as read and validated: `dataset` is the file's with the
    survey's offers and the rates they imply."""

    path: str
    dataset: Dataset
    history: RateHistory
    summary: str
    history_summary: str
    survey: Survey | None = None
    survey_notes: tuple[str, ...] = ()  # what of the survey could not be served, one line each
    published: PublishedCosts | None = None
    flows: Flows | None = None
    pending: str | None = None  # why the imports are not read: the database's migrations are not applied

    @property
    def import_versions(self) -> tuple[int | None, ...]:
        """The imports served, of the survey, the published averages and the flows: a newer one is worth a new data
        version."""
        return tuple(held.version if held else None for held in (self.survey, self.published, self.flows))


@dataclass(frozen=True, eq=False)
class DataVersion:
    """What is served: the sources at the live rates, the catalog they make, and the responses kept from them."""

    catalog: Catalog
    last_modified: str  # when the figures last changed, as HTTP writes it
    sources: Sources
    live: LiveRates
    responses: ResponseCache = field(repr=False)
    stamp: int | None = None  # the database's version stamp it was read at (corridor/rates/store.py)


def read_sources(app: Flask, path: str | None = None, survey: bool = True, migrated: bool = False) -> Sources:
    """Read and validate a data file (SEED_DATA if None), the survey in the database (unless not `survey`) and the
    rate history; or DataError. `migrated`: the caller has just found the database at the newest revision."""
    settings = current_settings(app)
    path = path or settings.seed_data
    history_path = settings.history_data or default_history_path()
    try:
        dataset = load_dataset(path, settings.data_max_mb * 2**20)
        history = load_history(history_path, settings.data_max_mb * 2**20)
        engine = unpooled_engine(app)  # connections of its own: a master that forks next keeps none open
        pending = migrations_pending(engine) if survey and not migrated else None
        read = survey and not pending
        surveyed = read_survey(engine) if read else None
        published = read_published_costs(engine) if read else None
        flows = read_latest_flows(engine) if read else None
        dataset, notes = with_survey(dataset, surveyed, history)
        dataset = with_flows(dataset, flows)
    except (DataError, ConfigError):
        raise
    except Exception as err:  # a refresh must never take the service down, whatever the file holds
        raise DataError(f"{path}: cannot be served: {type(err).__name__}: {err}") from err
    return Sources(
        path,
        dataset,
        history,
        f"{path}: {summary(dataset)}" + (f"; {surveyed.summary}" if surveyed else ""),
        f"{history_path}: ECB rates of {len(history.currencies)} currencies, {len(history.days):,} "
        f"business days from {history.first} to {history.last}",
        surveyed,
        tuple(notes),
        published,
        flows,
        pending,
    )


def import_versions(app: Flask) -> tuple[int | None, ...]:
    """The imports the database holds, as `Sources.import_versions` gives them: each read again only once newer."""
    engine = unpooled_engine(app)
    imports = (read_survey(engine), read_published_costs(engine), read_latest_flows(engine))
    return tuple(held.version if held else None for held in imports)


def data_version(app: Flask, sources: Sources, live: LiveRates, stamp: int | None = None) -> DataVersion:
    """The sources priced at the live rates, with the feeds' days added to the history; DataError if they cannot be."""
    try:
        # the file's own ECB rates come last: any live rate is newer
        feeds = live.feed_rates + recorded_ecb_days(sources.dataset.rates, sources.history)
        dataset = replace(sources.dataset, rates=live_rates(sources.dataset.rates, feeds))
        history = Histories(
            sources.history.with_days(live.ecb_days),
            RateHistory.from_series(live.series, live.series_base, FRANKFURTER),
        )
        catalog = Catalog(
            dataset, history, sources.survey.costs if sources.survey else None, sources.published, sources.flows
        )
    except Exception as err:  # a refresh must never take the service down, whatever the file holds
        raise DataError(f"{sources.path}: cannot be served: {type(err).__name__}: {err}") from err
    changed = [dt.datetime.combine(day, dt.time(), dt.UTC) for day in (dataset.as_of, history.ecb.last)]
    return DataVersion(
        catalog,
        http_date(max(changed + [live.changed_at] if live.changed_at else changed)),
        sources,
        live,
        ResponseCache(current_settings(app).cache_mb * 2**20),
        stamp,
    )


def stored_rates(app: Flask) -> tuple[int, LiveRates]:
    """The database's version stamp and the feeds as stored, read in that order: what is read is at least that new."""
    with unpooled_engine(app).connect() as connection:
        return read_stamp(connection).version, read_live(connection, LiveRates.configured(current_settings(app)))


def load_data(app: Flask, path: str | None = None, survey: bool = True) -> DataVersion:
    """Read, validate and price a data file (SEED_DATA if None), the survey and the rates stored (unless not `survey`:
    the file's rates alone) and the rate history; DataError or ConfigError if they cannot be served."""
    # the stamp before the sources: an import stored in between is then read again at the next poll
    migrated = survey and migrations_pending(unpooled_engine(app)) is None
    stamp, live = stored_rates(app) if migrated else (None, LiveRates.configured(current_settings(app)))
    return data_version(app, read_sources(app, path, survey, migrated), live, stamp)
