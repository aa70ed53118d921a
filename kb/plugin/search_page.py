"""The search page: ``/-/search?q=...`` over rules, examples, glossary, wiki rulings and cards, in both languages.

Every parameter is validated; a bad one is a 400 with a sentence naming it.
``/-/search.json`` (or ``?_format=json``) gives the hits as JSON.

Hits from the Comprehensive Rules (rules, examples, glossary) come first, as
``hits``; wiki rulings, cards and card rulings (which the build puts in the
same index, see :mod:`kb.load.search_extra`) come beside them as ``others``,
each with the ``url`` of its row, so that a common word's card rulings don't
push the rule itself down the list.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from datasette.utils.asgi import Response

from kb.database import UnknownRelease
from kb.search import search

from .bounded import execute_bounded

CR_KINDS = ("rule", "example", "glossary")
OTHER_KINDS = ("ruling", "card", "card ruling")

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
    if not re.fullmatch(r"[0-9]{1,9}", limit) or not 1 <= int(limit) <= 100:  # isdigit() takes ²
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
            "kb_search.html", {"error": str(e), "hits": [], "others": [], "params": {}}, request=request), status=400)
    db = datasette.get_database()

    def run(conn):
        import sqlite_utils

        if not params["q"]:
            return [], [], None
        keyword = None
        if len(params["q"]) <= 80:
            from .keyword_page import KeywordNotFound, find_keyword

            try:
                title, _, number = find_keyword(conn, params["q"], suggest=False)
                keyword = {"title": title, "number": number,
                           "url": datasette.urls.path(f"/-/keywords/{quote(title.lower())}")}
            except KeywordNotFound:
                pass
        database = sqlite_utils.Database(conn)
        common = dict(release=params["release"], lang=params["lang"], section=params["section"],
                      limit=params["limit"])
        hits = [{**h.as_dict(), "snippet_html": h.snippet_html()}
                for h in search(database, params["q"], kinds=CR_KINDS, **common)]
        others = []
        if params["release"] is None:  # rulings and cards are in the newest release's index only
            for h in search(database, params["q"], kinds=OTHER_KINDS, **common):
                others.append({**h.as_dict(), "snippet_html": h.snippet_html(),
                               "url": datasette.urls.path(f"/{db.name}/{h.link}") if h.link else None})
        return hits, others, keyword

    try:
        hits, others, keyword = await execute_bounded(db, run, what="this search")
    except UnknownRelease as e:
        if as_json:
            return Response.json({"ok": False, "error": str(e)}, status=400)
        return Response.html(await datasette.render_template(
            "kb_search.html", {"error": str(e), "hits": [], "others": [], "params": params}, request=request),
            status=400)
    if as_json:
        def plain(items):
            return [{k: v for k, v in h.items() if k != "snippet_html"} for h in items]
        return Response.json({"ok": True, "query": params, "keyword": keyword, "hits": plain(hits),
                              "others": plain(others)})
    return Response.html(await datasette.render_template(
        "kb_search.html", {"hits": hits, "others": others, "keyword": keyword, "params": params, "error": None},
        request=request))


ROUTES = [(r"^/-/search(?:\.(?P<format>json))?$", search_view)]
