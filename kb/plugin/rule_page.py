"""The rule page: ``/-/rules/<number>`` (``?release=YYYYMMDD``; ``.json`` for tools)."""

from __future__ import annotations

import re

from datasette.utils.asgi import Response

from kb.database import RuleNotFound, UnknownRelease
from kb.rules import find_rule

NUMBER = r"(?P<number>\d(?:\d\d(?:\.\d+[a-z]?)?)?)"
_RELEASE = re.compile(r"\d{8}")





async def rule_view(datasette, request):
    number = request.url_vars["number"]
    as_json = request.url_vars.get("format") == "json" or request.args.get("_format") == "json"
    release = request.args.get("release") or None
    if release is not None and not _RELEASE.fullmatch(release):
        return _error(datasette, as_json, 400, f"release must be a date as YYYYMMDD, not {release!r}")
    db = datasette.get_database()

    def read(conn):
        import sqlite_utils

        wrapped = sqlite_utils.Database(conn)
        out = {}
        for lang in ("en", "ja"):
            try:
                out[lang] = [v.as_dict() for v in find_rule(wrapped, number, release=release, lang=lang)]
            except (RuleNotFound, UnknownRelease) as e:
                out[lang] = []
                out.setdefault("errors", {})[lang] = str(e)
        return out

    found = await db.execute_fn(read)
    if not found["en"] and not found["ja"]:
        return _error(datasette, as_json, 404, found.get("errors", {}).get("en", f"no rule {number}"))
    if as_json:
        return Response.json({"number": number, "release": release, "en": found["en"], "ja": found["ja"]})
    html = await datasette.render_template(
        "kb_rule.html",
        {"number": number, "release": release, "en": found["en"], "ja": found["ja"]},
        request=request,
    )
    return Response.html(html)


def _error(datasette, as_json, status, message):
    if as_json:
        return Response.json({"ok": False, "error": message}, status=status)
    return Response.html(f"<!DOCTYPE html><title>Error</title><p>{_escape(message)}</p>", status=status)


def _escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


ROUTES = [
    (rf"^/-/rules/{NUMBER}(?:\.(?P<format>json))?$", rule_view),
]
