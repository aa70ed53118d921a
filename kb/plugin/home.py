"""The home page ``/``: one search box, the keyword actions of the newest release, coverage, the tables.

It replaces Datasette's index at ``/`` (a plugin route comes before
Datasette's own): Datasette 0.65's index checks permissions table by table,
deep-copying the metadata each time, which costs ~0.2 s a request on this
database and ~0.7 s under a few concurrent clients. Datasette's database page
(``/<db>``: every table and view, canned queries, the SQL editor) and
``/.json`` stay as they are, linked from here.
"""

from __future__ import annotations

import importlib.util

from datasette.utils.asgi import Response

from kb.metadata import TABLES

from kb.coverage import home_summary

from .keyword_page import keyword_list
from .rule_page import cached_read

# The tables a reader starts from, in this order (all of them are on the database page).
HOME_TABLES = ["rules", "examples", "glossary", "releases", "rulings", "cards", "card_rulings", "wiki_pages",
               "scenarios", "checks", "rule_moves", "lineages", "stale_citations", "ingest_problems"]


def home_coverage(conn) -> dict | None:
    """Actions and abilities with a module, subrules implemented, examples covered (None without checks)."""
    names = {r[0] for r in conn.execute("select name from sqlite_master where type = 'table'")}
    if "checks" not in names:
        return None
    return home_summary(conn)


async def home_vars(datasette) -> dict:
    try:
        db = datasette.get_database()
    except KeyError:
        return {"kb_home": None}

    def read(conn):
        names = {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")}
        if "rules" not in names or "releases" not in names:
            return None
        return keyword_list(conn)

    data = await cached_read(db, ("home",), read)
    if data is None:
        return {"kb_home": None}
    # The executable rules' coverage (the /-/coverage page's figures); None in a database without checks.
    data = {**data, "coverage": await cached_read(db, ("home-coverage",), home_coverage)}
    # The diff page (another module) is linked when it exists.
    has_diff = importlib.util.find_spec("kb.plugin.diff_page") is not None
    return {"kb_home": {**data, "has_diff": has_diff}}


async def home_view(datasette, request):
    context = await home_vars(datasette)
    databases = []
    for name, db in datasette.databases.items():
        if name == "_internal":
            continue
        present = set(await db.table_names()) | set(await db.view_names())
        databases.append({
            "name": name,
            "url": datasette.urls.database(name),
            "tables": [{"name": t, "title": TABLES.get(t, {}).get("title", t), "url": datasette.urls.table(name, t)}
                       for t in HOME_TABLES if t in present],
        })
    context["kb_databases"] = databases
    return Response.html(await datasette.render_template("kb_home.html", context, request=request))


ROUTES = [(r"^/$", home_view)]
