"""Build step: wiki rulings, cards and card rulings into the ``search_current`` index.

The default search (:func:`kb.search.search`, the ``/-/search`` page and the
home page's box) reads ``search_current``: the newest release of each
language. This step adds, beside the rules, examples and glossary:

- ``ruling`` — each wiki ruling of a page's preferred revision (Japanese),
  with ``number`` the keyword's rule in the newest English release;
- ``card`` — each card, once in English (name, type, Oracle text) and once
  in Japanese where it has a Japanese name or text;
- ``card ruling`` — each dated card ruling (English), titled with the card.

``release`` is the newest English release (what the rows are read with);
``link`` is the row's path inside the database (``rulings/12``, ``cards/7``,
``card_rulings/3``), since the database's name is only known when it is
served. Runs after the CR tables are finished and before the ``search
index`` step indexes ``search_current``; a table the build doesn't have yet is
skipped.
"""

from __future__ import annotations

from ..build import BuildContext


def _tables(db) -> set[str]:
    return set(db.table_names()) | set(db.view_names())


def load_search_extra(ctx: BuildContext) -> None:
    db = ctx.db
    tables = _tables(db)
    row = db.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()
    release = row[0] if row else None
    if release is None or "search_current" not in tables:
        return
    if "rulings" in tables:
        db.execute("""
            insert into search_current (kind, release, lang, number, title, text, search_text, link)
            select 'ruling', :release, 'ja',
                   (select r.number from rules r where r.release = :release and r.lang = 'en'
                      and r.kind = 'numbered' and r.parent in ('701', '702') and r.title = rulings.keyword collate nocase
                      order by r.position limit 1),
                   rulings.page_title, rulings.text, rulings.search_text, 'rulings/' || rulings.id
            from rulings where rulings.preferred = 1 and rulings.text is not null and rulings.text != ''
            order by rulings.id
        """, {"release": release})
    if "cards" in tables:
        db.execute("""
            insert into search_current (kind, release, lang, number, title, text, search_text, link)
            select 'card', :release, 'en', null, name_en,
                   trim(coalesce(mana_cost || ' ', '') || coalesce(type_line, '') || ' — ' || coalesce(text, '')),
                   coalesce(name_en, '') || ' ' || coalesce(type_line, '') || ' ' || coalesce(text, ''),
                   'cards/' || id
            from cards where name_en is not null order by id
        """, {"release": release})
        db.execute("""
            insert into search_current (kind, release, lang, number, title, text, search_text, link)
            select 'card', :release, 'ja', null, coalesce(name_ja, name_en), coalesce(text_ja, ''),
                   search_ja, 'cards/' || id
            from cards where search_ja is not null and (name_ja is not null or text_ja is not null) order by id
        """, {"release": release})
    if "card_rulings" in tables:
        db.execute("""
            insert into search_current (kind, release, lang, number, title, text, search_text, link)
            select 'card ruling', :release, 'en', null, card, text, coalesce(card, '') || ' ' || text,
                   'card_rulings/' || id
            from card_rulings where text is not null order by id
        """, {"release": release})
