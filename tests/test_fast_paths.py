"""The fast paths give exactly what the plain ways give: quote sheets what `requote` ranks, quote
bodies written from layouts what the schemas dump, priced texts, rounding and RawJSON splicing
(query parsing: tests/test_query_parsing.py)."""

import hashlib
from decimal import ROUND_HALF_UP, Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corridor.encoding import RawJSON, json_bytes, json_text
from corridor.pricing import CorridorFigures, rank_offers, requote
from corridor.quoting import QuoteSheet
from conftest import RAW_KEY
from expected import active, key, shipped_seed
from schemas.api import RANKED_PRICED, RankedProviderSchema
from schemas.fields import PercentText, Rounded
from schemas.rounding import round_half_up
from schemas.poc import PRICED, ProviderEntrySchema, ProvidersResponse
from schemas.seed import PAYOUT_METHODS
from schemas.quotes import RankingWriter

KEYS = [key(c) for c in active(shipped_seed())]
PAYOUTS = [None, "bank_deposit", "cash_pickup", "mobile_wallet", "home_delivery", "card"]
# amounts as a client writes them: cents from 0.01 to 1e9, the edges and tie-prone values among
# them, or none (the reference amount: a response kept per URL)
cents = st.one_of(st.integers(1, 100_000_000_000), st.sampled_from([1, 100_000_000_000, 20_000, 123_450, 33_335]), st.none())
quote_options = st.tuples(st.sampled_from(KEYS), cents, st.sampled_from(PAYOUTS), st.sampled_from(["cost", "speed", "score"]))
SETTINGS = settings(max_examples=300, deadline=None, derandomize=True)


def quote_url(url, options):
    corridor, amount_cents, payout, sort = options
    amount = None if amount_cents is None else f"{amount_cents // 100}.{amount_cents % 100:02d}"
    query = f"corridor={corridor}&sort={sort}" + (f"&amount={amount}" if amount else "") + (f"&payout={payout}" if payout else "")
    return f"{url}?{query}", (corridor, amount and float(amount), payout, sort)


@given(options=quote_options)
@SETTINGS
def test_group_a_quote_bodies_are_the_schema_dump(app, options):
    url, (corridor, amount, payout, sort) = quote_url("/api/providers", options)
    quoted = requote(app.extensions["corridor"]["catalog"].by_key[corridor], amount, payout, sort)
    response = app.test_client().get(url, headers={"Authorization": f"Bearer {RAW_KEY}"})
    assert response.data == json_bytes(RankedProviderSchema(many=True).dump(quoted.quotes))


@given(options=quote_options)
@SETTINGS
def test_group_b_quote_bodies_are_the_schema_dump(app, options):
    url, (corridor, amount, payout, sort) = quote_url("/api/poc/providers", options)
    quoted = requote(app.extensions["corridor"]["catalog"].by_key[corridor], amount, payout, sort)
    assert app.test_client().get(url).data == json_bytes(ProvidersResponse().dump(quoted))


@pytest.mark.parametrize("url", [
    "/api/providers?corridor=usd_mxn&amount=1234.56&payout=cash_pickup",
    "/api/providers?corridor=GBP_INR&amount=0.01&sort=speed",
    "/api/poc/providers?corridor=USD_MXN&amount=999999999.99&sort=score",
    "/api/poc/providers?corridor=USD_MXN&amount=50&payout=home_delivery",
])
def test_one_off_responses_carry_the_etag_of_their_bytes(client, auth, url):
    response = client.get(url, headers=auth)
    assert response.status_code == 200
    assert response.headers["ETag"] == f'"{hashlib.sha256(response.data).hexdigest()[:32]}"'
    again = client.get(url, headers={**auth, "If-None-Match": response.headers["ETag"]})
    assert (again.status_code, again.data) == (304, b"")


@pytest.mark.parametrize("payload, text", [
    (RawJSON("[1,2]"), "[1,2]"),
    ({"ok": True, "providers": RawJSON('[{"a":"→"}]')}, '{"ok":true,"providers":[{"a":"→"}]}'),
    ({"a": RawJSON("1"), "b": "\x00", "c": RawJSON("[]")}, '{"a":1,"b":"\\u0000","c":[]}'),
    ([1.5, {"x": None}], '[1.5,{"x":null}]'),
])
def test_raw_json_is_spliced_as_it_is(payload, text):
    assert json_text(payload) == text


def test_raw_json_deeper_than_a_top_level_value_is_refused():
    with pytest.raises(TypeError):
        json_text({"a": [RawJSON("1")]})


@given(value=st.one_of(st.floats(0, 1e13, allow_nan=False), st.integers(0, 10**11).map(lambda n: n / 1000)),
       places=st.sampled_from([1, 2]))
@settings(max_examples=3000, deadline=None, derandomize=True)
def test_rounding_fast_path_agrees_with_rounding_the_15_digit_decimal(value, places):
    # near-ties among the second strategy's values: n / 1000 has a 5 in the third decimal one time in ten
    on_paper = float(Decimal(f"{value:.15g}").quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))
    assert round_half_up(value, places) == on_paper


TEXT_FIELDS = [Rounded(), Rounded(1), Rounded(4), PercentText()]
# floats the writers take their own way, and those they hand back: ties and near ties, edges of the
# 15-digit range, below 10**-places, ints, None, negatives (no NaN or infinity: the data refuses them)
priced_values = st.one_of(
    st.floats(0, 1e13), st.integers(1, 10**13).map(lambda n: n / 1000), st.integers(1, 10**9).map(lambda n: n / 100 + 0.005),
    st.floats(-1e16, 1e16), st.sampled_from([1e15 / 100, 1e15 / 100 - 0.01, 0.01, 0.00999, 0.005, 0.0, -0.0, 2.675, 3.335]),
    st.integers(-10**6, 10**6), st.none(),
)


# writers made once, so those that remember texts meet values they have seen in later examples
WRITERS = [(field, writer) for field in TEXT_FIELDS for writer in (field.json_writer(), field.json_writer(remember=True))]


@given(values=st.lists(priced_values, max_size=8), repeat=st.booleans())
@settings(max_examples=3000, deadline=None, derandomize=True)
def test_priced_texts_are_the_fields_dumps_as_json(values, repeat):
    if repeat and values:
        values = values + [values[-1]] * 3  # the same value again: a remembered text
    for field, write in WRITERS:
        assert write(values) == [json_text(field._serialize(value, None, None)) for value in values]


def test_ranking_keeps_the_order_given_between_equal_keys(app):
    offer = app.extensions["corridor"]["catalog"].by_key["USD_MXN"].quotes[0].offer
    twins = [offer, offer.__class__(**{**{f: getattr(offer, f) for f in offer.__dataclass_fields__}, "provider_id": "twin"})]
    assert [q.offer.provider_id for q in rank_offers(twins, 1.0, 200.0)] == [offer.provider_id, "twin"]
    assert [q.offer.provider_id for q in rank_offers(twins[::-1], 1.0, 200.0)] == ["twin", offer.provider_id]


SHEET_KEYS = [(k, payout, sort) for k in KEYS for payout in PAYOUTS for sort in ("cost", "speed", "score")]


@given(sheet_key=st.sampled_from(SHEET_KEYS), amount=st.one_of(cents.map(lambda c: c and c / 100), st.floats(1e-3, 1e10)))
@settings(max_examples=1000, deadline=None, derandomize=True)
def test_a_sheet_ranks_as_requote_does(app, sheet_key, amount):
    # the same quotes, bit for bit: same offers, order, ranks and figures
    catalog = app.extensions["corridor"]["catalog"]
    corridor, payout, sort = sheet_key
    ranking = catalog.quote_sheet(corridor, payout, sort).rank(amount)
    assert repr(ranking.figures()) == repr(requote(catalog.by_key[corridor], amount, payout, sort))  # 1 ≠ 1.0, -0.0 ≠ 0.0


def _offer_like(offer, **changes):
    return offer.__class__(**{**{f: getattr(offer, f) for f in offer.__dataclass_fields__}, **changes})


@pytest.mark.parametrize("sort", ["cost", "speed", "score"])
@pytest.mark.parametrize("amount", [0.01, 200.0, 1e9])
def test_a_sheet_settles_equal_keys_as_requote_does(app, sort, amount):
    # the data has no two offers alike; these are: equal costs with another score or name, the
    # same settlement, twins that differ in nothing the order looks at, and two whose costs cross
    # at 200 (1.5 %), ranked the other way round at the reference amount, 1000
    offer = app.extensions["corridor"]["catalog"].by_key["USD_MXN"].quotes[0].offer
    offers = [offer, _offer_like(offer, provider_id="twin"), _offer_like(offer, provider="Aardvark"),
              _offer_like(offer, provider="Zebra", svc_score=offer.svc_score + 1),
              _offer_like(offer, provider="Yak", svc_score=offer.svc_score - 1, settlement="2 days"),
              _offer_like(offer, provider="Pika", flat_fee=1.0, fee_pct=0.0, spread_pct=1.0, svc_score=99),
              _offer_like(offer, provider="Quail", flat_fee=2.0, fee_pct=0.0, spread_pct=0.5, svc_score=50)]
    figures = CorridorFigures(app.extensions["corridor"]["catalog"].by_key["USD_MXN"].corridor, 1.5, 1000.0,
                              rank_offers(offers, 1.5, 1000.0))
    ranking = QuoteSheet.build(figures, None, sort).rank(amount)
    assert repr(ranking.figures()) == repr(requote(figures, amount, None, sort))


def test_sheets_are_built_at_start_up_for_every_payout_a_query_may_name(app):
    catalog = app.extensions["corridor"]["catalog"]
    assert set(catalog.sheets) == {(f.corridor.key, payout, sort) for f in catalog.corridors
                                   for payout in (None, *PAYOUT_METHODS) for sort in ("cost", "speed", "score")}
    # a payout no offer of the corridor has: a sheet with no offers, the same one every time
    assert catalog.quote_sheet("USD_MXN", "mobile_wallet", "cost").rank(100.0).order == ()
    assert catalog.quote_sheet("USD_MXN", "mobile_wallet", "cost") is catalog.quote_sheet("USD_MXN", "mobile_wallet", "cost")


@pytest.mark.parametrize("corridor", [k for k in KEYS if any(o["fee_pct"] for c in active(shipped_seed()) if key(c) == k for o in c["offers"])])
@pytest.mark.parametrize("entries", [RankingWriter(RankedProviderSchema, RANKED_PRICED), RankingWriter(ProviderEntrySchema, PRICED)],
                         ids=["group_a", "group_b"])
def test_fees_that_vary_with_the_amount_are_written_per_request(app, corridor, entries):
    sheet = app.extensions["corridor"]["catalog"].quote_sheet(corridor, None, "cost")
    assert sheet.fee_varies
    for amount in (0.01, 250.5, 999_999_999.99):  # the order, and so the layout, may change between them
        ranking = sheet.rank(amount)
        assert json_text(entries.encode(ranking)) == json_text(entries.schema.dump(ranking.quotes(), many=True))
