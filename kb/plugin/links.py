"""Render rule numbers inside text cells as links to the rule's page.

Only our own tables' text cells are touched; everything else is left to
Datasette (``render_cell`` returns ``None``). Text is escaped before links are
put in, so nothing from the database is ever rendered as HTML.
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from ingest.rule_refs import find_citations

_NUMBER_CELL = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")
# Columns whose value is itself one rule number.
_NUMBER_COLUMNS = {"number", "rule_number", "parent", "from_number", "to_number"}


def rule_url(datasette, number: str, release: str | None = None) -> str:
    url = datasette.urls.path(f"/-/rules/{number}")
    return f"{url}?release={release}" if release else url


def _release_of(row) -> str | None:
    try:
        value = row["release"]
    except (KeyError, IndexError, TypeError):
        return None
    return value if isinstance(value, str) and value.isdigit() else None


def render_rule_links(row, value, column, table, datasette):
    if not isinstance(value, str) or not value or table is None:
        return None
    release = _release_of(row)
    if column in _NUMBER_COLUMNS and _NUMBER_CELL.fullmatch(value):
        return Markup(f'<a href="{escape(rule_url(datasette, value, release))}">{escape(value)}</a>')
    if not any(ch.isdigit() for ch in value):
        return None
    cites = [c for c in find_citations(value) if c.kind == "rule"]
    if not cites:
        return None
    out, last = [], 0
    for cite in cites:
        # The cited text may be "rules 701.23a–c"; link the first number's digits.
        start = value.find(cite.number, cite.start)
        if start < last or start < 0:
            continue
        end = start + len(cite.number)
        out.append(escape(value[last:start]))
        out.append(Markup(f'<a href="{escape(rule_url(datasette, cite.number, release))}">{escape(cite.number)}</a>'))
        last = end
    out.append(escape(value[last:]))
    return Markup("").join(out)
