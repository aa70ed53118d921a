"""Build step "page tables": what the rule and keyword pages would otherwise work out on each visit.

Measured on the full database (``bench/bench_pages.py``), a rule page's first visit spent most of its
time in two reads that touch rows all over the file:

- its history (:func:`kb.plugin.rule_page._history`) joined every step of the rule's lineage (up to
  some 140 rows, one per release and language) to its ``rules`` row for the title: one page of the
  file per release. ``rule_history_runs`` keeps the runs already folded (a run of releases with
  the same number is one row), clustered by lineage: one read of a few adjacent rows;
- a keyword rule's card rulings were found by ``text like '%Discover%'`` over every card ruling
  (some 47,000; 50 ms each time) and a regular expression. ``keyword_card_rulings`` holds, for
  each keyword title of the rules 701 and 702 of any release, the card rulings whose text names
  it (the same test: the title starting a word, in any case).

It also indexes ``rule_lineage`` by lineage and release, for the pages that pair a rule with its
translation in another release. The pages read the old way from a database built without this step.
"""

from __future__ import annotations

import re

from ..build import BuildContext
from ..history import fold_history

HISTORY_COLUMNS = ("lineage_id", "seq", "lang", "first_release", "last_release", "releases", "number",
                   "status", "title", "completeness", "previous_release", "previous_number")


def _history_rows(conn):
    steps = conn.execute("""
        select l.lineage_id, l.lang, l.release, l.number, l.status, l.previous_release, l.previous_number, r.title,
               rel.completeness
        from rule_lineage l
        join rules r on r.release = l.release and r.lang = l.lang and r.number = l.number
        join releases rel on rel.release = l.release and rel.lang = l.lang
        order by l.lineage_id, l.lang, l.release""")
    current, group = None, []
    for row in steps:
        if row[0] != current and group:
            yield from _runs(current, group)
            group = []
        current = row[0]
        group.append(row[1:])
    if group:
        yield from _runs(current, group)


def _runs(lineage_id, group):
    for seq, run in enumerate(fold_history(group)):
        yield (lineage_id, seq, *(run[c] for c in HISTORY_COLUMNS[2:]))


def keyword_titles(conn) -> list[str]:
    """The titles a rule page looks keywords up by: every numbered rule of 701 and 702 in any release."""
    return sorted({r[0] for r in conn.execute(
        "select distinct coalesce(title_en, title) from rules where kind = 'numbered' and parent in ('701', '702')"
        " and coalesce(title_en, title) is not null")})


def rulings_naming(titles: list[str], rulings) -> list[tuple[str, int, str, str]]:
    """``(title, id, card, date)`` for every ruling ``(id, card, date, text)`` whose text has a title
    starting a word, in any case ("search" in "research" is not Search; "Searched" is).

    >>> rulings_naming(["Search", "Double Strike"], [(1, "A", "2020", "Research it"),
    ...     (2, "B", "2021", "it has double strike and searched")])
    [('Double Strike', 2, 'B', '2021'), ('Search', 2, 'B', '2021')]
    """
    if not titles:
        return []
    by_lower: dict[str, list[str]] = {}
    for title in titles:
        by_lower.setdefault(title.lower(), []).append(title)
    ordered = sorted(by_lower, key=len, reverse=True)
    lengths = sorted({len(t) for t in ordered})
    # Every position a title starts at (a lookahead does not consume), longest title first; the shorter
    # titles found at that position are the longest match's prefixes.
    from kb.plugin.links import trie_pattern   # one pass for every title, their prefixes shared

    # Matched in the lowered text (as fast again as IGNORECASE): lower() keeps the length of Latin text;
    # a text whose length it changes is matched as it is, case-insensitively.
    lowered = re.compile(r"\b(?=(" + trie_pattern(ordered) + "))")
    pattern = re.compile(lowered.pattern, re.IGNORECASE)
    found = set()
    for ruling_id, card, date, text in rulings:
        if not text:
            continue
        lower_text = text.lower()
        matches = lowered.finditer(lower_text) if len(lower_text) == len(text) else pattern.finditer(text)
        for m in matches:
            matched = m.group(1).lower()
            for size in lengths:
                if size > len(matched):
                    break
                for title in by_lower.get(matched[:size], ()):
                    found.add((title, ruling_id, card, date))
    return sorted(found, key=lambda r: (r[0], r[2] or "", r[3] or "", r[1]))


def load_page_tables(ctx: BuildContext) -> None:
    db = ctx.db
    conn = db.conn
    tables = set(db.table_names())
    with conn:
        conn.execute("drop table if exists rule_history_runs")
        conn.execute("drop table if exists keyword_card_rulings")
    if {"rule_lineage", "rules", "releases"} <= tables:
        conn.execute(
            "create table rule_history_runs (lineage_id integer not null, seq integer not null, lang text,"
            " first_release text, last_release text, releases integer, number text, status text, title text,"
            " completeness text, previous_release text, previous_number text,"
            " primary key (lineage_id, seq)) without rowid")
        with conn:
            conn.executemany(f"insert into rule_history_runs values ({', '.join('?' for _ in HISTORY_COLUMNS)})",
                             _history_rows(conn))
            conn.execute("create index if not exists idx_rule_lineage_lineage_lang_release"
                         " on rule_lineage (lineage_id, lang, release)")
    if {"card_rulings", "rules"} <= tables:
        conn.execute(
            # card and date ('' when missing) lead the key: a page reads its first rulings in order from the index.
            "create table keyword_card_rulings (keyword text not null, card text not null, date text not null,"
            " card_ruling_id integer not null, primary key (keyword, card, date, card_ruling_id)) without rowid")
        rows = rulings_naming(keyword_titles(conn),
                              conn.execute("select id, card, date, text from card_rulings"))
        with conn:
            conn.executemany("insert into keyword_card_rulings (keyword, card_ruling_id, card, date)"
                             " values (?, ?, coalesce(?, ''), coalesce(?, ''))", rows)
