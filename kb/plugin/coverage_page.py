"""``/-/coverage``: which keyword actions (701) and abilities (702) the executable rules run.

Every keyword of the newest English release, with its module (linked by
title), each subrule implemented / out of reach (with the module's reason) /
missing, its scenarios (each linked to ``/-/scenarios/<id>``) and each CR
``Example:`` with the scenario linked to it or the reason it is out of reach.
Read from the database alone (:func:`kb.coverage.coverage` over ``checks``,
``scenarios`` and ``scenario_examples``), once per process.

``?kind=action|ability`` shows one kind; ``?only=modules`` only the keywords
that have a module; ``.json`` (or ``?_format=json``) the same as data.
"""

from __future__ import annotations

from datasette.utils.asgi import Response

from kb.coverage import coverage

from .errors import error_response
from .rule_page import cached_read, wants_json

KINDS = {"action": "keyword action", "ability": "keyword ability"}
ONLY = ("modules", "missing")
PARAMETERS = {"kind", "only", "_format"}


class BadParameter(ValueError):
    """A query-string value the page doesn't take; the message says which it does."""


def parse_coverage_args(args) -> dict:
    """Validate the query string.

    >>> parse_coverage_args({"kind": "action"})
    {'kind': 'keyword action', 'only': None}
    >>> parse_coverage_args({"kind": "spell"})
    Traceback (most recent call last):
    ...
    kb.plugin.coverage_page.BadParameter: kind must be action or ability, not 'spell'
    >>> parse_coverage_args({"page": "2"})
    Traceback (most recent call last):
    ...
    kb.plugin.coverage_page.BadParameter: the coverage page takes kind and only, not page
    """
    unknown = sorted(set(args.keys()) - PARAMETERS)
    if unknown:
        raise BadParameter(f"the coverage page takes kind and only, not {', '.join(unknown)}")
    kind = (args.get("kind") or "").strip()
    if kind and kind not in KINDS:
        raise BadParameter(f"kind must be action or ability, not {kind[:40]!r}")
    only = (args.get("only") or "").strip()
    if only and only not in ONLY:
        raise BadParameter(f"only must be modules or missing, not {only[:40]!r}")
    return {"kind": KINDS.get(kind), "only": only or None}


def read_coverage(conn) -> dict:
    """The whole report as plain data (cached per process by the caller)."""
    return coverage(conn).as_dict()


def select(data: dict, kind: str | None, only: str | None) -> dict:
    keywords = [k for k in data["keywords"] if (not kind or k["kind"] == kind)
                and (only != "modules" or k["module"]) and (only != "missing" or not k["module"])]
    return {**data, "keywords": keywords}


async def coverage_view(datasette, request):
    as_json = wants_json(request)
    try:
        params = parse_coverage_args(request.args)
    except BadParameter as e:
        return await error_response(datasette, request, as_json, 400, str(e), title="Coverage")
    db = datasette.get_database()
    data = await cached_read(db, ("coverage",), read_coverage)
    if data["release"] is None:
        return await error_response(datasette, request, as_json, 404,
                                    "; ".join(data["notes"]) or "the database has no English CR", title="Coverage")
    shown = select(data, params["kind"], params["only"])
    if as_json:
        return Response.json({"ok": True, **shown, "kind": params["kind"], "only": params["only"]})
    page = {**shown, "kind": params["kind"], "only": params["only"], "kinds": KINDS}
    return Response.html(await datasette.render_template("kb_coverage.html", page, request=request))


ROUTES = [(r"^/-/coverage(?:\.(?P<format>json))?$", coverage_view)]
