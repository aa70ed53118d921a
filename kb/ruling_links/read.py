"""Read the stored links back: the rulings of a rule, the rules of a ruling.

A rule is found by lineage, so the rulings of 701.23 in 20260925 include one
written for 701.19 in 2019: :func:`rulings_of_rules` takes rule numbers of any
release and returns every wiki and card ruling linked to any release's number
of those rules, with how it was linked and the number it was linked to.

>>> rule_numbers_under(["701.57"], ["701.57", "701.57a", "701.57b"])
['701.57', '701.57a', '701.57b']
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_RULINGS = 500
# Kana or CJK ideographs: a ruling written in Japanese.
_JAPANESE = re.compile("[\u3040-\u9fff]")


def rule_numbers_under(wanted: list[str], numbers: list[str]) -> list[str]:
    """The numbers among ``numbers`` that are one of ``wanted`` or under it (701.57 → 701.57a)."""
    out = []
    for n in numbers:
        if any(n == w or n.startswith(w + ".") or (n[:-1] == w and n[-1].isalpha()) for w in wanted):
            out.append(n)
    return out


def _tables(conn) -> set[str]:
    return {r[0] for r in conn.execute("select name from sqlite_master where type in ('table', 'view')")}


def rulings_of_rules(conn, lang: str, release: str, numbers: list[str], *, limit: int = MAX_RULINGS) -> dict[str, Any]:
    """Wiki and card rulings linked to these rules (in any release, through the lineage).

    Returns ``{"rulings": [...], "total": n}``; each ruling has ``kind`` (wiki or
    card), ``id``, ``text``, ``lang``, where it comes from (``page_title`` or
    ``card`` and ``date``), ``source`` and ``line``, and ``links``: the numbers in
    ``release`` it is linked to, with ``how``, ``score`` and the number it had
    where it was written (``written``).
    """
    tables = _tables(conn)
    if not numbers or "rule_lineage" not in tables:
        return {"rulings": [], "total": 0}
    marks = ",".join("?" for _ in numbers)
    lineages = dict(conn.execute(
        f"select lineage_id, number from rule_lineage where lang = ? and release = ? and number in ({marks})",
        [lang, release, *numbers]).fetchall())
    if not lineages:
        return {"rulings": [], "total": 0}
    lid_marks = ",".join("?" for _ in lineages)
    found: dict[tuple[str, int], dict] = {}
    specs = []
    if {"ruling_rules", "rulings"} <= tables:
        specs.append(("wiki", "ruling_rules", "ruling_id",
                      "select r.id, r.text, r.page_title, null, r.source, r.line, r.section, r.is_example,"
                      " r.preferred from rulings r where r.id = ?"))
    if {"card_ruling_rules", "card_rulings"} <= tables:
        specs.append(("card", "card_ruling_rules", "card_ruling_id",
                      "select c.id, c.text, c.card, c.date, c.sources, c.line, null, 0, 1, c.card_id"
                      " from card_rulings c where c.id = ?"))
    # A whole section (702) links tens of thousands of rulings: count them and read the links of only
    # the first ``limit`` (wiki rulings first, then card rulings, each by id) in SQL.
    total = 0
    room = limit
    for kind, table, column, _ in specs:
        where = f"from [{table}] where lineage_id in ({lid_marks})"
        total += conn.execute(f"select count(distinct {column}) {where}", list(lineages)).fetchone()[0]
        if room <= 0:
            continue
        ids = [r[0] for r in conn.execute(f"select distinct {column} {where} order by {column} limit ?",
                                          [*lineages, room])]
        room -= len(ids)
        if not ids:
            continue
        id_marks = ",".join("?" for _ in ids)
        for ruling_id, lid, role, link_release, link_lang, number, how, score in conn.execute(
                f"select {column}, lineage_id, role, release, lang, number, how, score {where}"
                f" and {column} in ({id_marks}) order by {column}, id", [*lineages, *ids]):
            item = found.setdefault((kind, ruling_id), {"kind": kind, "id": ruling_id, "links": {}})
            link = item["links"].setdefault(lid, {"number": lineages[lid], "how": how, "score": score,
                                                  "written": None})
            if role == "written":
                link["written"] = {"release": link_release, "lang": link_lang, "number": number}
    keys = sorted(found, key=lambda k: (k[0] != "wiki", k[1]))[:limit]
    out = []
    for kind, ruling_id in keys:
        item = found[(kind, ruling_id)]
        sql = next(s for k, _, _, s in specs if k == kind)
        row = conn.execute(sql, [ruling_id]).fetchone()
        if row is None:
            continue
        if kind == "wiki":
            _, text, page, _, source, line, section, is_example, preferred = row
            where = {"page_title": page, "section": section, "is_example": bool(is_example),
                     "preferred": bool(preferred)}
        else:
            _, text, card, date, sources, line, _, _, _, card_id = row
            try:
                source = (json.loads(sources or "[]") or [None])[0]  # the first file that has the ruling
            except ValueError:
                source = sources
            where = {"card": card, "date": date, "card_id": card_id}
        out.append({"kind": kind, "id": ruling_id, "text": text,
                    "lang": "ja" if _JAPANESE.search(text or "") else "en",
                    **where, "source": source, "line": line, "links": list(item["links"].values())})
    return {"rulings": out, "total": total}


def rules_of_ruling(conn, kind: str, ruling_id: int) -> list[dict]:
    """The links of one ruling: each with its newest number and the number where it was written."""
    table, column = ("ruling_rules", "ruling_id") if kind == "wiki" else ("card_ruling_rules", "card_ruling_id")
    if table not in _tables(conn):
        return []
    links: dict[int, dict] = {}
    for lid, role, release, lang, number, how, score in conn.execute(
            f"select lineage_id, role, release, lang, number, how, score from [{table}] where {column} = ?"
            " order by id", [ruling_id]):
        link = links.setdefault(lid, {"how": how, "score": score, "newest": None, "written": None})
        link["newest" if role == "newest" else "written"] = {"release": release, "lang": lang, "number": number}
    return list(links.values())
