"""The Datasette plugin: small hook functions; each page lives in its own module.

Registered through the ``datasette`` entry point in pyproject.toml. Only hooks
that exist in both Datasette 0.65 and 1.0 are used, and each names only the
arguments it needs.

Pages: ``rule_page`` (``/-/rules/<number>``), ``keyword_page``
(``/-/keywords``, ``/-/keywords/<name>``), ``resolution`` (``/-/scenarios``,
``/-/scenarios/<id>``, ``/-/run/<action>``), ``search_page`` (``/-/search``),
``diff_page`` (``/-/diff``) and ``home`` (``/``: a search box, the keyword
actions and the main tables). ``templates/base.html`` puts the search box on
every page; ``static/kb.css`` and ``static/kb.js`` (optional: the pages work
without it) are added to every page.
"""

from __future__ import annotations

import asyncio

from datasette import hookimpl

from . import (
    card_page,
    home,
    keyword_page,
    links,
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


@hookimpl(trylast=True)
def prepare_connection(conn):
    # trylast: our escape_fts must replace Datasette's own, registered by its
    # built-in prepare_connection, so the table search box segments Japanese.
    sql_functions.register(conn)


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    return links.render_cell_links(row, value, column, table, database, datasette)


@hookimpl
def register_routes():
    routes = home.ROUTES + card_page.ROUTES + rule_page.ROUTES + keyword_page.ROUTES + resolution.ROUTES + search_page.ROUTES
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
def startup():
    async def inner():
        # Read the card pool and scenarios before the first run is asked for.
        loop = asyncio.get_running_loop()
        loop.run_in_executor(None, resolution.warm)

    return inner
