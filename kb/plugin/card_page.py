"""The card pages: ``/-/cards/<name>`` by English, Japanese or Chinese name (a card's or a face's).

``/-/cards/Lightning%20Bolt``, ``/-/cards/稲妻`` and ``/-/cards/闪电箭`` are one
page: names in three languages, each face with its Oracle text (keywords
linked to their rules, rule numbers linked to rule pages), legalities,
rulings with the rules they apply (where the rulings linker made
``card_ruling_rules``), printings, where the text comes from when sources
differ, the wiki pages that name the card, and the scenarios that use it.
A close misspelling (``/-/cards/Lightnig%20Bolt``) redirects to the card's
page, which says what was asked; a name nothing is close to answers 404 with
the nearest names. ``.json`` (or ``?_format=json``) gives the same data.
"""

from __future__ import annotations

from urllib.parse import quote, unquote

from datasette.utils.asgi import Response
from markupsafe import Markup, escape

from kb import cards as cards_lib

from . import links
from .rule_page import PageCache, cached_read, error_response, wants_json

MAX_NAME = cards_lib.MAX_NAME
DECORATED = PageCache(512)  # card pages' template data with their HTML fragments, per immutable database


def card_path(name: str) -> str:
    """``/-/cards/<name>`` with the name quoted for a URL (``/`` of a split card too)."""
    return f"/-/cards/{quote(name, safe='')}"


def oracle_html(text: str | None, spans: list[tuple[int, int, dict]], datasette) -> Markup:
    """Oracle text escaped, its keywords linked to their rules and rule numbers to rule pages."""
    if not text:
        return Markup("")
    out: list = []
    last = 0
    for start, end, keyword in spans:
        if start < last or end > len(text):
            continue
        out.append(links.link_text(text[last:start], datasette))
        target = links.rule_url(datasette, keyword["number"], keyword["release"]) if keyword["number"] \
            else datasette.urls.path(f"/-/keywords/{quote(keyword['keyword'].lower())}")
        title = f"{keyword['keyword']} — CR {keyword['number']}" if keyword["number"] else keyword["keyword"]
        out.append(Markup(f'<a class="kb-keyword" href="{escape(target)}" title="{escape(title)}">'
                          f'{escape(text[start:end])}</a>'))
        last = end
    out.append(links.link_text(text[last:], datasette))
    return Markup(str(Markup("").join(out)).replace("\n", "<br>\n"))


def _find(conn, path, name):
    match = cards_lib.find_card(conn, name, path=path)
    return match, cards_lib.read_card(conn, match.card_id)


async def card_view(datasette, request):
    as_json = wants_json(request)
    # Datasette matches routes on the raw path: /-/cards/%E7%A8%B2%E5%A6%BB is 稲妻.
    name = unquote(request.url_vars["name"])
    if len(name) > MAX_NAME:
        return await error_response(datasette, request, as_json, 400,
                                    f"name is {len(name)} characters long; at most {MAX_NAME} are accepted",
                                    title="Card")
    if not name.strip():
        return await error_response(datasette, request, as_json, 400, "give a card name: /-/cards/<name>",
                                    title="Card")
    db = datasette.get_database()
    try:
        # The card-name index (65,000 names, seconds to read on a fresh server) outside the page's time limit.
        if (db.path or "") not in cards_lib._names:
            await db.execute_fn(lambda conn, path=db.path: cards_lib.has_cards(conn) and cards_lib._names_of(conn, path))
        match, data = await cached_read(db, ("card", cards_lib.lookup_key(name)), lambda conn: _find(conn, db.path, name))
    except cards_lib.CardNotFound as e:
        if as_json:
            return Response.json({"ok": False, "error": str(e), "suggestions": e.suggestions}, status=404)
        html = await datasette.render_template("kb_card_missing.html", {
            "name": name, "message": str(e), "status": 404,
            "suggestions": [(s, datasette.urls.path(card_path(s))) for s in e.suggestions]}, request=request)
        return Response.html(html, status=404)
    if not match.exact:
        # A misspelling close to one card: send the reader to its page, which says what was asked.
        target = datasette.urls.path(card_path(match.name)) + (".json" if as_json else "")
        return Response.redirect(f"{target}?asked={quote(name[:MAX_NAME])}")
    if as_json:
        return Response.json({**data, "asked": request.args.get("asked"), "matched": match.matched,
                              "matched_lang": match.lang})
    page = dict(_decorated(datasette, db, data))
    page["asked"] = (request.args.get("asked") or "")[:MAX_NAME] or None
    page["json_url"] = datasette.urls.path(card_path(match.name) + ".json")
    return Response.html(await datasette.render_template("kb_card.html", page, request=request))


def _decorated(datasette, db, data: dict) -> dict:
    """:func:`decorate`, once per card of an immutable database (its HTML fragments do not change)."""
    if db.is_mutable:
        return decorate(datasette, db.name, data)
    key = ("card page", db.path, db.name, datasette.urls.path("/"), data["card"]["id"])
    page = DECORATED.get(key)
    if page is None:
        page = decorate(datasette, db.name, data)
        DECORATED.put(key, page)
    return page


def decorate(datasette, database: str, data: dict) -> dict:
    """Template variables: the data with HTML for texts and URLs for links."""
    spans = cards_lib.keyword_spans(data)
    card = data["card"]
    page = dict(data)
    faces = data["faces"] or [{"face": 1, "name_en": card["name_en"], "name_ja": card.get("name_ja"),
                               "name_zh": card.get("name_zh"), "kind": "main", "mana_cost": card["mana_cost"],
                               "type_line": card["type_line"], "text": card["text"], "power": card["power"],
                               "toughness": card["toughness"], "loyalty": card["loyalty"], "colors": card["colors"],
                               "color_indicator": card["color_indicator"]}]
    page["faces_html"] = [{**f, "text_html": oracle_html(f["text"], spans.get(i, []), datasette)}
                          for i, f in enumerate(faces)]
    page["keywords"] = [{**k, "url": links.rule_url(datasette, k["number"], k["release"]) if k["number"] else None,
                         "keyword_url": datasette.urls.path(f"/-/keywords/{quote(k['keyword'].lower())}")}
                        for k in data["keywords"]]
    page["rulings"] = [{**r, "text_html": links.link_text(r["text"], datasette),
                        "rule_links": [(x["number"], links.rule_url(datasette, x["number"], x.get("release")))
                                       for x in r["rules"]]} for r in data["rulings"]]
    page["rulings_html"] = rulings_html(page["rulings"])
    page["printings_html"] = printings_html(data["printings"], card.get("text_source"))
    page["scenarios"] = [{**s, "url": datasette.urls.path(f"/-/scenarios/{quote(str(s['id']))}")}
                         for s in data["scenarios"]]
    page["row_url"] = datasette.urls.row(database, "cards", str(card["id"]))
    page["database"] = database
    return page


def rulings_html(rulings: list[dict]) -> Markup:
    """The rulings list (hundreds on some cards: built here once per card, not item by item in Jinja)."""
    if not rulings:
        return Markup('<p class="kb-none">No rulings in the card data.</p>')
    items = []
    for r in rulings:
        links_html = ""
        if r["rule_links"]:
            links_html = Markup("<small>Rules: {}</small>").format(Markup(", ").join(
                Markup('<a href="{}">{}</a>').format(url, n) for n, url in r["rule_links"]))
        sets = r.get("set_ids") or []
        where = (": " + ", ".join(sets[:8]) + (", …" if len(sets) > 8 else "")) if sets else ""
        items.append(Markup('<li><time>{}</time> {}\n      {}\n      <small class="kb-meta">({} printing{}{})</small></li>')
                     .format(r["date"], r["text_html"], links_html, r["printings"], "s" if r["printings"] != 1 else "",
                             where))
    return Markup('<ol class="kb-card-rulings">\n    {}\n  </ol>').format(Markup("\n    ").join(items))


def printings_html(printings: list[dict], text_source: str | None) -> Markup:
    """The printings table (hundreds of rows for a basic land), built once per card."""
    if not printings:
        return Markup('<p class="kb-none">No set printing in the card data (this card comes from {}).</p>'
                      ).format(text_source)
    rows = [Markup('<tr><td>{} {}</td><td>{}</td><td>{}</td><td>{}</td><td lang="zh-Hans">{}</td></tr>').format(
        p["set_id"], p.get("set_name") or "", p.get("number") or "", p.get("rarity") or "", p.get("artist") or "",
        p.get("name_zh") or "") for p in printings]
    return Markup('<table class="kb-table"><tr><th>Set</th><th>Number</th><th>Rarity</th><th>Artist</th>'
                  '<th>Chinese name printed</th></tr>\n    {}\n  </table>').format(Markup("").join(rows))


async def warm(datasette) -> None:
    """Read each database's card names once (the ``startup`` hook calls this), so the first card page
    does not pay for it."""
    for db in list(datasette.databases.values()):
        if db.is_memory:
            continue
        try:
            await db.execute_fn(lambda conn, path=db.path: cards_lib.has_cards(conn) and cards_lib._names_of(conn, path))
        except Exception:  # a database without cards, or one that cannot be read: its pages will say so
            pass


ROUTES = [
    (r"^/-/cards/(?P<name>[^/]+?)(?:\.(?P<format>json))?$", card_view),
]
