"""The home page: Datasette's index with one search box and the keyword actions of the newest release.

``templates/index.html`` extends Datasette's own index; :func:`home_vars`
gives it ``kb_home`` (the keyword list of :func:`kb.plugin.keyword_page.keyword_list`,
read once per process) through the ``extra_template_vars`` hook. Datasette's
list of databases and tables stays below.
"""

from __future__ import annotations

import importlib.util

from .keyword_page import keyword_list
from .rule_page import cached_read


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
    # The diff page (another module) is linked when it exists.
    has_diff = importlib.util.find_spec("kb.plugin.diff_page") is not None
    return {"kb_home": {**data, "has_diff": has_diff}}
