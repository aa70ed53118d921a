"""The diff page: ``/-/diff?old=YYYYMMDD&new=YYYYMMDD`` (``&lang=ja``, ``&section=701``).

Moved, changed, added and removed rules between two releases, from
:func:`kb.diff.diff_releases`; moves are listed first, as blocks, because
they are what breaks citations. Without ``old`` and ``new`` the page compares
the two newest releases of the language. Every parameter is validated; a bad
one is a 400 with a sentence naming it. ``/-/diff.json`` (or
``?_format=json``) gives the same data as JSON.
"""

from __future__ import annotations

import re

from datasette.utils.asgi import Response

from kb.database import UnknownRelease
from kb.diff import diff_releases

from .bounded import execute_bounded

_RELEASE = re.compile(r"\d{8}")
_SECTION = re.compile(r"\d(?:\d\d(?:\.\d+[a-z]?)?)?")
# Rows shown per group on the HTML page (the 2009 renumbering moved over a thousand).
SHOWN = 500


class BadParameter(ValueError):
    pass


def parse_diff_args(args) -> dict:
    """Validate the query string of a diff request; raise :class:`BadParameter`.

    >>> parse_diff_args({"old": "20250404", "new": "20250606", "section": "701"})
    {'old': '20250404', 'new': '20250606', 'lang': 'en', 'section': '701'}
    >>> parse_diff_args({"old": "2025"})
    Traceback (most recent call last):
    ...
    kb.plugin.diff_page.BadParameter: old must be a release as YYYYMMDD (e.g. 20250404), not '2025'
    """
    params = {}
    for name in ("old", "new"):
        value = (args.get(name) or "").strip() or None
        if value is not None and not _RELEASE.fullmatch(value):
            raise BadParameter(f"{name} must be a release as YYYYMMDD (e.g. 20250404), not {value!r}")
        params[name] = value
    lang = args.get("lang") or "en"
    if lang not in ("en", "ja"):
        raise BadParameter(f"lang must be en or ja, not {lang!r}")
    params["lang"] = lang
    section = (args.get("section") or "").strip() or None
    if section is not None and not _SECTION.fullmatch(section):
        raise BadParameter(f"section must be a rule number such as 7, 701 or 701.57, not {section!r}")
    params["section"] = section
    return params


def _releases(conn, lang: str) -> list[str]:
    return [r[0] for r in conn.execute(
        "select release from releases where lang = ? order by release", [lang])]


async def diff_view(datasette, request):
    as_json = request.url_vars.get("format") == "json" or request.args.get("_format") == "json"
    db = datasette.get_database()
    try:
        params = parse_diff_args(request.args)
    except BadParameter as e:
        return await _error(datasette, request, as_json, str(e), {})

    def run(conn):
        import sqlite_utils

        releases = _releases(conn, params["lang"])
        old, new = params["old"], params["new"]
        if old is None and new is None and len(releases) >= 2:
            old, new = releases[-2], releases[-1]
        if old is None or new is None:
            raise BadParameter("give both old and new releases (YYYYMMDD), e.g. ?old=20250404&new=20250606")
        result = diff_releases(sqlite_utils.Database(conn), old, new, lang=params["lang"],
                               section=params["section"])
        return releases, result

    try:
        releases, result = await execute_bounded(db, run, what="this diff")
    except (BadParameter, UnknownRelease) as e:
        return await _error(datasette, request, as_json, str(e), params)
    if as_json:
        return Response.json({"ok": True, **result.as_dict()})
    return Response.html(await datasette.render_template(
        "kb_diff.html",
        {"diff": result, "params": params, "releases": releases, "shown": SHOWN, "error": None},
        request=request,
    ))


async def _error(datasette, request, as_json, message, params):
    if as_json:
        return Response.json({"ok": False, "error": message}, status=400)
    # The form stays usable after a bad release: its pickers list the releases as always.
    lang = params.get("lang") or "en"
    releases = await datasette.get_database().execute_fn(lambda conn: _releases(conn, lang))
    html = await datasette.render_template(
        "kb_diff.html", {"diff": None, "params": params or {"lang": lang}, "releases": releases,
                         "shown": SHOWN, "error": message},
        request=request)
    return Response.html(html, status=400)


ROUTES = [(r"^/-/diff(?:\.(?P<format>json))?$", diff_view)]
