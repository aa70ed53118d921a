"""The search page: ``/-/search?q=...`` over rules, examples, glossary, wiki rulings and cards, in both languages.

Every parameter is validated; a bad one is a 400 with a sentence naming it.
``/-/search.json`` (or ``?_format=json``) gives the hits as JSON.

Answers (:func:`kb.search.engine.answer`) are numbered rules, each with its
text in both languages (``groups``; ``hits`` has one flat line per group);
wiki rulings, cards and card rulings (which the build puts in the same index,
see :mod:`kb.load.search_extra`) come beside them as ``others``, each with the
``url`` of its row, so that a common word's card rulings don't push the rule
itself down the list. The cards the query names (:mod:`kb.search.cards`) come
first, as ``cards``, each with the ``url`` of its card page. ``notes`` says what the user should know: a correction
("showing results for …"), words not searched for, dense search not ready.
A search past its time limit is answered again by its words alone (no cards, rulings or dense
search), with a note; a server busy enough that the request waited for its turn
(:mod:`.admission`) answers by words alone from the start, with a note. Only a search that
still runs too long is a 400 with a sentence, never a 500.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from kb.database import UnknownRelease
from kb.search import MARK_END, MARK_START
from kb.search.engine import (
    MAX_QUERY,  # one length limit for the CLI, the JSON and the page
    SearchError,
    SearchTimeout,
)

from .admission import BUSY
from .bounded import execute_bounded

CR_KINDS = ("rule", "example", "glossary")
OTHER_KINDS = ("ruling", "card", "card ruling")

_RELEASE = re.compile(r"\d{8}")
_SECTION = re.compile(r"\d(?:\d\d(?:\.\d+[a-z]?)?)?")


BUSY_NOTE = ("the server is busy: the question was searched by its words only, "
             "not by its meaning; ask again in a moment for the full search")
TIMEOUT_NOTE = ("the full search took too long and was stopped: these are the rules the words find, "
                "without rulings, cards or the search by meaning; fewer words give the full search")


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


def _flat_hit(group) -> dict:
    """A group as one flat hit (the shape of the JSON before groups): number, title, lang, snippet."""
    shown = group.en or group.ja
    return {"kind": "rule", "number": group.number, "title": group.title,
            "release": shown.release if shown else None, "lang": shown.lang if shown else None,
            "text": shown.text if shown else group.snippet,
            "snippet": group.snippet.replace(MARK_START, "[").replace(MARK_END, "]")}


async def search_view(datasette, request):
    as_json = request.url_vars.get("format") == "json" or request.args.get("_format") == "json"

    async def error(message: str, params: dict):
        if as_json:
            return Response.json({"ok": False, "error": message}, status=400)
        return Response.html(await datasette.render_template(
            "kb_search.html", {"error": message, "groups": [], "others": [], "params": params, "notes": []},
            request=request), status=400)

    try:
        params = parse_search_args(request.args)
    except BadParameter as e:
        return await error(str(e), {})
    db = datasette.get_database()
    busy = bool(request.scope.get(BUSY))

    def run(conn):
        from kb.search.engine import answer, needs_dense

        if not params["q"]:
            return None, None
        keyword = None
        if len(params["q"]) <= 80:
            from .keyword_page import KeywordNotFound, find_keyword

            try:
                title, _, number = find_keyword(conn, params["q"], suggest=False)
                keyword = {"title": title, "number": number,
                           "url": datasette.urls.path(f"/-/keywords/{quote(title.lower())}")}
            except KeywordNotFound:
                pass
        asked = {"lang": params["lang"], "release": params["release"], "section": params["section"],
                 "limit": params["limit"]}
        try:
            # A busy server answers by the words alone: embedding the question is the part it can skip.
            result = answer(conn, params["q"], dense=False if busy else None, **asked)
        except SearchTimeout:
            # Past the time limit (a long question on a loaded server): the rules its words find,
            # without the card, ruling and meaning searches, rather than no answer at all.
            result = answer(conn, params["q"], dense=False, others=False, cards=False, **asked)
            result.notes.append(TIMEOUT_NOTE)
            return result, keyword
        if busy and needs_dense(result.plan):
            result.notes.append(BUSY_NOTE)
        return result, keyword

    if params["q"]:
        # What every search reads once per process (the card name index takes seconds to build),
        # outside the search's time limit.
        from kb.search.engine import prepare

        await db.execute_fn(prepare)
    try:
        result, keyword = await execute_bounded(db, run, what="this search")
    except (UnknownRelease, SearchError) as e:
        return await error(str(e), params)
    others = []
    cards = [] if result is None else [{**c, "url": datasette.urls.path(c["link"])} for c in result.cards]
    if result is not None:
        for h in result.others:
            others.append({**h, "url": datasette.urls.path(f"/{db.name}/{h['link']}") if h.get("link") else None})
    if as_json:
        if result is None:
            return Response.json({"ok": True, "query": params, "keyword": None, "cards": [], "groups": [],
                                  "hits": [], "others": [], "notes": []})
        data = result.as_dict()
        return Response.json({"ok": True, "query": params, "keyword": keyword, "mode": data["mode"],
                              "shown_as": data["shown_as"], "notes": data["notes"], "cards": cards,
                              "groups": data["groups"],
                              "hits": [_flat_hit(g) for g in result.groups], "others": others,
                              "ms": data["ms"]})
    groups = [] if result is None else [{**g.as_dict(), "snippet_html": _marked(g.snippet)} for g in result.groups]
    return Response.html(await datasette.render_template(
        "kb_search.html", {"groups": groups, "others": others, "keyword": keyword, "params": params, "cards": cards,
                           "notes": result.notes if result else [], "mode": result.mode if result else None,
                           "error": None}, request=request))


def _marked(snippet: str) -> Markup:
    return Markup(str(escape(snippet)).replace(MARK_START, "<mark>").replace(MARK_END, "</mark>"))


ROUTES = [(r"^/-/search(?:\.(?P<format>json))?$", search_view)]
