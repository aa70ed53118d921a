"""Read rules out of the built database: a rule with everything under it.

A rule is found by number (``701``, ``701.57``, ``701.57a``) or by keyword
title (``Discover``) in one release and language; the default release is the
newest one of that language.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

import sqlite_utils

from .database import RuleNotFound, check_release, newest_release

_NUMBER = re.compile(r"\d(?:\d\d(?:\.\d+[a-z]?)?)?")


@dataclass
class RuleView:
    """A rule as read from the database, with its examples."""

    release: str
    lang: str
    number: str
    kind: str
    parent: str
    title: str | None
    title_en: str | None
    text: str
    examples: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return asdict(self)


def resolve_title(db: sqlite_utils.Database, title: str, release: str, lang: str = "en") -> str | None:
    """The number of the numbered rule titled ``title`` (any case) in ``release``, or None.

    Keyword titles are unique within sections 7 and 8; Japanese rows match by
    their English title too.
    """
    row = db.execute(
        "select number from rules where release = ? and lang = ? and kind = 'numbered'"
        " and (lower(title) = lower(?) or lower(title_en) = lower(?)) order by position limit 1",
        [release, lang, title.strip(), title.strip()],
    ).fetchone()
    if row is None and lang != "en":
        # A translation whose headings print no English name (Chinese): the English title of
        # the same release, through the alignment of the two.
        row = db.execute(
            "select coalesce(a.number, en.number) from rules en"
            " left join rule_alignment a on a.release = en.release and a.lang = ? and a.number_en = en.number"
            " where en.release = ? and en.lang = 'en' and en.kind = 'numbered' and lower(en.title) = lower(?)"
            " and exists (select 1 from sqlite_master where name = 'rule_alignment') limit 1",
            [lang, release, title.strip()],
        ).fetchone() if db.execute("select 1 from sqlite_master where name = 'rule_alignment'").fetchone() else None
    return row[0] if row else None


def find_rule(
    db: sqlite_utils.Database, number: str, *, release: str | None = None, lang: str = "en"
) -> list[RuleView]:
    """The rule ``number`` (or titled ``number``) and all its descendants, in document order."""
    release = check_release(db, release, lang) if release else newest_release(db, lang)
    wanted = number.strip().rstrip(".")
    if not _NUMBER.fullmatch(wanted):
        resolved = resolve_title(db, wanted, release, lang)
        if resolved is None:
            raise RuleNotFound(
                f"{number!r} is neither a rule number (like 701.57a) nor a keyword title in release {release}"
            )
        wanted = resolved
    if len(wanted) == 1:
        where, params = "section = ?", [wanted]
    else:
        where = "(number = ? or number like ? || '.%' or number glob ? || '[a-z]')"
        params = [wanted, wanted, wanted]
    rows = list(db.query(
        f"select * from rules where release = ? and lang = ? and {where} order by position",
        [release, lang, *params],
    ))
    if not rows:
        raise RuleNotFound(f"no rule {wanted} in release {release} ({lang})")
    numbers = [r["number"] for r in rows]
    examples: dict[str, list[str]] = {}
    placeholders = ",".join("?" for _ in numbers)
    for ex in db.query(
        f"select rule_number, text from examples where release = ? and lang = ? and rule_number in ({placeholders})"
        " order by rule_number, seq",
        [release, lang, *numbers],
    ):
        examples.setdefault(ex["rule_number"], []).append(ex["text"])
    return [
        RuleView(r["release"], r["lang"], r["number"], r["kind"], r["parent"], r["title"],
                 r["title_en"], r["text"], examples.get(r["number"], []))
        for r in rows
    ]
