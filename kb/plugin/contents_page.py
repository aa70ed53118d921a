"""``/-/rules``: the contents of a release (sections and their rules) and a "go to rule" box.

``/-/rules?number=701.57a`` (the box's answer) redirects to the rule's page; a
title or a keyword's name in another language goes through the same redirect
(``/-/rules/発見``). ``?release=`` picks the release (the newest by default).
"""

from __future__ import annotations

from urllib.parse import quote, urlencode

from datasette.utils.asgi import Response

from kb.database import UnknownRelease, check_release, newest_release

from .errors import error_response
from .rule_page import BadParameter, cached_read, parse_rule_args, wants_json


def read_contents(conn, release: str | None) -> dict:
    """Sections and rules (``701``, not ``701.57``) of ``release`` in English, with Japanese titles."""
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    release = check_release(db, release, "en") if release else newest_release(db)
    titles_ja = {}
    ja = conn.execute("select max(release) from releases where lang = 'ja' and completeness = 'whole'"
                      " and release <= ?", [release]).fetchone()[0]
    if ja:
        titles_ja = {n: t for n, t in conn.execute(
            "select number, title from rules where release = ? and lang = 'ja' and kind = 'rule'", [ja])}
    sections = [{"number": n, "title": t, "rules": []} for n, t in conn.execute(
        "select number, title from sections where release = ? and lang = 'en' order by position", [release])]
    by_number = {s["number"]: s for s in sections}
    for number, title in conn.execute(
            "select number, title from rules where release = ? and lang = 'en' and kind = 'rule' order by position",
            [release]):
        section = by_number.get(number[0])
        if section is not None:
            section["rules"].append({"number": number, "title": title, "title_ja": titles_ja.get(number)})
    return {"ok": True, "release": release, "release_ja": ja, "sections": sections}


async def contents_view(datasette, request):
    as_json = wants_json(request)
    try:
        params = parse_rule_args({k: request.args.get(k) for k in ("release", "show") if request.args.get(k)})
    except BadParameter as e:
        return await error_response(datasette, request, as_json, 400, str(e), title="Rules")
    wanted = (request.args.get("number") or "").strip()
    if wanted:
        kept = {"release": params["release"]} if params["release"] else {}
        target = datasette.urls.path("/-/rules/" + quote(wanted.rstrip("."), safe=""))
        return Response.redirect(target + ("?" + urlencode(kept) if kept else ""))
    db = datasette.get_database()
    try:
        data = await cached_read(db, ("contents", params["release"]), lambda conn: read_contents(conn, params["release"]))
    except UnknownRelease as e:
        return await error_response(datasette, request, as_json, 400, str(e), title="Rules")
    if as_json:
        return Response.json(data)
    return Response.html(await datasette.render_template("kb_contents.html", data, request=request))


ROUTES = [(r"^/-/rules(?:\.(?P<format>json))?$", contents_view)]
