"""Every error answered with our own page (or JSON), and logged as one line.

Datasette's default ``handle_exception`` prints a rich traceback with local
variables for every 404 and 400: about 0.25 s of the event loop and 20 kB of
log each, so a few clients asking for missing pages slow every other page.
:func:`handle_exception` (the plugin's hook) answers instead, and the default
handler is unregistered at startup (:func:`quiet_default_handler`) because
Datasette calls every ``handle_exception`` implementation, not the first.

Errors of Datasette's own views that are the request's fault are answered as
such, never as 500: a sort by a column that does not exist is a 400, a row
URL with too few primary-key parts a 404, a query that needs more memory than
the limits allow (:mod:`kb.plugin.connection_limits`) a 400.

>>> classify(ValueError("x"))[0]
500
>>> classify(MemoryError())[0]
400
"""

from __future__ import annotations

import json
import logging
import traceback
from html import escape

from datasette.utils.asgi import Base400, Response

from kb.sqlite import sqlite3

from .bounded import WorkTooLong

log = logging.getLogger("kb.serve")

_DEFAULT_HANDLER = "datasette.handle_exception"


def quiet_default_handler() -> None:
    """Unregister Datasette's default exception handler (ours answers every exception)."""
    from datasette.plugins import pm

    plugin = pm.get_plugin(_DEFAULT_HANDLER)
    if plugin is not None:
        pm.unregister(plugin)


def classify(exception: BaseException) -> tuple[int, str, str]:
    """``(status, title, message)`` for an exception raised while answering a request."""
    from datasette.views.base import DatasetteError

    if isinstance(exception, Base400):
        status = exception.status
        title = {404: "Not found", 403: "Forbidden", 405: "Method not allowed"}.get(status, "Bad request")
        return status, title, str(exception.args[0]) if exception.args else title
    if isinstance(exception, WorkTooLong):
        return 400, "Too much work", str(exception)
    if isinstance(exception, DatasetteError):
        message = str(exception.message)
        # Datasette raises its request errors ("Cannot sort table by nosuch") with status 500.
        status = exception.status if exception.status != 500 else 400
        return status, exception.title or "Bad request", message
    if isinstance(exception, MemoryError) or (
        isinstance(exception, sqlite3.DataError) and "too big" in str(exception)
    ):
        return 400, "Too much work", (
            "this query would build a value larger than the server allows (16 MB); ask for less"
        )
    if isinstance(exception, sqlite3.ProgrammingError) and "supply a value for binding" in str(exception):
        # /kb/rules/nosuch: a row URL needs every part of the primary key (release,lang,number).
        return 404, "Not found", "no such row: a row URL names every part of the table's primary key"
    if isinstance(exception, json.JSONDecodeError):
        # Datasette reads a _facet (and a few other parameters) starting with "{" as JSON.
        return 400, "Bad request", f"a parameter that starts with {{ must be JSON: {exception}"
    if isinstance(exception, ValueError) and "null character" in str(exception):
        return 400, "Bad request", "a NUL character is not accepted in a query"
    if isinstance(exception, OverflowError) and "SQLite INTEGER" in str(exception):
        # A filter value such as ?number__gt=99999999999999999999 is bound as an int SQLite can't hold.
        return 400, "Bad request", ("a number in the query is too large "
                                    "(SQLite integers are 64-bit: at most 9223372036854775807)")
    if isinstance(exception, sqlite3.OperationalError) and "interrupted" in str(exception):
        return 400, "Too much work", "this query took too long and was stopped; ask for less"
    return 500, "Server error", "something went wrong on the server; the error is logged"


def handle_exception(datasette, request, exception):
    async def inner():
        status, title, message = classify(exception)
        where = f"{request.method} {request.path}" + (f"?{request.query_string}" if request.query_string else "")
        if status >= 500:
            log.error("%s %s: %s: %s\n%s", status, where, type(exception).__name__, exception,
                      "".join(traceback.format_exception(exception)).rstrip())
        else:
            log.info("%s %s: %s", status, where, message)
        return await error_response(datasette, request, request.path.endswith(".json")
                                    or request.args.get("_format") == "json", status, message, title=title)

    return inner


async def error_response(datasette, request, as_json: bool, status: int, message: str, *, title: str = "Error"):
    """A 4xx/5xx answer: JSON ``{"ok": false, "error": ...}`` or our page with the sentence."""
    if as_json:
        return Response.json({"ok": False, "error": message, "status": status}, status=status)
    try:
        html = await datasette.render_template(
            "kb_error.html", {"title": title, "message": message, "status": status}, request=request)
    except Exception:  # the error page itself must not fail: plain HTML then
        log.exception("error page for %s failed", request.path)
        html = (f"<!DOCTYPE html><html><head><title>{status} {escape(title)}</title></head>"
                f"<body><h1>{escape(title)}</h1><p>{escape(message)}</p><p><a href=\"/\">Home</a></p></body></html>")
    return Response.html(html, status=status)
