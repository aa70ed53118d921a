"""The search page: ``/-/search?q=...`` over rules, examples and glossary in both languages.

Every parameter is validated; a bad one is a 400 with a sentence naming it.
``/-/search.json`` (or ``?_format=json``) gives the hits as JSON.
"""

from __future__ import annotations

import re

from datasette.utils.asgi import Response

from kb.database import UnknownRelease
from kb.search import search

MAX_QUERY = 200
_RELEASE = re.compile(r"\d{8}")
_SECTION = re.compile(r"\d(?:\d\d(?:\.\d+[a-z]?)?)?")


class BadParameter(ValueError):
    pass


def parse_search_args(args) -> dict:
    """Validate the query string of a search request; raise :class:`BadParameter`."""
    q = (args.get("q") or "").strip()
    if len(q) > MAX_QUERY:
        raise BadParameter(f"q is {len(q)} characters long; at most {MAX_QUERY} are accepted")
    lang = args.get("lang") or "any"
    if lang not in ("en", "ja", "any"):
        raise BadParameter(f"lang must be en, ja or any, not {lang!r}")
    release = args.get("release") or None
    if release is not None and not _RELEASE.fullmatch(release):
        raise BadParameter(f"release must be a date as YYYYMMDD, not {release!r}")
    section = args.get("section") or None
    if section is not None and not _SECTION.fullmatch(section):
        raise BadParameter(f"section must be a rule number such as 7, 701 or 701.57, not {section!r}")
    limit = args.get("limit") or "20"
    if not limit.isdigit() or not 1 <= int(limit) <= 100:
        raise BadParameter(f"limit must be a whole number from 1 to 100, not {limit!r}")
    return {"q": q, "lang": None if lang == "any" else lang, "release": release,
            "section": section, "limit": int(limit)}


async def search_view(datasette, request):
    as_json = request.url_vars.get("format") == "json" or request.args.get("_format") == "json"
    try:
        params = parse_search_args(request.args)
    except BadParameter as e:
        if as_json:
            return Response.json({"ok": False, "error": str(e)}, status=400)
        return Response.html(await datasette.render_template(
            "kb_search.html", {"error": str(e), "hits": [], "params": {}}, request=request), status=400)
    db = datasette.get_database()

    def run(conn):
        import sqlite_utils

        if not params["q"]:
            return []
        hits = search(sqlite_utils.Database(conn), params["q"], release=params["release"],
                      lang=params["lang"], section=params["section"], limit=params["limit"])
        return [{**h.as_dict(), "snippet_html": h.snippet_html()} for h in hits]

    try:
        hits = await db.execute_fn(run)
    except UnknownRelease as e:
        if as_json:
            return Response.json({"ok": False, "error": str(e)}, status=400)
        return Response.html(await datasette.render_template(
            "kb_search.html", {"error": str(e), "hits": [], "params": params}, request=request), status=400)
    if as_json:
        plain = [{k: v for k, v in h.items() if k != "snippet_html"} for h in hits]
        return Response.json({"ok": True, "query": params, "hits": plain})
    return Response.html(await datasette.render_template(
        "kb_search.html", {"hits": hits, "params": params, "error": None}, request=request))


ROUTES = [(r"^/-/search(?:\.(?P<format>json))?$", search_view)]
