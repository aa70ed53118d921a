"""Serving under load and bad input: threads at once, errors as sentences, bounded work, no 500.

Most tests talk to a real ``kb serve`` process (``live_server``) over HTTP from several threads,
as users do; a few use Datasette in-process to see what the server prints.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.serve import free_port, remove_stale_metadata, running_server

SEARCHES = ["discover", "発見", "search your library", "墓地", "first strike", "ライブラリーから探す",
            "villainous choice", "探検", "mana value", "手札"]


def _get(base: str, path: str, **kw) -> httpx.Response:
    return httpx.get(base + path, timeout=60, **kw)


# ---------------------------------------------------------------- concurrency

def test_concurrent_searches_over_http_never_fail(live_server):
    # 8 threads, each its own connection, English and Japanese mixed: Sudachi is per thread now.
    paths = [f"/-/search.json?q={q}" for q in SEARCHES] * 4
    paths += [f"/kb/search_current?_search={q}" for q in SEARCHES]
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda p: _get(live_server, p).status_code, paths))
    assert statuses == [200] * len(paths)


def test_concurrent_searches_through_datasette_client_in_threads(ds):
    # datasette.client from several threads, each with its own event loop.
    async def one(q):
        return (await ds.client.get(f"/-/search.json?q={q}")).status_code

    def in_thread(q):
        return asyncio.run(one(q))

    with ThreadPoolExecutor(6) as pool:
        statuses = list(pool.map(in_thread, SEARCHES * 3))
    assert statuses == [200] * len(SEARCHES) * 3


def test_sql_function_segments_japanese_in_threads(live_server):
    # The table search box calls escape_fts (our Japanese segmenter) inside SQLite, in Datasette's threads.
    with ThreadPoolExecutor(8) as pool:
        responses = list(pool.map(lambda q: _get(live_server, f"/kb/rules.json?_search={q}&_size=1&release=20260116"),
                                  ["発見", "墓地", "探す", "手札", "追放"] * 4))
    assert [r.status_code for r in responses] == [200] * 20
    assert all(r.json()["rows"] for r in responses)


# ---------------------------------------------------------------- errors are answered, not crashed on

@pytest.mark.parametrize("path, status", [
    ("/-/nosuch", 404),
    ("/kb/nosuch_table", 404),
    ("/kb/rules?_sort=nosuch", 400),
    ("/kb/rules.json?_sort_desc=nosuch", 400),
    ("/kb/rules/nosuchpk", 404),
    ("/kb/rules/nosuchpk.json", 404),
    ("/-/search?q=x&limit=%C2%B2", 400),       # ² passes str.isdigit()
    ("/-/search.json?q=x&limit=%E2%91%A0", 400),  # ①
    ("/-/run/discover?n=%E2%91%A0", 400),
    ("/-/run/discover.json?n=%D9%A3", 400),      # Arabic-Indic 3
    ("/kb.json?sql=select+randomblob(500000000)", 400),
    ("/kb.json?sql=select+zeroblob(500000000)", 400),
    ("/kb.json?sql=select+length(replace(hex(zeroblob(9000000)),'0','000'))", 400),
])
def test_bad_requests_are_4xx_with_a_sentence(live_server, path, status):
    started = time.monotonic()
    response = _get(live_server, path)
    assert response.status_code == status, response.text[:300]
    assert time.monotonic() - started < 10
    if path.split("?")[0].endswith(".json"):
        body = response.json()
        assert body["ok"] is False and len(body["error"]) > 10
    else:
        assert "<title>" in response.text and "Traceback" not in response.text


MISSING = ["/-/cards/nosuch", "/-/cards/nosuch.json", "/-/cards/%E7%99%BA", "/-/rules/799.99", "/-/rules/799.99.json",
           "/-/keywords/nosuch", "/-/keywords/nosuch.json", "/-/scenarios/nosuch", "/-/rules/nosuchword"]


def test_a_missing_page_asked_again_is_still_a_404(live_server):
    # A miss is remembered per process: the second asker gets it from memory (a CardNotFound
    # remade from its message alone was a 500 for everyone after the first).
    with ThreadPoolExecutor(8) as pool:
        responses = list(pool.map(lambda p: _get(live_server, p), MISSING * 4))
    assert [(r.url.path, r.status_code) for r in responses] == [(httpx.URL(live_server + p).path, 404)
                                                                for p in MISSING * 4]
    for r in responses:
        if r.url.path.endswith(".json"):
            assert r.json()["ok"] is False and r.json()["error"]
    cards = [r.json() for r in responses if r.url.path == "/-/cards/nosuch.json"]
    assert len({str(c) for c in cards}) == 1 and "suggestions" in cards[0]


def test_printf_past_the_limit_builds_nothing(live_server):
    # SQLite's printf gives NULL rather than a value over the length limit.
    response = _get(live_server, "/kb.json?sql=select+printf('%25.*c',300000000,'x')+as+s&_shape=array")
    assert response.status_code == 200 and response.json() == [{"s": None}]


def test_a_value_under_the_length_limit_still_works(live_server):
    response = _get(live_server, "/kb.json?sql=select+length(randomblob(1000000))+as+n&_shape=array")
    assert response.status_code == 200 and response.json() == [{"n": 1000000}]


@pytest.mark.parametrize("path", ["/\\evil.example/", "/\\evil.example", "//evil.example/", "/%5Cevil.example/"])
def test_no_redirect_to_another_host(live_server, path):
    response = httpx.get(live_server + path, follow_redirects=False, timeout=30)
    assert response.status_code == 404
    assert "location" not in response.headers


def test_writes_are_refused_on_a_read_only_server(live_server):
    for path in ("/kb/rule_across_releases", "/kb/keyword_actions_newest", "/kb/rules"):
        response = httpx.post(live_server + path, data={"number": "701.23"}, timeout=30)
        assert response.status_code == 405 and response.headers["allow"].startswith("GET")


def test_errors_print_no_traceback(ds, capsys):
    async def run():
        return [(await ds.client.get(p)).status_code for p in ("/-/nosuch", "/kb/rules?_sort=nosuch")]

    assert asyncio.run(run()) == [404, 400]
    printed = capsys.readouterr()
    assert "Traceback" not in printed.out + printed.err
    assert len(printed.out + printed.err) < 2000


def test_error_page_is_our_page(live_server):
    page = _get(live_server, "/kb/rules?_sort=nosuch")
    assert 'class="message-error kb-error"' in page.text and "Cannot sort table by nosuch" in page.text


# ---------------------------------------------------------------- bounded work

def test_a_long_query_of_short_words_is_answered_quickly(live_server):
    q = " ".join(["a b c d of to"] * 30)[:200]
    started = time.monotonic()
    response = _get(live_server, f"/-/search.json?q={q}")
    assert response.status_code in (200, 400)
    assert time.monotonic() - started < 15
    if response.status_code == 400:
        assert response.json()["error"]


def test_a_too_long_query_is_a_400_with_a_sentence(live_server):
    response = _get(live_server, "/-/search.json?q=" + "x" * 2000)
    assert response.status_code == 400
    assert "characters" in response.json()["error"]


def test_plugin_work_stops_at_its_time_limit():
    from kb.plugin.bounded import WorkTooLong, run_bounded
    from kb.sqlite import sqlite3

    conn = sqlite3.connect(":memory:")
    endless = "with recursive n(i) as (select 1 union all select i + 1 from n) select count(*) from n"
    started = time.monotonic()
    with pytest.raises(WorkTooLong, match="took longer than 100 ms"):
        run_bounded(conn, lambda c: c.execute(endless).fetchone(), 100, "counting")
    assert time.monotonic() - started < 5
    assert conn.execute("select 1").fetchone() == (1,)  # the handler is gone afterwards


# ---------------------------------------------------------------- fuzzing the parameters

PAGES = ["/-/search", "/-/search.json", "/-/rules/701.57", "/-/rules/701.57.json", "/-/keywords/discover",
         "/-/diff", "/-/diff.json", "/-/run/discover", "/-/run/discover.json", "/-/scenarios",
         "/kb/rules", "/kb/rules.json", "/kb/search_current.json", "/", "/-/coverage", "/-/coverage.json"]
PARAMS = ["q", "limit", "release", "lang", "section", "show", "old", "new", "n", "library", "mode", "seed",
          "_sort", "_sort_desc", "_size", "_search", "_facet", "_next", "_shape", "_format", "number", "kind", "only"]
VALUES = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["²", "①", "٣", "-1", "0", "999999999999", "1e9", "20260116", "19990101", "ja", "zh",
                     "both", "701.57a", "'; drop table rules; --", "%", "\\", "\x00", "ｘ" * 30, "🂡"]),
)


@pytest.fixture(scope="module")
def fuzz_client(live_server):
    with httpx.Client(base_url=live_server, timeout=60) as client:
        yield client


@settings(max_examples=int(os.environ.get("KB_FUZZ_EXAMPLES", "150")), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(page=st.sampled_from(PAGES), params=st.dictionaries(st.sampled_from(PARAMS), VALUES, max_size=4))
def test_no_parameter_gives_a_500(fuzz_client, page, params):
    response = fuzz_client.get(page, params=params)
    assert response.status_code < 500, (page, params, response.text[:300])


# ---------------------------------------------------------------- kb serve --public, and its files

def test_public_server_has_no_arbitrary_sql_and_no_download(built_db):
    with running_server(built_db, public=True) as base:
        assert _get(base, "/kb.json?sql=select+1").status_code == 403
        assert _get(base, f"/{built_db.stem}.db").status_code in (403, 404)
        canned = _get(base, "/kb/rule_across_releases.json?rule=701.23&_shape=array")
        assert canned.status_code == 200 and canned.json()
        assert _get(base, "/-/rules/701.57").status_code == 200


def _metadata_files(pid: int) -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob(f"kb-metadata-{pid}-*.json"))


def test_kb_serve_removes_its_metadata_file_when_stopped(built_db):
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve", "--db", str(built_db), "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not _metadata_files(process.pid):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.1)
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/-/versions.json", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    assert _metadata_files(process.pid) == []


def test_stale_metadata_of_dead_servers_is_removed(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f"kb-metadata-{dead.pid}-abc.json"
    live = tmp_path / f"kb-metadata-{os.getpid()}-abc.json"
    stale.write_text("{}")
    live.write_text("{}")
    assert remove_stale_metadata(tmp_path) == [stale]
    assert live.exists() and not stale.exists()


SEGMENT = st.one_of(st.text(min_size=1, max_size=30).filter(lambda s: s not in (".", "..")),
                    st.sampled_from(["701.57", "701.57a", "発見", "Discover", "rules", "nosuch", "%", "~2E",
                                     "a.json", "20260116,en,701.57", "x" * 300]))


@settings(max_examples=int(os.environ.get("KB_FUZZ_EXAMPLES", "150")), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(prefix=st.sampled_from(["/-/rules/", "/-/keywords/", "/-/cards/", "/-/scenarios/", "/-/run/", "/kb/", "/kb/rules/",
                               "/kb/glossary/", "/-/", "/"]), segment=SEGMENT)
def test_no_path_gives_a_500(fuzz_client, prefix, segment):
    from urllib.parse import quote

    response = fuzz_client.get(prefix + quote(segment, safe=""))
    assert response.status_code < 500, (prefix, segment, response.text[:300])
