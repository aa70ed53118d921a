"""Many users asking for everything at once, over real HTTP against a real ``kb serve``.

12 threads, each with its own connection, send ~240 requests mixing searches (questions, rule
numbers, typos, Japanese), rule, keyword, card and board pages, JSON endpoints and invalid
parameters. Every valid request must be a 200 with the content it asked for (a search past its
time limit under load degrades to a lexical answer with a note, it does not fail); every invalid
one a 4xx with a sentence; nothing a 5xx or a dropped connection. Then a burst of 40 clients at
once: each is answered (or told 503 with Retry-After), none hangs.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote, urlencode

import httpx
import pytest


def _json_groups_start(number: str):
    def check(r: httpx.Response) -> bool:
        groups = r.json()["groups"]
        return bool(groups) and groups[0]["number"].startswith(number)
    return check


def _json_has_groups(r: httpx.Response) -> bool:
    data = r.json()
    return data["ok"] is True and bool(data["groups"])


def _html_has(*needles: str):
    def check(r: httpx.Response) -> bool:
        return "<title>" in r.text and all(n in r.text for n in needles)
    return check


def _json_field(key: str, value):
    def check(r: httpx.Response) -> bool:
        return r.json().get(key) == value
    return check


def _json_error(r: httpx.Response) -> bool:
    body = r.json()
    return body["ok"] is False and len(body["error"]) > 10


def _html_error(r: httpx.Response) -> bool:
    return "<title>" in r.text and "Traceback" not in r.text


LIBRARY = "Forest\nDarksteel Colossus\nShock\nIsland\nGrizzly Bears"

# (path, expected status, what the answer must hold)
VALID = [
    ("/-/search.json?" + urlencode({"q": "what does hexproof stop"}), 200, _json_has_groups),
    ("/-/search.json?" + urlencode({"q": "can a tapped creature block"}), 200, _json_has_groups),
    ("/-/search.json?" + urlencode({"q": "what happens when I discover with an empty library"}), 200,
     _json_has_groups),
    ("/-/search.json?" + urlencode({"q": "704.5a"}), 200, _json_groups_start("704.5")),
    ("/-/search.json?" + urlencode({"q": "rule 701.57"}), 200, _json_groups_start("701.57")),
    ("/-/search.json?" + urlencode({"q": "hexprof"}), 200, _json_has_groups),            # a typo
    ("/-/search.json?" + urlencode({"q": "trampel damage"}), 200, _json_has_groups),     # a typo
    ("/-/search.json?" + urlencode({"q": "呪禁は何を防ぐ？"}), 200, _json_has_groups),
    ("/-/search.json?" + urlencode({"q": "召喚酔いのクリーチャーでブロックできる？"}), 200, _json_has_groups),
    ("/-/search.json?" + urlencode({"q": "発見"}), 200, _json_has_groups),
    ("/-/search.json?" + urlencode({"q": "ルール510.1c"}), 200, _json_groups_start("510.1")),
    ("/-/search?" + urlencode({"q": "first strike"}), 200, _html_has("first strike")),
    ("/-/search?" + urlencode({"q": "墓地"}), 200, _html_has("墓地")),
    ("/-/rules/701.57", 200, _html_has("701.57", "Discover")),
    ("/-/rules/704.5a", 200, _html_has("704.5a")),
    ("/-/rules/701.57.json", 200, lambda r: "701.57" in r.text),
    ("/-/rules/Discover", 200, _html_has("701.57")),
    ("/-/rules/" + quote("発見"), 200, _html_has("701.57")),
    ("/-/keywords/discover", 200, _html_has("Discover")),
    ("/-/keywords/" + quote("発見"), 200, _html_has("Discover")),
    ("/-/keywords/discover.json", 200, lambda r: "701.57" in r.text),
    ("/-/keywords", 200, _html_has("Discover")),
    ("/-/cards/Shock", 200, _html_has("Shock", "ショック")),
    ("/-/cards/Howling%20Mine.json", 200, lambda r: "Howling Mine" in r.text),
    ("/-/scenarios", 200, _html_has("discover")),
    ("/-/scenarios/discover-701.57a-bramble-familiar-discover-3", 200, _html_has("Bramble Familiar")),
    ("/-/scenarios/behold-701.4a-either-way", 200, _html_has("<title>")),
    ("/-/scenarios/activate-701.2a-mana-ability", 200, _html_has("<title>")),
    ("/-/scenarios/activate-701.2a-mana-ability.json", 200, _json_field("ok", True)),
    ("/-/run/discover.json?" + urlencode({"n": 3, "library": LIBRARY, "mode": "explore"}), 200,
     lambda r: bool(r.json()["outcomes"])),
    ("/-/diff.json?" + urlencode({"old": "20250404", "new": "20260116"}), 200, lambda r: r.json()["ok"] is not False),
    ("/-/coverage.json", 200, lambda r: r.status_code == 200 and r.json() is not None),
    ("/kb/rules.json?" + urlencode({"number": "701.57", "_shape": "array"}), 200, lambda r: bool(r.json())),
    ("/kb/rules?" + urlencode({"_search": "発見"}), 200, _html_has("701.57")),
    ("/", 200, _html_has("<form")),
]

INVALID = [
    ("/-/search.json?" + urlencode({"q": "x", "limit": "abc"}), 400, _json_error),
    ("/-/search.json?" + urlencode({"q": "x", "lang": "fr"}), 400, _json_error),
    ("/-/search.json?" + urlencode({"q": "x" * 600}), 400, _json_error),
    ("/-/search.json?" + urlencode({"q": "x", "release": "2026"}), 400, _json_error),
    ("/-/rules/799.99", 404, _html_error),
    ("/-/rules/701.57.json?release=abc", 400, _json_error),
    ("/-/keywords/nosuch.json", 404, _json_error),
    ("/-/cards/nosuchcardatall.json", 404, _json_error),
    ("/-/scenarios/nosuch", 404, _html_error),
    ("/-/run/discover.json?n=abc", 400, _json_error),
    ("/-/run/discover.json?" + urlencode({"n": 3, "library": "Lightnig Bolt"}), 400, _json_error),
    ("/-/diff.json?old=abc&new=def", 400, _json_error),
    ("/kb/rules.json?_sort=nosuch", 400, _json_error),
    ("/kb/nosuch_table", 404, _html_error),
]


def _is_valid(status: int) -> bool:
    return status == 200


def _ask(client: httpx.Client, case) -> tuple[str, int | str, bool]:
    path, expected, check = case
    try:
        r = client.get(path)
    except httpx.HTTPError as e:
        return path, type(e).__name__, False
    try:
        holds = r.status_code == expected and bool(check(r))
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as e:  # an answer that isn't the shape asked for (not JSON, a missing key)
        return path, f"{r.status_code} unreadable: {type(e).__name__}: {e}", False
    return path, r.status_code, holds


def test_twelve_clients_mixing_every_page_are_all_answered(live_server):
    cases = (VALID * 5 + INVALID * 5)[:240]
    random.Random(15).shuffle(cases)
    local = threading.local()

    def ask(case):
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=live_server, timeout=120, follow_redirects=True)
        return _ask(local.client, case)

    with ThreadPoolExecutor(max_workers=12) as pool:
        results = list(pool.map(ask, cases))
    transport = [(p, s) for p, s, _ in results if isinstance(s, str)]
    server_errors = [(p, s) for p, s, _ in results if isinstance(s, int) and s >= 500]
    wrong = [(p, s) for p, s, ok in results if not ok]
    assert transport == [] and server_errors == []
    assert wrong == [], f"{len(wrong)} of {len(results)} not answered as expected: {sorted(set(wrong))}"


def test_a_burst_of_forty_clients_is_queued_or_told_to_retry(live_server):
    # Searches are the dearest requests (~0.2 s of CPU each): 40 at once, each from its own client.
    queries = ["what does hexproof stop", "呪禁は何を防ぐ？", "can a tapped creature block", "commander tax",
               "what is an ETB trigger", "ライブラリーの一番上", "first strike damage", "mana value of a split card"]
    barrier = threading.Barrier(40)

    def ask(i):
        with httpx.Client(base_url=live_server, timeout=90) as client:
            barrier.wait()
            started = time.monotonic()
            try:
                r = client.get("/-/search.json", params={"q": queries[i % len(queries)]})
            except httpx.HTTPError as e:
                return type(e).__name__, None, time.monotonic() - started
            return r.status_code, r, time.monotonic() - started

    with ThreadPoolExecutor(max_workers=40) as pool:
        results = list(pool.map(ask, range(40)))
    statuses = [s for s, _, _ in results]
    assert all(s in (200, 503) for s in statuses), statuses
    for status, r, seconds in results:
        assert seconds < 60, f"a request waited {seconds:.0f} s"
        if status == 503:
            assert int(r.headers["retry-after"]) >= 1 and r.json()["ok"] is False
        else:
            assert r.json()["groups"]
    assert statuses.count(200) >= 20  # queued, not refused wholesale
    # The server is itself afterwards.
    assert httpx.get(live_server + "/-/rules/701.57", timeout=30).status_code == 200


# ---------------------------------------------------------------- the queue itself, in one event loop

def test_admission_queues_in_order_then_refuses_a_full_queue():
    from kb.plugin.admission import Admission

    async def scenario():
        gate = Admission(slots=1, queue=2, wait=5)
        assert await gate.enter() == 0.0                      # the slot
        order = []

        async def second(name):
            await gate.enter()
            order.append(name)

        waiting = [asyncio.create_task(second("b")), asyncio.create_task(second("c"))]
        await asyncio.sleep(0.01)
        assert await gate.enter() is None                     # two already wait: refused at once
        gate.leave(0.1)
        await asyncio.sleep(0.01)
        gate.leave(0.1)
        await asyncio.gather(*waiting)
        gate.leave(0.1)
        return order, gate.running, list(gate.waiters)

    assert asyncio.run(scenario()) == (["b", "c"], 0, [])


def test_admission_refuses_after_the_wait_and_says_when_to_retry():
    from kb.plugin.admission import Admission

    async def scenario():
        gate = Admission(slots=1, queue=10, wait=0.05)
        await gate.enter()
        refused = await gate.enter()
        return refused, gate.retry_after(), gate.running, len(gate.waiters)

    refused, retry_after, running, waiting = asyncio.run(scenario())
    assert refused is None and retry_after >= 1 and (running, waiting) == (1, 0)


def test_a_client_that_leaves_while_waiting_takes_no_slot():
    from kb.plugin.admission import Admission

    async def scenario():
        gate = Admission(slots=1, queue=10, wait=5)
        await gate.enter()
        gone = asyncio.create_task(gate.enter())
        await asyncio.sleep(0.01)
        gone.cancel()
        await asyncio.sleep(0.01)
        gate.leave(0.1)
        return await gate.enter(), gate.running

    assert asyncio.run(scenario()) == (0.0, 1)  # the slot was free again, not held by the one that left


def test_a_slot_freed_in_another_thread_wakes_a_waiter_in_its_own_event_loop():
    # Datasette's client can be driven from several threads, each with its own loop: a slot freed in
    # one must wake the waiter of another at once, not leave it to time out into a 503.
    import threading
    import time

    from kb.plugin.admission import Admission

    gate = Admission(slots=1, queue=10, wait=10)
    entered, waited = threading.Event(), []

    def holder():
        async def hold():
            await gate.enter()
            entered.set()
            await asyncio.sleep(0.2)
            gate.leave(0.2)
        asyncio.run(hold())

    def waiter():
        entered.wait(5)
        started = time.monotonic()
        waited.append((asyncio.run(gate.enter()), time.monotonic() - started))

    threads = [threading.Thread(target=holder), threading.Thread(target=waiter)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    (result, seconds), = waited
    assert result is not None and seconds < 5, (result, seconds)
    assert (gate.running, len(gate.waiters)) == (1, 0)


def test_cheap_pages_keep_a_sql_thread_however_many_dear_requests_wait():
    from pathlib import Path

    from kb.plugin.admission import SLOTS
    from kb.serve import datasette_args

    args = datasette_args(Path("kb.db"), Path("metadata.json"))
    threads = int(args[args.index("num_sql_threads") + 1])
    assert threads > SLOTS


# ---------------------------------------------------------------- degrading rather than failing

def _search_in_process(ds, path: str, busy: float | None = None) -> dict:
    import json

    from datasette.utils.asgi import Request

    from kb.plugin import admission, search_page

    async def run():
        await ds.invoke_startup()
        request = Request.fake(path)
        request.scope["url_route"] = {"kwargs": {"format": "json"}}
        if busy is not None:
            request.scope[admission.BUSY] = busy
        response = await search_page.search_view(ds, request)
        return response.status, json.loads(response.body)

    return asyncio.run(run())


def test_a_search_past_its_time_limit_is_answered_by_its_words(ds, monkeypatch):
    from kb.search import engine

    real = engine.answer
    calls = []

    def slow_unless_words_only(conn, query, **kw):
        calls.append(kw)
        if kw.get("others", True):  # the full search: as if it ran out of time on a loaded server
            raise engine.SearchTimeout("the search took longer than 2000 ms and was stopped")
        return real(conn, query, **kw)

    monkeypatch.setattr(engine, "answer", slow_unless_words_only)
    status, data = _search_in_process(ds, "/-/search.json?q=what+does+hexproof+stop")
    assert status == 200 and data["groups"]
    assert data["notes"][-1].startswith("the full search took too long")
    assert [c.get("others", True) for c in calls] == [True, False]


def test_a_search_that_waited_for_its_turn_skips_the_search_by_meaning(ds, monkeypatch):
    from kb.search import engine

    real = engine.answer
    asked = []
    monkeypatch.setattr(engine, "answer", lambda conn, query, **kw: asked.append(kw.get("dense")) or real(conn, query, **kw))
    status, data = _search_in_process(ds, "/-/search.json?q=can+a+tapped+creature+block", busy=1.5)
    assert status == 200 and data["groups"] and asked == [False]
    assert any(n.startswith("the server is busy") for n in data["notes"])
    status, data = _search_in_process(ds, "/-/search.json?q=can+a+tapped+creature+block")
    assert asked[-1] is None and not any(n.startswith("the server is busy") for n in data["notes"])


# ---------------------------------------------------------------- Datasette's own limits count CPU time

_NAPS = "with recursive n(i) as (select 1 union all select i + 1 from n where i < 10) select sum(nap(i)) from n"


def _napping_connection():
    from kb.sqlite import sqlite3

    conn = sqlite3.connect(":memory:")
    conn.create_function("nap", 1, lambda i: time.sleep(0.005) or i)  # waits, as for a busy core
    return conn


def test_datasette_sql_that_waits_for_a_core_is_not_stopped():
    import datasette.database
    from datasette.utils import sqlite_timelimit

    import kb.plugin  # noqa: F401  (loading the plugin puts the CPU-time limit in place)
    from kb.plugin.bounded import cpu_timelimit
    from kb.sqlite import sqlite3

    assert datasette.database.sqlite_timelimit is cpu_timelimit
    conn = _napping_connection()
    with cpu_timelimit(conn, 20):           # 50 ms of waiting, no CPU to speak of
        assert conn.execute(_NAPS).fetchone() == (55,)
    with pytest.raises(sqlite3.OperationalError, match="interrupted"), sqlite_timelimit(conn, 20):
        conn.execute(_NAPS).fetchone()      # Datasette's own limit stops it


def test_datasette_sql_that_works_past_its_limit_is_still_stopped():
    from kb.plugin.bounded import cpu_timelimit
    from kb.sqlite import sqlite3

    conn = sqlite3.connect(":memory:")
    endless = "with recursive n(i) as (select 1 union all select i + 1 from n) select count(*) from n"
    started = time.monotonic()
    with pytest.raises(sqlite3.OperationalError, match="interrupted"), cpu_timelimit(conn, 50):
        conn.execute(endless).fetchone()
    assert time.monotonic() - started < 5


def test_a_request_refused_by_the_queue_is_a_503_with_retry_after():
    import json

    from kb.plugin.admission import BUSY, Admission, admitted

    seen = []

    async def slow_app(scope, receive, send):
        seen.append(scope.get(BUSY))
        await asyncio.sleep(0.2)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def call(app, path):
        sent = []

        async def send(message):
            sent.append(message)

        await app({"type": "http", "path": path, "query_string": b""}, None, send)
        return sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"]

    async def scenario():
        app = admitted(slow_app, Admission(slots=1, queue=1, wait=5))
        return await asyncio.gather(call(app, "/-/search.json"), call(app, "/-/search.json"),
                                    call(app, "/-/search.json"), call(app, "/-/rules/701.57"))

    first, second, third, cheap = asyncio.run(scenario())
    assert first[0] == second[0] == cheap[0] == 200          # one ran, one waited its turn; a rule page never waits
    assert third[0] == 503 and int(third[1][b"retry-after"]) >= 1
    assert json.loads(third[2])["ok"] is False and "busy" in json.loads(third[2])["error"]
    assert len(seen) == 3  # the refused request never reached the pages
