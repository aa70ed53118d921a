"""Requests refused before they reach Datasette (the plugin's ``asgi_wrapper``).

- A path with a backslash, or starting with two slashes: Datasette answers
  ``/\\evil.example/`` with a redirect to ``/\\evil.example``, which browsers read
  as ``//evil.example``, another host (an open redirect, a known Datasette
  issue). No page of ours has a backslash in its path.
- A NUL character in the path or query: SQLite refuses it in a query, and
  Datasette's table view then fails with a 500.
- A method other than GET, HEAD or OPTIONS outside Datasette's own ``/-/``
  pages: the database is read-only, and Datasette 0.65 answers a POST to a
  read-only canned query with a 500.

>>> refusal("GET", "/\\\\evil.example/")[0]
404
>>> refusal("GET", "//evil.example")[0]
404
>>> refusal("POST", "/kb/rule_across_releases")[0]
405
>>> refusal("GET", "/kb/rules", b"_facet=%00")[0]
400
>>> refusal("GET", "/-/rules/701.57") is None
True
"""

from __future__ import annotations

import json
import logging
from html import escape

log = logging.getLogger("kb.serve")

_READ_METHODS = {"GET", "HEAD", "OPTIONS"}


def refusal(method: str, path: str, query_string: bytes = b"") -> tuple[int, str] | None:
    """``(status, sentence)`` if the request is refused, else None."""
    if "\x00" in path or b"%00" in query_string.lower() or b"\x00" in query_string:
        return 400, "a NUL character (%00) is not accepted in an address"
    if "\\" in path or path.startswith("//"):
        return 404, "no page has this address (a path may not hold a backslash or start with //)"
    if method not in _READ_METHODS and not path.startswith("/-/"):
        return 405, f"this knowledge base is read-only: {method} is not accepted here, only GET"
    return None


def asgi_wrapper(datasette):
    def wrap(app):
        async def guarded(scope, receive, send):
            if scope["type"] == "http":
                refused = refusal(scope.get("method", "GET"), scope.get("path", ""), scope.get("query_string", b""))
                if refused is not None:
                    status, sentence = refused
                    log.info("%s %s %s: %s", status, scope.get("method"), scope.get("path"), sentence)
                    await _send(send, status, sentence, _wants_json(scope))
                    return
            await app(scope, receive, send)

        return guarded

    return wrap


def _wants_json(scope) -> bool:
    """A ``.json`` address or ``_format=json``: the refusal is JSON, as every other error there is.

    >>> _wants_json({"path": "/-/diff.json", "query_string": b"lang=%00"})
    True
    >>> _wants_json({"path": "/-/diff", "query_string": b"_format=json&lang=%00"})
    True
    >>> _wants_json({"path": "/-/diff", "query_string": b"lang=%00"})
    False
    """
    return scope.get("path", "").endswith(".json") or b"_format=json" in scope.get("query_string", b"")


async def _send(send, status: int, sentence: str, as_json: bool = False) -> None:
    title = {404: "Not found", 405: "Method not allowed"}.get(status, "Bad request")
    if as_json:
        body = json.dumps({"ok": False, "error": sentence, "status": status}).encode("utf-8")
        content_type = b"application/json; charset=utf-8"
    else:
        body = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title></head>'
                f'<body><h1>{title}</h1><p role="alert">{escape(sentence)}</p><p><a href="/">Home</a></p>'
                "</body></html>").encode("utf-8")
        content_type = b"text/html; charset=utf-8"
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    if status == 405:
        headers.append((b"allow", b"GET, HEAD, OPTIONS"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
