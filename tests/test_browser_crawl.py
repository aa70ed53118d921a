"""A new user clicking everything: from ``/``, follow every same-site link and submit every form with
its defaults, in a real browser, and fail on any 4xx/5xx, any page without a ``<title>``, any link to
a missing page and any console error.

The crawl is bounded (a few hundred pages): Datasette's table pages link to every row and every sort
order, so pages are grouped by the shape of their address (digits and values masked) and each shape
is visited a few times. Links that are not pages (JSON, CSV, the database download) are fetched
without the browser and checked for their status only; the database file is asked for with HEAD.
Screenshots of the main pages go to ``test-artifacts/``.
"""

from __future__ import annotations

import re
import time
from collections import Counter, deque
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import httpx
import pytest

pytestmark = pytest.mark.browser

MAX_PAGES = 200
PER_SHAPE = 2
SCREENSHOTS = {"/": "crawl-home.png", "/-/rules": "crawl-contents.png", "/-/keywords": "crawl-keywords.png",
               "/-/scenarios": "crawl-scenarios.png", "/-/search?q=discover": "crawl-search.png"}
START = ["/", "/-/rules", "/-/search?q=discover", "/-/search?q=%E7%99%BA%E8%A6%8B"]


def shape(url: str) -> str:
    """The address with what varies masked: /-/rules/701.57?release=2026 → /-/rules/#?release=#."""
    parts = urlsplit(url)
    path = re.sub(r"\d+", "#", parts.path)
    path = re.sub(r"/-/(keywords|scenarios|cards|run)/[^/]+", r"/-/\1/*", path)
    path = re.sub(r"^/([^/-][^/]*)/([^/]+)/[^/]+$", r"/\1/\2/*", path)   # a table row
    keys = sorted({k for k, _ in parse_qsl(parts.query, keep_blank_values=True)})
    return path + ("?" + "&".join(keys) if keys else "")


def is_page(url: str) -> bool:
    path = urlsplit(url).path
    return not (path.endswith((".json", ".csv", ".db")) or "_format=json" in url or "_stream=on" in url
                or path.startswith("/-/static") or "/-/static-plugins/" in path)


def form_urls(page, base: str) -> list[str]:
    """The address each GET form of the page goes to when submitted with its defaults."""
    forms = page.eval_on_selector_all("form", """forms => forms.map(f => {
        const data = new FormData(f);
        const fields = [];
        for (const [k, v] of data.entries()) { if (typeof v === 'string') fields.push([k, v]); }
        return {action: f.getAttribute('action'), method: (f.getAttribute('method') || 'get').toLowerCase(),
                fields: fields};
    })""")
    urls = []
    for form in forms:
        if form["method"] != "get":
            continue
        action = urljoin(page.url, form["action"] or page.url)
        query = urlencode([(k, v) for k, v in form["fields"]])
        urls.append(action.split("?")[0] + ("?" + query if query else ""))
    return urls


def test_crawl_every_link_and_form(browser, live_server, artifacts):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    console_errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and console_errors.append(f"{page.url}: {m.text}"))
    page.on("pageerror", lambda e: console_errors.append(f"{page.url}: {e}"))

    queue = deque(live_server + p for p in START)
    seen: set[str] = set(queue)
    linked_from: dict[str, str] = {}
    shapes: Counter[str] = Counter()
    problems: list[str] = []
    visited = other = 0
    http = httpx.Client(timeout=60)
    started = time.monotonic()
    while queue and visited < MAX_PAGES:
        url = queue.popleft()
        relative = url[len(live_server):]
        if not is_page(url):
            other += 1
            method = "HEAD" if urlsplit(url).path.endswith(".db") else "GET"
            status = http.request(method, url).status_code
            if status >= 400:
                problems.append(f"{status} {relative} (linked from {linked_from.get(url, 'the start')})")
            continue
        response = page.goto(url, wait_until="domcontentloaded")
        visited += 1
        if response is None or response.status >= 400:
            problems.append(f"{response.status if response else 'no response'} {relative} "
                            f"(linked from {linked_from.get(url, 'the start')})")
            continue
        if not page.title().strip():
            problems.append(f"no <title>: {relative}")
        if relative in SCREENSHOTS:
            page.screenshot(path=str(artifacts / SCREENSHOTS[relative]), full_page=False)
        hrefs = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
        for target in hrefs + form_urls(page, live_server):
            target = target.split("#")[0]
            if not target.startswith(live_server) or target in seen:
                continue
            seen.add(target)
            linked_from[target] = relative
            key = shape(target[len(live_server):])
            if shapes[key] >= PER_SHAPE:
                continue
            shapes[key] += 1
            queue.append(target)
    context.close()
    http.close()
    assert visited >= 60, f"only {visited} pages reached: is the home page linked to the rest?"
    assert not problems, "\n".join(problems[:40])
    assert not console_errors, "\n".join(console_errors[:20])
    print(f"crawled {visited} pages and {other} other links, {len(shapes)} kinds of address, "
          f"in {time.monotonic() - started:.0f} s")
