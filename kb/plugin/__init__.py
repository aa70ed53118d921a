"""The Datasette plugin: small hook functions; each page lives in its own module.

Registered through the ``datasette`` entry point in pyproject.toml. Only hooks
that exist in both Datasette 0.65 and 1.0 are used, and each names only the
arguments it needs.
"""

from __future__ import annotations

from datasette import hookimpl

from . import links, rule_page, search_page, sql_functions


@hookimpl(trylast=True)
def prepare_connection(conn):
    # trylast: our escape_fts must replace Datasette's own, registered by its
    # built-in prepare_connection, so the table search box segments Japanese.
    sql_functions.register(conn)


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    return links.render_rule_links(row, value, column, table, datasette)


@hookimpl
def register_routes():
    return rule_page.ROUTES + search_page.ROUTES
