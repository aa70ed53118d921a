"""Search latency: in-process (lexical, hybrid), /-/search under concurrent clients, the CLI; p50/p95.

    python bench/bench_search.py [--db kb.db] [--rounds 5] [--clients 4]

Baselines in the same run: the plain FTS5 query of the default search (one
MATCH, no reading of the question) and a LIKE scan of the newest release.

- lexical path: keyword and number queries, and questions with dense off
  (:func:`kb.search.engine.answer` with ``dense=False``): reading the query,
  one bm25 ranking per language, titles, grouping, both languages;
- hybrid: questions with the default embedder (query embedding, vector search,
  fusion); only when every rule has its vector (``kb vectors status``);
- ``/-/search.json`` over HTTP from ``--clients`` threads at once against a real
  ``datasette serve``, every answer checked (no 500, no error);
- ``kb search`` as a new process, wall time (a lexical query: the model is not loaded),
  beside ``kb --help`` (starting Python and importing the command line).

In-process figures print the thread's CPU time beside the wall time, and the
machine's load average is printed at the start and the end: on a shared
machine the wall time is mostly waiting for a core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from kb.database import db_path  # noqa: E402
from kb.search import current_sql, fts_query  # noqa: E402
from kb.serve import running_server  # noqa: E402
from kb.sqlite import sqlite3  # noqa: E402

KEYWORDS = ["discover", "mana value", "graveyard", "villainous choice", "face down", "発見", "探す", "墓地",
            "マナ総量", "追放", "rule 704.5a", "ルール510.1c", "702.11b", "hexprof"]
QUESTIONS = ["what does hexproof stop", "can a tapped creature block", "what happens when my commander dies",
             "how does the stack resolve", "when can I cast an instant", "呪禁は何を防ぐ？",
             "召喚酔いのクリーチャーでブロックできる？", "手札の上限枚数は？", "統率者が死亡したらどうなる？",
             "what is an ETB trigger"]


def percentile(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, round(p / 100 * (len(values) - 1))))
    return values[k]


def report(label, times_ms, cpu_ms=None):
    line = (f"{label:<52} p50 {statistics.median(times_ms):8.2f} ms   p95 {percentile(times_ms, 95):8.2f} ms"
            f"   ({len(times_ms)} queries)")
    if cpu_ms:
        # CPU time of this thread: what the search costs, whatever else the machine is running.
        line += f"   cpu p50 {statistics.median(cpu_ms):.2f} ms p95 {percentile(cpu_ms, 95):.2f} ms"
    print(line)


class Timed(list):
    """Wall times in ms, with the thread's CPU times beside them (``.cpu``)."""

    cpu: list


def timed(fn, items, rounds):
    out = Timed()
    out.cpu = []
    for _ in range(rounds):
        for item in items:
            t0, c0 = time.perf_counter(), time.thread_time()
            fn(item)
            out.append((time.perf_counter() - t0) * 1000)
            out.cpu.append((time.thread_time() - c0) * 1000)
    return out


def load() -> str:
    """The machine's load average (1, 5, 15 min) and its cores: latency on a shared machine."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", default=None)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()
    path = db_path(args.db)
    from kb.search import answer_cache, dense
    from kb.search.engine import answer as remembering
    from kb.search.engine import prepare

    answer = remembering.uncached  # every search done afresh, as a first search (kb/search/answer_cache.py)

    print(f"start: {load()}")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    prepare(conn)  # word lists, titles, card names, Sudachi's dictionary: once per process
    answer(conn, "warm up", dense=False)
    expressions = {q: fts_query(q) for q in KEYWORDS + QUESTIONS}
    report("baseline: plain FTS5 MATCH (every word required)", timed(
        lambda q: conn.execute(current_sql(), {"query": expressions[q], "lang": None, "section": None,
                                               "kinds": None, "limit": 10}).fetchall(), KEYWORDS, args.rounds))
    report("baseline: LIKE over the newest release", timed(
        lambda q: conn.execute("select number from rules where text like ? and release ="
                               " (select release from newest_release) limit 10", [f"%{q.split()[0]}%"]).fetchall(),
        KEYWORDS[:6], 1))
    for label, others in (("", False), (" + rulings, cards", True)):
        t = timed(lambda q, others=others: answer(conn, q, dense=False, others=others), KEYWORDS, args.rounds)
        report(f"lexical path: keywords, numbers, typos{label}", t, t.cpu)
        t = timed(lambda q, others=others: answer(conn, q, dense=False, others=others), QUESTIONS, args.rounds)
        report(f"lexical path: questions (dense off){label}", t, t.cpu)
    answer_cache.clear()
    for q in QUESTIONS:
        remembering(conn, q, dense=False)
    t = timed(lambda q: remembering(conn, q, dense=False), QUESTIONS, args.rounds)
    report("  the same asked again (answer cache)", t, t.cpu)
    model = dense.embedder()
    if model is None:
        print(f"hybrid: {dense.status()}")
    elif not dense.load_index(conn, model.name).complete:
        print(f"hybrid: the {model.name} vectors are incomplete (kb vectors fill --model {model.name})")
    else:
        answer(conn, "warm up the model please", dense=True)
        t = timed(lambda q: answer(conn, q, dense=True), QUESTIONS, args.rounds)
        report(f"hybrid ({model.name}): questions", t, t.cpu)
        for q in QUESTIONS:
            remembering(conn, q, dense=True)
        t = timed(lambda q: remembering(conn, q, dense=True), QUESTIONS, args.rounds)
        report("  the same asked again (answer cache)", t, t.cpu)
        report(f"  of which: one query embedding ({model.name})", timed(lambda q: model.query([q]), QUESTIONS,
                                                                          args.rounds))

    for cache in ("0", str(answer_cache.SIZE)):
        os.environ["KB_ANSWER_CACHE"] = cache  # the server's; off: every request a first search
        print(f"/-/search.json with KB_ANSWER_CACHE={cache}"
              + (" (each query asked --rounds times: all but the first from the cache)" if cache != "0" else ""))
        serve(path, args)
    os.environ.pop("KB_ANSWER_CACHE")
    cli(path)


def serve(path, args) -> None:
    """``/-/search.json`` from 1 and ``--clients`` threads at once against a real server."""
    with running_server(path) as base:
        queries = KEYWORDS + QUESTIONS
        with httpx.Client(base_url=base, timeout=60) as client:  # the server loads its lists and model
            for q in ("warm up", "what does hexproof stop"):
                client.get("/-/search.json", params={"q": q})

        def one(i):
            q = queries[i % len(queries)]
            with httpx.Client(base_url=base, timeout=60) as client:
                t0 = time.perf_counter()
                r = client.get("/-/search.json", params={"q": q})
                ms = (time.perf_counter() - t0) * 1000
                body = r.json()
                if r.status_code != 200:
                    print(f"{'':<52} {r.status_code} for {q!r}: {str(body.get('error') or body)[:160]}")
                return ms, r.status_code, body.get("mode")

        for clients in sorted({1, args.clients}):
            with ThreadPoolExecutor(max_workers=clients) as pool:
                results = list(pool.map(one, range(len(queries) * args.rounds)))
            errors = [s for _, s, _ in results if s != 200]
            modes = {m for _, _, m in results}
            report(f"/-/search.json over HTTP, {clients} client(s) [{'/'.join(sorted(map(str, modes)))}]",
                   [ms for ms, _, _ in results])
            print(f"{'':<52} errors: {len(errors)}")


def cli(path) -> None:
    """``kb search`` as a new process, beside ``kb --help``."""
    times, cpu = [], []
    for q in ("discover", "rule 704.5a", "呪禁"):
        t0, before = time.perf_counter(), os.times()
        subprocess.run([str(Path(sys.executable).parent / "kb"), "search", q, "--db", str(path)],
                       capture_output=True, check=False)
        after = os.times()
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((after.children_user + after.children_system - before.children_user - before.children_system)
                   * 1000)
    report("kb search as a new process (lexical query)", times, cpu)
    t0, before = time.perf_counter(), os.times()
    subprocess.run([str(Path(sys.executable).parent / "kb"), "--help"], capture_output=True, check=False)
    after = os.times()
    report("  baseline: kb --help as a new process", [(time.perf_counter() - t0) * 1000],
           [(after.children_user + after.children_system - before.children_user - before.children_system) * 1000])
    print(f"end: {load()}")


if __name__ == "__main__":
    main()
