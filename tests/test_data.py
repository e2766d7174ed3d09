"""The shipped data is realistic and coherent; every validation rule refuses a broken file."""

import re
import sys
from statistics import fmean

import flask.cli
import pytest
from click.testing import CliRunner
from conftest import SEED
from expected import active, ranked

from corridor.data.load import DataError, load_dataset
from corridor.settings import ConfigError

REQUIRED_CURRENCIES = (
    "USD EUR GBP JPY CHF CAD AUD CNY INR MXN PHP BRL ZAR SGD AED SAR PKR NGN KRW TRY IDR VND GTQ MAD".split()
)


def test_shipped_data_loads(raw_seed):
    dataset = load_dataset("seed_data.json")
    assert dataset.as_of.isoformat() == raw_seed["as_of"]
    assert len(dataset.corridors) == len(raw_seed["corridors"])


def test_shipped_data_is_realistic(raw_seed):
    corridors = active(raw_seed)
    assert len(corridors) >= 15
    assert any(not c["active"] for c in raw_seed["corridors"])
    first = next(c for c in raw_seed["corridors"] if c["id"] == 1)
    assert (first["from_currency"], first["to_currency"]) == ("USD", "MXN")
    assert first["annual_flow_bn"] >= 55
    assert sorted(c["id"] for c in raw_seed["corridors"]) == list(range(1, len(raw_seed["corridors"]) + 1))
    assert len(raw_seed["providers"]) >= 8
    assert all(len(c["offers"]) >= 3 for c in corridors)
    costs = [row["cost"] for c in corridors for row in ranked(raw_seed, c)]
    assert 4 <= fmean(costs) <= 7
    assert sum(cost < 3 for cost in costs) >= 3


def test_shipped_rate_tables(raw_seed):
    interbank, consumer = raw_seed["rates"]["interbank"], raw_seed["rates"]["consumer"]
    assert len(interbank) >= 40
    assert set(REQUIRED_CURRENCIES) <= set(interbank)
    assert interbank != consumer, "the consumer table is another source, not a copy"
    for code in interbank:
        assert abs(consumer[code] / interbank[code] - 1) < 0.01, code


def _set(path, value):
    """A mutation setting data[path] = value, path a tuple of keys and indexes."""

    def mutate(data):
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return mutate


def _delete(path):
    def mutate(data):
        target = data
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return mutate


def _copy_corridor(index, **changes):
    def mutate(data):
        data["corridors"].append(dict(data["corridors"][index], **changes))

    return mutate


BROKEN = {
    "unknown top-level key": (_set(("extra",), 1), "$.extra", "Unknown field"),
    "missing as_of": (_delete(("as_of",)), "$.as_of", "Missing data"),
    "as_of not ISO": (_set(("as_of",), "20/11/2026"), "$.as_of", "YYYY-MM-DD"),
    "as_of basic ISO": (_set(("as_of",), "20261120"), "$.as_of", "YYYY-MM-DD"),
    "reference amount zero": (_set(("reference_amount_usd",), 0), "$.reference_amount_usd", "from 1 to 1000000000"),
    "base lower-case": (_set(("rates", "base"), "usd"), "$.rates.base", "three-letter"),
    "currency code of 4 letters": (
        _set(("rates", "interbank", "USDX"), 1.0),
        "$.rates.interbank.USDX (the key)",
        "three-letter",
    ),
    "currency code with newline": (
        _set(("rates", "consumer", "EU\n"), 1.0),
        r'$.rates.consumer["EU\n"] (the key)',
        "three-letter",
    ),
    "rate zero": (_set(("rates", "interbank", "EUR"), 0), "$.rates.interbank.EUR", "from 0.000001 to 1000000000"),
    "rate negative": (_set(("rates", "consumer", "EUR"), -0.86), "$.rates.consumer.EUR", "from 0.000001"),
    "rate too large to price": (_set(("rates", "interbank", "MXN"), 1e308), "$.rates.interbank.MXN", "to 1000000000"),
    "rate as string": (_set(("rates", "interbank", "EUR"), "0.86"), "$.rates.interbank.EUR", "finite JSON number"),
    "rate boolean": (_set(("rates", "interbank", "EUR"), True), "$.rates.interbank.EUR", "finite JSON number"),
    "base not 1": (_set(("rates", "interbank", "USD"), 1.01), "$.rates.interbank", "value 1"),
    "tables differ": (_delete(("rates", "consumer", "JPY")), "$.rates.consumer", "same currencies; differing: JPY"),
    "no EUR": (
        lambda d: [d["rates"][t].pop("EUR") for t in ("interbank", "consumer")],
        "$.rates.interbank",
        "Must include EUR",
    ),
    "provider id not a slug": (_set(("providers", 0, "id"), "Wise UK"), "$.providers[0].id", "slug"),
    "provider ids repeat": (
        lambda d: d["providers"].append(dict(d["providers"][0], name="Other")),
        "$.providers",
        "ids must be unique",
    ),
    "corridor id zero": (_set(("corridors", 0, "id"), 0), "$.corridors[0].id", "from 1 to 2147483647"),
    "corridor id over 32 bits": (_set(("corridors", 0, "id"), 2**31), "$.corridors[0].id", "from 1 to 2147483647"),
    "corridor id float": (_set(("corridors", 0, "id"), 1.0), "$.corridors[0].id", "integer"),
    "corridor ids repeat": (_copy_corridor(1, from_currency="ZAR"), "$.corridors[", "used twice"),
    "pair repeats": (_copy_corridor(0, id=999), "$.corridors[", "listed twice"),
    "from equals to": (_set(("corridors", 0, "to_currency"), "USD"), "$.corridors[0].to_currency", "differ"),
    "currency not in tables": (
        _set(("corridors", 0, "to_currency"), "XYZ"),
        "$.corridors[0].to_currency",
        "not in the rate tables",
    ),
    "compliance unknown": (
        _set(("corridors", 0, "compliance"), "low"),
        "$.corridors[0].compliance",
        "Low, Medium, High",
    ),
    "score over 100": (_set(("corridors", 0, "score"), 101), "$.corridors[0].score", "0 to 100"),
    "active as 1": (_set(("corridors", 0, "active"), 1), "$.corridors[0].active", "Not a valid boolean"),
    "annual flow negative": (
        _set(("corridors", 0, "annual_flow_bn"), -1),
        "$.corridors[0].annual_flow_bn",
        "from 0 to",
    ),
    "no offers": (_set(("corridors", 0, "offers"), []), "$.corridors[0].offers", "at least one offer"),
    "spread 100": (
        _set(("corridors", 0, "offers", 0, "spread_pct"), 100),
        "$.corridors[0].offers[0].spread_pct",
        "below 100",
    ),
    "fee_pct negative": (
        _set(("corridors", 0, "offers", 0, "fee_pct"), -0.1),
        "$.corridors[0].offers[0].fee_pct",
        "at least 0",
    ),
    "flat fee negative": (
        _set(("corridors", 0, "offers", 0, "flat_fee"), -1),
        "$.corridors[0].offers[0].flat_fee",
        "from 0 to",
    ),
    "flat fee beyond any price": (
        _set(("corridors", 0, "offers", 0, "flat_fee"), 1e12),
        "$.corridors[0].offers[0].flat_fee",
        "to 1000000000",
    ),
    "svc_score negative": (
        _set(("corridors", 0, "offers", 0, "svc_score"), -1),
        "$.corridors[0].offers[0].svc_score",
        "0 to 100",
    ),
    "settlement plural for 1": (
        _set(("corridors", 0, "offers", 0, "settlement"), "1 hours"),
        "$.corridors[0].offers[0].settlement",
        "plural",
    ),
    "settlement singular for 2": (
        _set(("corridors", 0, "offers", 0, "settlement"), "2 day"),
        "$.corridors[0].offers[0].settlement",
        "plural",
    ),
    "settlement leading zero": (
        _set(("corridors", 0, "offers", 0, "settlement"), "05 minutes"),
        "$.corridors[0].offers[0].settlement",
        "plural",
    ),
    "settlement trailing newline": (
        _set(("corridors", 0, "offers", 0, "settlement"), "1 hour\n"),
        "$.corridors[0].offers[0].settlement",
        "plural",
    ),
    "settlement unit weeks": (
        _set(("corridors", 0, "offers", 0, "settlement"), "2 weeks"),
        "$.corridors[0].offers[0].settlement",
        "plural",
    ),
    "payout empty": (
        _set(("corridors", 0, "offers", 0, "payout_methods"), []),
        "$.corridors[0].offers[0].payout_methods",
        "at least one",
    ),
    "payout repeated": (
        _set(("corridors", 0, "offers", 0, "payout_methods"), ["card", "card"]),
        "$.corridors[0].offers[0].payout_methods",
        "repeat: card",
    ),
    "payout unknown": (
        _set(("corridors", 0, "offers", 0, "payout_methods"), ["crypto"]),
        "$.corridors[0].offers[0].payout_methods[0]",
        "Must be one of",
    ),
    "offer unknown key": (
        _set(("corridors", 0, "offers", 0, "bonus"), 1),
        "$.corridors[0].offers[0].bonus",
        "Unknown field",
    ),
    "two offers, one provider": (
        lambda d: d["corridors"][0]["offers"].append(dict(d["corridors"][0]["offers"][0])),
        "$.corridors[0].offers",
        "one offer per provider",
    ),
    "unknown provider": (
        _set(("corridors", 0, "offers", 0, "provider"), "nobody"),
        "$.corridors[0].offers[0].provider",
        "No provider has the id 'nobody'",
    ),
}


@pytest.mark.parametrize("mutate, where, rule", BROKEN.values(), ids=BROKEN.keys())
def test_broken_data_is_refused_naming_file_path_and_rule(seed_copy, write_seed, mutate, where, rule):
    mutate(seed_copy)
    path = write_seed(seed_copy)
    with pytest.raises(DataError) as caught:
        load_dataset(path)
    message = caught.value.format_message()
    assert message.startswith(f"{path} is not valid corridor data")
    line = next((text for text in message.splitlines() if text.strip().startswith(where)), None)
    assert line is not None, message
    assert rule in line


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('{"as_of": ', "not valid JSON at line 1"),
        ('{"as_of": NaN}', "NaN is not a number"),
        ('{"as_of": Infinity}', "Infinity is not a number"),
        ('{"as_of": "2026-11-20", "as_of": "2026-11-21"}', "the key 'as_of' appears twice"),
        ('{"as_of": ' + "9" * 5000 + "}", "a number has more than 4,300 digits, as no figure does."),
        ("[]", "$: Invalid input type"),
    ],
)
def test_unparseable_data_is_refused(write_seed, text, fragment):
    path = write_seed(text)
    with pytest.raises(DataError, match=re.escape(fragment)) as caught:
        load_dataset(path)
    assert path in caught.value.format_message()


def test_missing_and_non_utf8_files_are_refused(tmp_path):
    with pytest.raises(DataError, match="cannot read the data file"):
        load_dataset(str(tmp_path / "absent.json"))
    latin = tmp_path / "latin.json"
    latin.write_bytes('{"source": "Bogot\xe1"}'.encode("latin-1"))
    with pytest.raises(DataError, match="not UTF-8"):
        load_dataset(str(latin))


def test_app_refuses_to_start_on_broken_data(make_app, seed_copy):
    seed_copy["corridors"][0]["compliance"] = "Severe"
    with pytest.raises(ConfigError, match=r"\$\.corridors\[0\]\.compliance"):
        make_app(seed_copy)


def test_data_check_command_ok(app):
    result = app.test_cli_runner().invoke(args=["data", "check"])
    assert result.exit_code == 0
    assert re.fullmatch(
        r".*seed_data\.json: OK, as of \d{4}-\d\d-\d\d: \d+ corridors \(\d+ active\), "
        r"\d+ providers, \d+ offers, \d+ currencies\n"
        r".*eurofxref-hist\.zip: OK, ECB rates of 42 currencies, 7,126 business days from 1999-01-04 to 2026-10-30\n",
        result.output,
    )


def test_data_check_command_reports_errors(app, seed_copy, write_seed):
    seed_copy["corridors"][2]["offers"][1]["settlement"] = "3 hour"
    seed_copy["rates"]["base"] = "usd"
    path = write_seed(seed_copy)
    result = app.test_cli_runner().invoke(args=["data", "check", path])
    assert result.exit_code == 1
    assert f"{path} is not valid corridor data (2 problem(s))" in result.output
    assert "$.rates.base:" in result.output
    assert "$.corridors[2].offers[1].settlement:" in result.output
    assert "Traceback" not in result.output


def test_cli_commands_refuse_the_configured_data_and_keys_as_the_server_does(tmp_path, monkeypatch):
    # the `flask` command's own group, in this process: it makes the app from the environment as a process of its own
    # would, and puts the working folder first on sys.path and FLASK_RUN_FROM_CLI in the environment, both taken back
    monkeypatch.setattr(sys, "path", [*sys.path])
    missing = str(tmp_path / "missing.json")
    for args, changes, named in (
        (["data", "check", str(SEED)], {"SEED_DATA": missing}, missing),
        (["keys", "generate"], {"API_KEYS": "sha256:nonsense"}, "API_KEYS entry 1 is not usable"),
    ):
        result = CliRunner().invoke(flask.cli.cli, ["--app", "app", *args], env={**changes, "FLASK_RUN_FROM_CLI": None})
        assert result.exit_code == 1 and named in result.stderr, (args, result.output)
        # click's one-line "Error: …" (SystemExit), not an exception a process would show with its traceback
        assert isinstance(result.exception, SystemExit) and "Traceback" not in result.stderr
