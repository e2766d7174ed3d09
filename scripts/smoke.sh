#!/usr/bin/env bash
# Usage: scripts/smoke.sh BASE_URL [KEY]
# curl checks of every endpoint of a local or deployed Corridor API: status, content type and a
# field or two. Group A is checked with KEY when given. Stops at the first failure, exit 1.
set -uo pipefail
BASE=${1:?usage: scripts/smoke.sh BASE_URL [KEY]}
BASE=${BASE%/}
KEY=${2:-}
BODY=$(mktemp)
trap 'rm -f "$BODY"' EXIT
passed=0

# check STATUS CONTENT_TYPE PATH [GREP_PATTERN…]; uses $AUTH when set
check() {
  local status=$1 type=$2 path=$3
  shift 3
  local args=(-sS --max-time 10 -o "$BODY" -w '%{http_code} %{content_type}')
  [ -n "${AUTH:-}" ] && args+=(-H "Authorization: Bearer $AUTH")
  local got
  got=$(curl "${args[@]}" "$BASE$path") || { echo "FAIL GET $path: curl could not connect"; exit 1; }
  if [ "${got%% *}" != "$status" ] || [[ "${got#* }" != "$type"* ]]; then
    echo "FAIL GET $path: expected $status $type, got $got: $(head -c 200 "$BODY")"
    exit 1
  fi
  for pattern in "$@"; do
    grep -qF -- "$pattern" "$BODY" || { echo "FAIL GET $path: body lacks $pattern: $(head -c 200 "$BODY")"; exit 1; }
  done
  echo "ok   GET $path → $status"
  passed=$((passed + 1))
}

JSON=application/json
PROBLEM=application/problem+json
check 200 $JSON /api/poc/health '"status":"ok"' '"dataAsOf":"' '"rates":[{"source":"ECB",'
check 200 $JSON /api/poc/corridors '"ok":true' '"corridor":"USD→MXN"'
check 200 $JSON '/api/poc/corridors?from=usd&to=mxn' '"corridor":{"id":1,'
check 200 $JSON /api/poc/corridors/1 '"annualFlowBn":"$'
check 200 $JSON '/api/poc/providers?corridor=USD_MXN' '"corridor":"USD_MXN"' '"rank":1,'
check 200 $JSON /api/poc/providers '"corridors":[{"corridor":"USD_MXN"'
check 200 $JSON /api/poc/full '"updated":"' '"complianceNotes":"'
check 200 $JSON '/api/poc/corridors?limit=2' '"count":2,' '"next":"/api/poc/corridors?limit=2&cursor='
check 200 $JSON /api/poc/guide '"fields":[' '"name":"trueCostPct"'
check 200 $JSON /api/poc/currencies '"code":"USD","name":"US Dollar"'
check 200 $JSON '/api/poc/providers?corridor=USD_MXN&amount=1000&payout=cash_pickup' '"sendAmount":1000.0' '"cash_pickup"'
check 400 $PROBLEM '/api/poc/providers?corridor=USD_MXN&amount=1e3' '"code":"invalid_parameter"'
check 400 $PROBLEM '/api/poc/corridors?from=USD' '"code":"missing_parameter"'
check 404 $PROBLEM /api/poc/corridors/0 '"code":"not_found"'
check 404 $PROBLEM /api/poc/corridors/01 '"detail":"No active corridor has the id '"'01'"'."'
check 200 $JSON /api/poc/benchmark '"corridorCount":' '"cheapest":{"corridor":"'
check 200 $JSON '/api/poc/history?from=USD&to=MXN&interval=month' '"pair":"USD→MXN"' '"points":[{"date":"'
check 200 text/csv '/api/poc/history?from=GBP&to=INR&format=csv' 'date,rate'
check 200 $JSON '/api/poc/history?from=USD&to=MXN&date=2026-01-01' '"count":1,'
check 404 $PROBLEM '/api/poc/history?from=USD&to=MXN&date=1990-01-01' '"code":"no_history"'
# the cost over time, where anything was imported (make smoke-local imports everything make run does)
if curl -fs -o /dev/null --max-time 10 "$BASE/api/poc/costs/global"; then
  check 200 $JSON /api/poc/costs/global '"source":"World Bank RPW"' '"averageTotalCostPct":"' '"publishedMeanOfCorridorsPct":"'
  check 200 $JSON '/api/poc/costs?corridor=KEN-TZA&start=2025Q1' '"corridor":"KEN-TZA"' '"periods":[{"period":"2025Q1"'
  check 200 $JSON '/api/poc/costs?corridor=USA-MEX' '"periods":[{"period":"2011Q1","publishedAverageTotalCostPct":"5.01%"'
  check 200 text/csv '/api/poc/costs.csv?corridor=TZA-UGA' 'period,published_average_total_cost_pct,average_total_cost_pct,'
  check 200 $JSON '/api/poc/costs?corridor=DEU-SRB' '"sourceCountryName":"Germany"'
  check 404 $PROBLEM '/api/poc/providers?corridor=DEU-SRB' '"code":"no_offers"'
  check 200 $JSON '/api/poc/costs/corridors?from_country=USA&limit=2' '"corridors":[{"corridor":"USA-AFG"'
  check 200 text/html '/?corridor=KEN-TZA' 'id="trend-chart"' 'The survey rows held here give'
  check 200 text/html '/?corridor=DEU-SRB' 'id="trend-chart"' 'Germany → Serbia: cost history'
else
  check 404 $PROBLEM /api/poc/costs/global '"code":"no_survey_data"'
  echo "skip the survey's costs by corridor: no survey imported"
fi
check 200 text/html / '<h1>What sending money really costs</h1>' 'USD→MXN'
check 200 text/html '/?corridor=GBP_INR&amount=1000' 'GBP→INR'
check 200 $JSON /api/openapi.json '"openapi":"3.0.3"'
check 200 text/html /api/docs 'swagger-ui'
check 404 $PROBLEM /no/such/path '"code":"not_found"'
check 401 $PROBLEM /api/corridors '"code":"missing_api_key"'
if [ -n "$KEY" ]; then
  AUTH=$KEY
  check 200 $JSON /api/corridors '"from_currency":"USD","to_currency":"MXN"'
  check 200 $JSON '/api/providers?corridor=usd_mxn' '"rank":1,' '"true_cost_pct":'
  check 200 $JSON '/api/midrate?from=USD&to=EUR' '"ref_rate_b":' '"updated":"'
  check 200 $JSON /api/currencies '{"code":"MXN","name":"Mexican Peso","source":"'
  check 200 $JSON '/api/providers?corridor=USD_MXN&amount=1000&payout=cash_pickup&sort=speed' '"send_amount":1000.0' '"settlement_minutes":'
  check 404 $PROBLEM '/api/providers?corridor=USD_XYZ' '"code":"unknown_corridor"'
  check 200 $JSON '/api/providers?corridor=USD_MXN&receive_amount=5000' '"recipient_gets":5000.0'
  check 200 $JSON /api/benchmark '"corridor_count":' '"smart_avg_cost_pct":'
  check 200 $JSON '/api/history?from=USD&to=MXN&interval=week' '"from":"USD","to":"MXN"' '"points":[{"date":"'
  check 200 text/csv '/api/history?from=USD&to=JPY&start=2026-01-01&end=2026-01-31&format=csv' 'date,rate'
  check 200 $JSON /api/benchmark '"survey":'
  AUTH=wrong-key
  check 401 $PROBLEM /api/corridors '"code":"invalid_api_key"'
else
  echo "skip Group A with a key: no KEY given"
fi
echo "$passed passed, 0 failed"
