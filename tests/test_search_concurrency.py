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
