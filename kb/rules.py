"""Read rules out of the built database: a rule with everything under it.

A rule is found by number (``701``, ``701.57``, ``701.57a``), by title
(``Discover``) or by a keyword's name in another language (``発見``) in one
release and language; the default release is the newest one of that language.
"""

from __future__ import annotations

import difflib
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


def english_title(db: sqlite_utils.Database, name: str) -> str | None:
    """The English title a name stands for: itself if some rule has that title, else the English
    name of a keyword named so in another language (発見 → Discover), else None."""
    name = name.strip()
    row = db.execute("select title from rules where lang = 'en' and kind = 'numbered' and title = ? collate nocase"
                     " order by release desc limit 1", [name]).fetchone()
    if row:
        return row[0]
    tables = set(db.table_names()) | set(db.view_names())
    if "keyword_names" in tables:
        row = db.execute("select name_en from keyword_names where name_ja = ? or match_ja = ?"
                         " order by source = 'rule' desc, release desc limit 1", [name, name]).fetchone()
        if row:
            return row[0]
    row = db.execute("select coalesce(title_en, title) from rules where lang != 'en' and kind = 'numbered'"
                     " and title = ? order by release desc limit 1", [name]).fetchone()
    return row[0] if row else None


def resolve_name(db: sqlite_utils.Database, name: str, release: str, lang: str = "en") -> str:
    """The number of the rule ``name`` (an English title or a keyword name in any language) in ``release``.

    Raises :class:`RuleNotFound` with a sentence that helps: where the rule was first and last
    numbered when this release lacks it, or the nearest title when the name is unknown.
    """
    title = english_title(db, name)
    if title is not None:
        number = resolve_title(db, title, release, lang)
        if number is not None:
            return number
        runs = db.execute(
            "select min(release), max(release), number from rules where lang = 'en' and kind = 'numbered'"
            " and title = ? group by number order by min(release)", [title]).fetchall()
        if runs:
            first, last = runs[0], runs[-1]
            shown = f"{title!r}" + (f" ({name})" if name.strip() != title else "")
            if release < first[0]:
                where = f"it first appeared in {first[0]} as {first[2]}"
            elif release > last[1]:
                where = f"it was last in {last[1]} as {last[2]}"
            else:
                where = f"it is {last[2]} in {last[1]}"
            return _not_found(f"{shown} is not in release {release} ({lang}): {where}")
    known = [r[0] for r in db.execute(
        "select distinct title from rules where release = ? and lang = 'en' and kind = 'numbered'"
        " and parent in ('701', '702') and title is not null", [release])]
    near = difflib.get_close_matches(name.strip().title(), known, n=1, cutoff=0.75)
    hint = f"; did you mean {near[0]!r}?" if near else ""
    return _not_found(f"{name!r} is neither a rule number (like 701.57a) nor a keyword title or name "
                      f"in release {release}{hint}")


def _not_found(message: str) -> str:
    raise RuleNotFound(message)


def find_rule(
    db: sqlite_utils.Database, number: str, *, release: str | None = None, lang: str = "en"
) -> list[RuleView]:
    """The rule ``number`` (or titled ``number``) and all its descendants, in document order."""
    release = check_release(db, release, lang) if release else newest_release(db, lang)
    wanted = number.strip().rstrip(".")
    if not _NUMBER.fullmatch(wanted):
        wanted = resolve_name(db, wanted, release, lang)
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
