"""Many users at once: /-/search from 16 threads against a real Datasette server never answers 500."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx

QUERIES = [
    "what does hexproof stop", "呪禁は何を防ぐ？", "rule 704.5a", "hexprof", "ルール510.1c",
    "can a tapped creature block", "what is an ETB trigger", "召喚酔いのクリーチャーでブロックできる？",
    "discover", "what is the", '"unbalanced', "ﾄﾗﾝﾌﾟﾙ", "commander tax", "x" * 501,
]


def test_sixteen_clients_never_get_a_500(live_server):
    def ask(i):
        q = QUERIES[i % len(QUERIES)]
        with httpx.Client(timeout=60) as client:
            r = client.get(f"{live_server}/-/search.json", params={"q": q})
            return q, r.status_code, r.json()

    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(ask, range(48)))
    statuses = {status for _, status, _ in results}
    assert 500 not in statuses
    for q, status, data in results:
        if len(q) > 500:
            assert status == 400 and "at most 500" in data["error"]
        else:
            assert status == 200 and data["ok"], (q, data)
            assert data["groups"] or data["notes"], q  # never a bare "no hits"


# Garbage from many users at once, on every page: answered (a 4xx with a sentence for what is
# wrong), never a 500, whatever the others are asking at the same moment.
GARBAGE_VALUES = ["", "%00", "\x00", "-1", "0", "99999999999999999999", "1e309", "NaN", "ｘ" * 300, "a" * 5000,
                  "'; drop table rules; --", "\u202e\u0301\u200b", "🂡", '"unbalanced', "NEAR(a b)", "*"]
GARBAGE_PAGES = {
    "/-/search.json": ["q", "limit", "lang", "release"],
    "/-/rules/701.57.json": ["release", "lang", "show"],
    "/-/keywords/discover.json": ["release", "lang"],
    "/-/diff.json": ["old", "new", "lang", "section"],
    "/-/run/discover.json": ["n", "library", "mode", "seed"],
    "/-/cards/Shock.json": ["asked", "lang"],
    "/kb/rules.json": ["_sort", "_sort_desc", "_facet", "_size", "_next", "_where", "_search", "number__gt"],
}
GARBAGE = [(page, {param: value}) for page, params in GARBAGE_PAGES.items() for param in params
           for value in GARBAGE_VALUES]
GARBAGE += [("/-/search.json", [("q", f"a{i}") for i in range(300)]),          # one parameter 300 times
            ("/-/diff.json", {"old": "19990421", "new": "20260417"}),           # the widest diff there is
            ("/kb/rules.json", {"_facet": ["text", "number", "release", "lang", "kind", "parent"]}),
            ("/kb/rules.json", {"_where": "(select count(*) from rules a, rules b) > 0"})]


def test_eight_clients_sending_garbage_never_get_a_500(live_server):
    def ask(item):
        page, params = item
        with httpx.Client(base_url=live_server, timeout=60) as client:
            r = client.get(page, params=params)
        return page, params, r.status_code, r

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(ask, GARBAGE))
    server_errors = [(page, str(params)[:80], status) for page, params, status, _ in results if status >= 500]
    assert server_errors == []
    for page, params, status, r in results:
        if status >= 400 and page.startswith("/-/"):
            body = r.json()
            assert body["ok"] is False and len(body["error"]) > 10, (page, params, body)
    # An odd query is a query, read as it is (a search for "🂡" or "NEAR(a b)"), not refused.
    odd_queries = [(params["q"], status) for page, params, status, _ in results
                   if page == "/-/search.json" and isinstance(params, dict) and "q" in params]
    assert [(q, status) for q, status in odd_queries if status != 200] == [("\x00", 400), ("a" * 5000, 400)]
