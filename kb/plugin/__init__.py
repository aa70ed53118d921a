"""The Datasette plugin: small hook functions; each page lives in its own module.

Registered through the ``datasette`` entry point in pyproject.toml. Only hooks
that exist in both Datasette 0.65 and 1.0 are used, and each names only the
arguments it needs.

Pages: ``rule_page`` (``/-/rules/<number>``), ``keyword_page``
(``/-/keywords``, ``/-/keywords/<name>``), ``resolution`` (``/-/scenarios``,
``/-/scenarios/<id>``, ``/-/run/<action>``), ``search_page`` (``/-/search``),
``diff_page`` (``/-/diff``), ``coverage_page`` (``/-/coverage``) and ``home`` (``/``: a search box, the keyword
actions and the main tables). ``templates/base.html`` puts the search box on
every page; ``static/kb.css`` and ``static/kb.js`` (optional: the pages work
without it) are added to every page.

Serving safely: ``errors`` answers every exception with our page and one log
line, ``guard`` refuses open-redirect paths and writes before Datasette sees
them, ``connection_limits`` caps what one SQL function call may build, and
``bounded`` puts the pages' own database work under a time limit, and ``admission`` runs
the dear requests (searches, runs, SQL pages) a few at a time, queued, with a 503 and
``Retry-After`` past a bounded wait.
"""

from __future__ import annotations

import asyncio

from datasette import hookimpl

from . import (
    admission,
    bounded,
    card_page,
    connection_limits,
    contents_page,
    coverage_page,
    errors,
    guard,
    home,
    keyword_page,
    links,
    prefetch,
    resolution,
    rule_page,
    search_page,
    sql_functions,
)

try:
    from . import diff_page
except ImportError:  # another part of the project; the pages work without it
    diff_page = None

PLUGIN = "mtg-rules-kb"

# A query that waits for a core on a loaded server is not stopped for it (see bounded).
bounded.use_cpu_time_limits()


@hookimpl(trylast=True)
def prepare_connection(conn):
    # trylast: our escape_fts must replace Datasette's own, registered by its
    # built-in prepare_connection, so the table search box segments Japanese.
    sql_functions.register(conn)
    connection_limits.apply_limits(conn)
    # sqlite-vec, so that SQL (and dense search) can read the search_vectors table.
    from kb.search.dense import load_sqlite_vec

    load_sqlite_vec(conn)


@hookimpl
def handle_exception(datasette, request, exception):
    return errors.handle_exception(datasette, request, exception)


@hookimpl
def asgi_wrapper(datasette):
    refuse = guard.asgi_wrapper(datasette)
    # Refusals first (they cost nothing), then the queue for the dear requests.
    return lambda app: refuse(admission.admitted(app, admission.Admission()))


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    return links.render_cell_links(row, value, column, table, database, datasette)


@hookimpl
def register_routes():
    routes = home.ROUTES + contents_page.ROUTES + coverage_page.ROUTES + card_page.ROUTES + rule_page.ROUTES + keyword_page.ROUTES + resolution.ROUTES + search_page.ROUTES
    if diff_page is not None:
        routes += diff_page.ROUTES
    return routes


@hookimpl
def extra_css_urls(datasette):
    return [datasette.urls.static_plugins(PLUGIN, "kb.css")]


@hookimpl
def extra_js_urls(datasette):
    return [{"url": datasette.urls.static_plugins(PLUGIN, "kb.js"), "module": False}]


@hookimpl
def startup(datasette):
    # Ours answers every error; Datasette's would still print a rich traceback for each 404.
    errors.quiet_default_handler()
    # The scenario pages read the card pool and the scenarios from this Datasette's database.
    resolution.configure(datasette)

    async def inner():
        loop = asyncio.get_running_loop()
        # The segmenters load their dictionaries on first use: Sudachi's and jieba's (about
        # half a second each) before the server accepts a request, or the first searches run
        # past their time limit; Kiwi's model (5 s) in the background, as only a query in
        # Hangul needs it. Then the card pool and scenarios (from the database), before the first run is asked for.
        # The served file into the page cache (asynchronous reads in the kernel), first.
        loop.run_in_executor(None, prefetch.read_ahead_immutables, datasette)
        await loop.run_in_executor(None, warm_segmenters, ("kb.japanese", "kb.chinese"))
        await loop.run_in_executor(None, warm_imports)
        loop.run_in_executor(None, warm_segmenters, ("kb.korean",))
        loop.run_in_executor(None, resolution.warm)
        loop.create_task(card_page.warm(datasette))  # the card names, before the first card page
        loop.create_task(keyword_page.warm(datasette))  # the keywords' coverage, before the first keyword page

    return inner


_WARM_WORDS = {"kb.japanese": "発見", "kb.chinese": "倾探", "kb.korean": "탐색"}

# Modules the pages import when first asked (the engine, the search, the ruling links): imported
# before the first request, or that request's time limit pays for seconds of imports.
_WARM_IMPORTS = ("executable_rules.scenarios", "executable_rules.engine.layers", "kb.ruling_links.read",
                 "kb.search.engine", "kb.rules")


def warm_imports(modules: tuple[str, ...] = _WARM_IMPORTS) -> None:
    import importlib

    for module in modules:
        importlib.import_module(module)


def warm_segmenters(modules: tuple[str, ...] = tuple(_WARM_WORDS)) -> None:
    """Segment a word with each segmenter once, so its dictionary or model is loaded."""
    import importlib

    for module in modules:
        word = _WARM_WORDS[module]
        try:
            importlib.import_module(module).search_form(word)
        except ImportError:  # a segmenter that is not installed: its language is searched without it
            pass
