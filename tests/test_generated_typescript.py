"""TypeScript types generated from the served OpenAPI document by openapi-typescript, checked by tsc.

openapi-typescript and typescript come from the npm registry at the versions and integrity of
tests/typescript/package-lock.json (`npm ci` once, cached in .cache/typescript/). A small program that
uses the types as a client would must compile: the CSV files are text, every error is a Problem, and
the benchmark's extremes are a corridor or null; the lines marked @ts-expect-error must not compile.
"""

import hashlib
import json
import os
import shutil
import subprocess

import pytest
from harness import ROOT, skip_without

LOCKED = ROOT / "tests" / "typescript"
TOOLS = ROOT / ".cache" / "typescript" / hashlib.sha256((LOCKED / "package-lock.json").read_bytes()).hexdigest()[:16]

USES = """
import type { components, paths } from "./api";

type Ok<P extends keyof paths> = paths[P]["get"]["responses"][200]["content"];
type Refused<P extends keyof paths, S extends keyof paths[P]["get"]["responses"]> =
  paths[P]["get"]["responses"][S] extends { content: infer C } ? C : never;

// the CSV operations answer text
const groupA: Ok<"/api/history.csv">["text/csv"] = "date,rate\\r\\n2026-10-30,18.9077\\r\\n";
const groupB: Ok<"/api/poc/history.csv">["text/csv"] = groupA;
// @ts-expect-error: not JSON
const notJson: Ok<"/api/history.csv">["application/json"] = {};

// every error is a Problem, and nothing else (no text/html of the server's)
const problem: components["schemas"]["Problem"] = {
  type: "about:blank", title: "Too Many Requests", status: 429, detail: "Try again in 41 seconds.",
  code: "rate_limited", ok: false };
const tooMany: Refused<"/api/corridors", 429> = { "application/problem+json": problem };
const notFound: Refused<"/api/poc/corridors/{corridor_id}", 404> = { "application/problem+json": problem };
// @ts-expect-error: no text/html answer is documented
const page: Refused<"/api/corridors", 401> = { "text/html": "<html>" };

// the benchmark's extremes: a corridor, or null; not any object
const none: components["schemas"]["Benchmark"]["cheapest"] = null;
const cheapest: components["schemas"]["Benchmark"]["cheapest"] = { key: "SGD_IDR", avg_cost_pct: 2.77 };
const display: components["schemas"]["BenchmarkResponse"]["costliest"] = {
  corridor: "USD→CNY", key: "USD_CNY", avgCost: "7.96%" };
// @ts-expect-error: an empty object is no corridor
const empty: components["schemas"]["Benchmark"]["costliest"] = {};

// a page of corridors: limit and cursor in the query; the next page's URL, or null
type Query<P extends keyof paths> = NonNullable<paths[P]["get"]["parameters"]["query"]>;
const paged: Query<"/api/poc/corridors"> = { limit: 100, cursor: "YWZ0ZXI6MTAw" };
const last: components["schemas"]["CorridorListResponse"]["next"] = null;
// @ts-expect-error: limit is a number
const wordy: Query<"/api/corridors"> = { limit: "ten" };

export { groupB, notJson, tooMany, notFound, page, none, cheapest, display, empty, paged, last, wordy };
"""


@pytest.fixture(scope="module")
def tools():
    """openapi-typescript and tsc as the lock file pins them, installed once."""
    if not (TOOLS / "node_modules" / ".bin" / "tsc").exists():
        skip_without("npm")
        partial = TOOLS.with_suffix(".part")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(LOCKED / name, partial / name)
        installed = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"],
            cwd=partial,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert installed.returncode == 0, installed.stderr[-2000:]
        os.replace(partial, TOOLS)  # whole or not at all, for the next run
    return TOOLS / "node_modules" / ".bin"


def test_a_typescript_client_types_csv_as_text_errors_as_problems_and_extremes_as_nullable(app, tools, tmp_path):
    document = app.test_client().get("/api/openapi.json").get_json()
    (tmp_path / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    generated = subprocess.run(
        [str(tools / "openapi-typescript"), "openapi.json", "-o", "api.ts"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert generated.returncode == 0, generated.stderr
    (tmp_path / "uses.ts").write_text(USES, encoding="utf-8")
    checked = subprocess.run(
        [
            str(tools / "tsc"),
            "--noEmit",
            "--strict",
            "--target",
            "es2022",
            "--module",
            "es2022",
            "--moduleResolution",
            "bundler",
            # the types need no DOM, and tsc's own declarations are checked by its makers: 0.6 CPU-seconds, not 2.7
            "--lib",
            "es2022",
            "--skipLibCheck",
            "uses.ts",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
