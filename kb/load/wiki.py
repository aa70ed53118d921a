"""Load every MTG Wiki page of the corpus (``seeds/``, ``wiki/``) into the wiki tables, and its quoted CR.

Each file is parsed with :func:`ingest.wiki.parse_wiki_page` (card names from
the ``card_names`` and ``cards`` tables the card step filled, so mentions in
flattened text are recognised). Whether a file is an excerpt comes from the
corpus's ``SOURCES.md`` (its whole/excerpt column); a file it does not list is
judged by the parser alone.

Tables: ``wiki_pages`` (one row per page revision per file, ``preferred`` = 1
for the one row per title to show first: whole before partial, rendered before
HTML before wikitext before diff), ``keywords`` (English name → Japanese name,
kind and page), ``rulings``, ``wiki_sections``,
``wiki_card_blocks``, ``card_mentions`` and ``wiki_quoted_rules``. The quoted
CR rules go into ``rules``/``sections``/``examples``/``rule_references`` as
Japanese rows of their release, with a ``releases`` row of completeness
``excerpt``; two pages quoting the same rule of the same release store it once,
and a problem is kept when their texts differ.

Rulings are linked to the rules they apply later, once the rule history is
built, by :mod:`kb.load.ruling_links`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from pathlib import Path

from ingest.cards import CardNameIndex
from ingest.records import Example, IngestProblem, Release, Rule, RuleRef, Section, SourceError
from ingest.rule_refs import rule_sort_key
from ingest.wiki import parse_wiki_page
from ingest.wiki_records import CardBlock, CardMention, QuotedRule, Ruling, WikiPage, WikiSection

from ..build import BuildContext
from ..corpus import CorpusFile
from .cards import card_row, create_card_tables
from ..schema import create_tables
from ..schema import FTS_TOKENIZE

FORM_ORDER = {"rendered": 0, "html": 1, "wikitext": 2, "diff": 3}

WIKI_TABLES: dict[str, dict] = {
    "wiki_pages": dict(
        columns={
            "id": int, "title": str, "name_ja": str, "reading": str, "name_en": str, "kind": str,
            "kind_ja": str, "sets": str, "sets_printed": str, "sets_exact": int, "definition": str,
            "note": str, "redirected_from": str, "quoted_release": str, "quoted_version": str,
            "quoted_keyword_rule": str, "form": str, "revision": str, "partial": int,
            "partial_reason": str, "preferred": int, "rulings": int, "card_blocks": int,
            "card_mentions": int, "quoted_rules": int, "source": str, "line": int, "lang": str,
        },
        pk="id",
    ),
    "keywords": dict(
        columns={
            "name_en": str, "name_ja": str, "kind": str, "kind_ja": str, "page_id": int,
            "page_title": str, "cr_release": str, "cr_number": str, "page_en_id": int, "page_en_title": str,
        },
        pk="name_en",
        foreign_keys=[("page_id", "wiki_pages", "id"), ("page_en_id", "wiki_pages", "id")],
    ),
    "rulings": dict(
        columns={
            "id": int, "page_id": int, "page_title": str, "revision": str, "keyword": str,
            "quoted_release": str, "position": int, "depth": int, "parent_id": int, "section": str, "section_path": str,
            "text": str, "is_example": int, "markup": str, "truncated": int, "preferred": int,
            "source": str, "line": int, "search_ja": str, "lang": str,
        },
        pk="id",
        foreign_keys=[("page_id", "wiki_pages", "id"), ("keyword", "keywords", "name_en"),
                      ("parent_id", "rulings", "id")],
    ),
    "wiki_sections": dict(
        columns={
            "id": int, "page_id": int, "position": int, "heading": str, "level": int, "path": str,
            "text": str, "source": str, "line": int,
        },
        pk="id",
        foreign_keys=[("page_id", "wiki_pages", "id")],
    ),
    "wiki_card_blocks": dict(
        columns={
            "id": int, "page_id": int, "card_id": int, "position": int, "name_en": str, "name_ja": str,
            "name_source": str, "cost_printed": str, "mana_cost": str, "mana_value": int,
            "type_line": str, "text": str, "pt": str, "how": str, "truncated": int,
            "source": str, "line": int,
        },
        pk="id",
        foreign_keys=[("page_id", "wiki_pages", "id"), ("card_id", "cards", "id")],
    ),
    "card_mentions": dict(
        columns={
            "id": int, "page_id": int, "ruling_id": int, "card_id": int, "name_en": str,
            "name_ja": str, "printed": str, "how": str, "section": str, "source": str, "line": int,
        },
        pk="id",
        foreign_keys=[("page_id", "wiki_pages", "id"), ("ruling_id", "rulings", "id"),
                      ("card_id", "cards", "id")],
    ),
    "wiki_quoted_rules": dict(
        columns={
            "id": int, "page_id": int, "release": str, "lang": str, "number": str,
            "version_label": str, "stored_from_here": int, "same_as_stored": int,
            "source": str, "line": int,
        },
        pk="id",
        foreign_keys=[("page_id", "wiki_pages", "id")],
    ),
}

RULINGS_SEARCH_TEXT = "coalesce(search_ja, text)"

VIEWS = {
    # The rulings of the page shown first for each title (see wiki_pages.preferred).
    "preferred_rulings": """
        select rulings.* from rulings where preferred = 1 order by page_title, position
    """,
}

_TYPE_WORDS_EN = {
    "クリーチャー": "Creature", "エンチャント": "Enchantment", "ソーサリー": "Sorcery", "インスタント": "Instant",
    "土地": "Land", "アーティファクト": "Artifact", "プレインズウォーカー": "Planeswalker", "バトル": "Battle",
    "伝説の": "Legendary",
}


def wiki_files(corpus: Path) -> list[CorpusFile]:
    """The wiki pages of the corpus: ``seeds/*.txt`` and every page file under ``wiki/``."""
    found = {p for pattern in ("seeds/*.txt", "wiki/**/*.txt", "wiki/**/*.html", "wiki/**/*.htm", "wiki/**/*.wiki")
             for p in corpus.glob(pattern) if p.is_file()}
    return sorted((CorpusFile(p, p.relative_to(corpus).as_posix()) for p in found), key=lambda f: f.relative)


def excerpt_flags(corpus: Path) -> dict[str, bool]:
    """``{relative path: is an excerpt}`` from SOURCES.md's whole/excerpt column (second to last).

    Anything but a column starting with ``whole`` (``excerpt``, ``subset``,
    ``near-whole``, ``probably whole``) counts as an excerpt: a page is only
    stored as whole when its source says so.
    """
    path = corpus / "SOURCES.md"
    if not path.is_file():
        return {}
    flags = {}
    for line in path.read_text(encoding="utf-8").split("\n"):
        m = re.match(r"^- `(?P<path>[^`]+)`\s*\|(?P<rest>.*)$", line)
        if not m:
            continue
        fields = [f.strip() for f in m.group("rest").split(" | ")]
        if len(fields) >= 2:
            flags[m.group("path")] = not fields[-2].startswith("whole")
    return flags


def _card_index(db) -> CardNameIndex:
    names: dict[str, str | None] = {}
    if "card_names" in db.table_names():
        for name_en, name_ja in db.execute("select name_en, name_ja from card_names"):
            names[name_en] = name_ja
    if "cards" in db.table_names():
        for name_en, name_ja in db.execute("select name_en, name_ja from cards where name_en is not null"):
            if names.get(name_en) is None:
                names[name_en] = name_ja
        for name_en, name_ja in db.execute("select name_en, name_ja from card_faces"):
            names.setdefault(name_en, name_ja)
    return CardNameIndex(names)


class _Cards:
    """Find or add the ``cards`` row of a card named on a wiki page."""

    def __init__(self, ctx: BuildContext, index: CardNameIndex):
        self.ctx, self.db, self.index = ctx, ctx.db, index
        self.by_name = {name.lower(): card_id for card_id, name in self.db.execute("select id, name_en from cards")}
        self.faces = {name.lower(): (card_id, face_id) for face_id, card_id, name in
                      self.db.execute("select id, card_id, name_en from card_faces")}
        self.ja_names = sorted({ja for ja in index.ja_by_en.values() if ja and len(ja) >= 2}, key=len, reverse=True)

    def find(self, name_en: str) -> int | None:
        key = name_en.lower()
        if key in self.by_name:
            return self.by_name[key]
        if key in self.faces:
            return self.faces[key][0]
        return None

    def find_or_add(self, name_en: str, source: str) -> int:
        found = self.find(name_en)
        if found is not None:
            return found
        canonical = self.index.canonical_en(name_en) or name_en
        ja = self.index.ja_for(canonical)
        listed = self.db.execute("select source from card_names where name_en = ?", [canonical]).fetchone()
        sources = [listed[0]] if listed else []
        card_id = self.db["cards"].insert(card_row(
            canonical, ja, name_ja_source="jpname" if ja else None,
            sources=json.dumps(sources + [source], ensure_ascii=False), layout=None)).last_pk
        self.by_name[canonical.lower()] = card_id
        return card_id

    def add_source(self, card_id: int, source: str) -> None:
        (sources,) = self.db.execute("select sources from cards where id = ?", [card_id]).fetchone()
        found = json.loads(sources or "[]")
        if source not in found:
            self.db["cards"].update(card_id, {"sources": json.dumps(found + [source], ensure_ascii=False)})

    def set_japanese_name(self, name_en: str, name_ja: str, where: str, exact: bool) -> None:
        """Fill a missing Japanese name from the wiki; report a wiki name that differs from the name list."""
        key = name_en.lower()
        if key in self.faces and key not in self.by_name:
            card_id, face_id = self.faces[key]
            (current,) = self.db.execute("select name_ja from card_faces where id = ?", [face_id]).fetchone()
            if current is None:
                self.db["card_faces"].update(face_id, {"name_ja": name_ja})
            return
        card_id = self.find(name_en)
        if card_id is None:
            return
        current, = self.db.execute("select name_ja from cards where id = ?", [card_id]).fetchone()
        if current is None:
            self.db["cards"].update(card_id, {"name_ja": name_ja, "name_ja_source": where})
        elif exact and current != name_ja:
            source, _, line = where.partition(":")
            self.ctx.problems.append(IngestProblem(
                source, int(line) if line.isdigit() else None, "warning", "card-name-ja-differs",
                f"the wiki names {name_en} {name_ja!r}, the card name list {current!r}; the list's name is kept"))

    def identify(self, block: CardBlock) -> int | None:
        """The card a box without a name line shows: a card name its text starts with, checked against its type.

        A Japanese card names itself in its text (``マーフォークの枝渡りが戦場に出たとき``);
        the card whose Japanese name the text mentions is taken only if its
        Oracle type line has the box's types and subtypes (and P/T), or, when
        we have no Oracle data for it, if the text starts with its name.
        """
        text = block.text or ""
        for name_ja in self.ja_names:
            if name_ja not in text:
                continue
            for name_en in self.index.english_names_for(name_ja):
                card_id = self.find(name_en)
                row = self.db.execute("select type_line, power, toughness from cards where id = ?",
                                      [card_id]).fetchone() if card_id else None
                if row and row[0]:
                    if japanese_type_agrees(block.type_line or "", block.pt, *row):
                        return self.find_or_add(name_en, block.source)
                elif re.match(re.escape(name_ja) + r"[がはのを]", text):
                    return self.find_or_add(name_en, block.source)
        return None


def japanese_type_agrees(type_line_ja: str, pt_ja: str | None, type_line: str,
                         power: str | None, toughness: str | None) -> bool:
    """Whether a printed Japanese type line (and P/T) can be the card with this Oracle type line.

    The card types must all appear, and so must the English subtypes the wiki
    prints in parentheses; the P/T must be equal where both have one.

    >>> japanese_type_agrees("クリーチャー — マーフォーク(Merfolk) スカウト(Scout)", "2/1", "Creature — Merfolk Scout", "2", "1")
    True
    >>> japanese_type_agrees("エンチャント", None, "Sorcery", None, None)
    False
    """
    words = [en for ja, en in _TYPE_WORDS_EN.items() if ja in type_line_ja]
    subtypes = re.findall(r"\(([A-Za-z' \-]+)\)", type_line_ja)
    if not words or any(w not in type_line for w in words + subtypes):
        return False
    if pt_ja and power is not None:
        return unicodedata.normalize("NFKC", pt_ja) == f"{power}/{toughness}"
    return True


def _create_tables(db) -> None:
    create_tables(db, WIKI_TABLES, {"rulings": {"search_text": RULINGS_SEARCH_TEXT}})


def load_wiki(ctx: BuildContext) -> None:
    """The build step: parse every page, fill the wiki tables, insert the quoted CR (before "finish CR")."""
    from ..japanese import search_form

    db = ctx.db
    create_card_tables(db)
    _create_tables(db)
    files = wiki_files(ctx.corpus)
    flags = excerpt_flags(ctx.corpus)
    index = _card_index(db)
    records_by_file: list[tuple[CorpusFile, list]] = []
    with ctx.task("MTG Wiki pages", len(files)) as advance:
        for f in files:
            try:
                records = list(parse_wiki_page(f.path, f.relative, card_names=index, excerpt=flags.get(f.relative)))
            except SourceError as e:
                ctx.source_failed(e)
                advance(1)
                continue
            records_by_file.append((f, records))
            advance(1)
    pages: list[WikiPage] = []
    for _, records in records_by_file:
        for r in records:
            if isinstance(r, WikiPage):
                pages.append(r)
            elif isinstance(r, IngestProblem):
                ctx.problems.append(r)

    # pages, the preferred one per title first
    def rank(p: WikiPage):
        return (p.partial, FORM_ORDER.get(p.form, 9), p.revision not in (None, "最新版"), p.source, p.revision or "")

    preferred = {}
    for p in sorted(pages, key=rank):
        preferred.setdefault(p.title, (p.source, p.revision))
    page_ids: dict[tuple[str, str | None], int] = {}
    page_by_key: dict[tuple[str, str | None], WikiPage] = {}
    for p in pages:
        key = (p.source, p.revision)
        page_by_key[key] = p
        page_ids[key] = db["wiki_pages"].insert({
            "title": p.title, "name_ja": p.name_ja, "reading": p.reading, "name_en": p.name_en,
            "kind": p.kind, "kind_ja": p.kind_ja, "sets": json.dumps(list(p.sets), ensure_ascii=False),
            "sets_printed": p.sets_printed, "sets_exact": int(p.sets_exact), "definition": p.definition,
            "note": p.note, "redirected_from": p.redirected_from, "quoted_release": p.quoted_release,
            "quoted_version": p.quoted_version, "quoted_keyword_rule": p.quoted_keyword_rule, "form": p.form,
            "revision": p.revision, "partial": int(p.partial), "partial_reason": p.partial_reason,
            "preferred": int(preferred[p.title] == key), "source": p.source, "line": p.line, "lang": p.lang,
        }).last_pk

    # keywords: one per English name, from its own page (title = its Japanese name) where there is one
    keyword_pages: dict[str, WikiPage] = {}
    for p in sorted((p for p in pages if p.kind and p.name_en and p.lang == "ja"),
                    key=lambda p: (p.title != p.name_ja, rank(p))):
        keyword_pages.setdefault(p.name_en, p)
    # the English wiki's page of the same keyword, the preferred one: names compared as the newest
    # CR titles them (Villainous Choice and "Face a villainous choice" are Face a Villainous Choice)
    canonical = _keyword_titles(db)
    english_pages: dict[str, WikiPage] = {}
    for p in sorted((p for p in pages if p.kind and p.name_en and p.lang == "en"), key=rank):
        english_pages.setdefault(canonical(p.name_en), p)
    for name_en, p in keyword_pages.items():
        en = english_pages.pop(canonical(name_en), None)
        db["keywords"].insert({
            "name_en": name_en, "name_ja": p.name_ja, "kind": p.kind, "kind_ja": p.kind_ja,
            "page_id": page_ids[(p.source, p.revision)], "page_title": p.title,
            "cr_release": p.quoted_release if p.quoted_keyword_rule else None, "cr_number": p.quoted_keyword_rule,
            "page_en_id": page_ids[(en.source, en.revision)] if en else None, "page_en_title": en.title if en else None,
        })
    for en in english_pages.values():  # a keyword only the English wiki has a page for
        keyword_pages[en.name_en] = en
        db["keywords"].insert({
            "name_en": en.name_en, "name_ja": None, "kind": en.kind, "kind_ja": None, "page_id": None,
            "page_title": None, "cr_release": en.quoted_release if en.quoted_keyword_rule else None,
            "cr_number": en.quoted_keyword_rule, "page_en_id": page_ids[(en.source, en.revision)],
            "page_en_title": en.title,
        })

    cards = _Cards(ctx, index)
    quoted_by_page: dict[str, list] = defaultdict(list)  # file -> its quoted-CR records
    counts: dict[tuple, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    # whole pages first, so a card's Japanese printed text comes from a whole page where one has it
    ordered = sorted(records_by_file, key=lambda item: min(
        (rank(r) for r in item[1] if isinstance(r, WikiPage)), default=(True,)))
    for f, records in ordered:
        ruling_ids: dict[tuple, int] = {}
        for r in records:
            key = (getattr(r, "source", None), getattr(r, "revision", None))
            if isinstance(r, (Release, Section, Rule, Example, RuleRef, QuotedRule)):
                quoted_by_page[f.relative].append(r)
                if isinstance(r, QuotedRule):
                    counts[key]["quoted_rules"] += 1
                continue
            if key not in page_ids:
                continue
            page = page_by_key[key]
            page_id = page_ids[key]
            if isinstance(r, Ruling):
                parent_id = ruling_ids.get((key, r.parent)) if r.parent else None
                ruling_id = db["rulings"].insert({
                    "page_id": page_id, "page_title": r.title, "revision": r.revision,
                    "keyword": _keyword_of(page, keyword_pages),
                    "quoted_release": page.quoted_release,
                    "position": r.position, "depth": r.depth, "parent_id": parent_id, "section": r.section,
                    "section_path": json.dumps(list(r.section_path), ensure_ascii=False), "text": r.text,
                    "is_example": int(r.is_example), "markup": r.markup, "truncated": int(r.truncated),
                    "preferred": int(preferred[page.title] == key), "source": r.source, "line": r.line,
                    "search_ja": search_form(r.text) if page.lang == "ja" else None, "lang": page.lang,
                }).last_pk
                ruling_ids[(key, r.position)] = ruling_id
                counts[key]["rulings"] += 1
            elif isinstance(r, WikiSection):
                db["wiki_sections"].insert({
                    "page_id": page_id, "position": r.position, "heading": r.heading, "level": r.level,
                    "path": json.dumps(list(r.path), ensure_ascii=False), "text": r.text,
                    "source": r.source, "line": r.line,
                })
            elif isinstance(r, CardBlock):
                name_source = "printed" if r.name_en else None
                card_id = None
                name_en = r.name_en
                if not name_en and r.name_ja:
                    # named only in Japanese (《金脈発見》): the card name list knows its English name
                    english = index.english_names_for(r.name_ja)
                    if len(english) == 1:
                        name_en, name_source = english[0], "card_names (from the Japanese name)"
                    else:
                        ctx.problems.append(IngestProblem(
                            r.source, r.line, "warning", "card-block-japanese-name-unknown",
                            f"a card box names the card only as {r.name_ja!r}, which the card name list "
                            + ("does not have" if not english else f"gives {len(english)} English names") +
                            "; it is kept without a card"))
                if name_en:
                    card_id = cards.find_or_add(name_en, r.source)
                elif not r.name_ja:
                    card_id = cards.identify(r)
                    if card_id is not None:
                        name_source = "inferred from text"
                    elif r.how in {"rendered", "html"}:
                        ctx.problems.append(IngestProblem(
                            r.source, r.line, "warning", "card-block-without-name",
                            f"a card box ({r.type_line}) has no name line and no card's name in its text "
                            "matches its type; it is kept without a card"))
                if card_id is not None:
                    cards.add_source(card_id, r.source)
                    if r.name_ja and r.name_en:
                        cards.set_japanese_name(r.name_en, r.name_ja, f"{r.source}:{r.line}", exact=True)
                    if r.how != "#card" and (r.type_line or r.text):
                        db.execute(
                            "update cards set type_line_ja = ?, text_ja = ?, pt_ja = ?, cost_printed_ja = ?,"
                            " ja_text_source = ? where id = ? and text_ja is null",
                            [r.type_line, r.text, r.pt, r.cost_printed, f"{r.source}:{r.line}", card_id])
                db["wiki_card_blocks"].insert({
                    "page_id": page_id, "card_id": card_id, "position": r.position, "name_en": name_en,
                    "name_ja": r.name_ja, "name_source": name_source, "cost_printed": r.cost_printed,
                    "mana_cost": r.mana_cost, "mana_value": r.mana_value, "type_line": r.type_line,
                    "text": r.text, "pt": r.pt, "how": r.how, "truncated": int(r.truncated),
                    "source": r.source, "line": r.line,
                })
                counts[key]["card_blocks"] += 1
            elif isinstance(r, CardMention):
                card_id = cards.find_or_add(r.name_en, r.source) if r.name_en else None
                if card_id is not None:
                    cards.add_source(card_id, r.source)
                    if r.name_ja:
                        cards.set_japanese_name(r.name_en, r.name_ja, f"{r.source}:{r.line}",
                                                exact=r.how in {"link", "《》"})
                db["card_mentions"].insert({
                    "page_id": page_id, "ruling_id": ruling_ids.get((key, r.ruling)) if r.ruling else None,
                    "card_id": card_id, "name_en": r.name_en, "name_ja": r.name_ja, "printed": r.printed,
                    "how": r.how, "section": r.section, "source": r.source, "line": r.line,
                })
                counts[key]["card_mentions"] += 1
    for key, page_counts in counts.items():
        if key in page_ids:
            db["wiki_pages"].update(page_ids[key], dict(page_counts))

    _insert_quoted_cr(ctx, quoted_by_page, page_ids, search_form)
    # The card step gave each card with a Japanese name its search form; redo only the cards the wiki
    # added or gave a Japanese name or printed text (one statement, not an update per card).
    changed = db.execute(
        "select id, name_ja, text_ja from cards where (name_ja is not null or text_ja is not null)"
        " and (search_ja is null or text_ja is not null or coalesce(name_ja_source, '') != 'jpname')").fetchall()
    with db.conn:
        db.conn.executemany("update cards set search_ja = ? where id = ?", [
            (search_form(" ".join(filter(None, [name_ja, text_ja]))), card_id) for card_id, name_ja, text_ja in changed])
    for table, columns in (("rulings", ["page_id"]), ("rulings", ["page_title"]), ("rulings", ["keyword"]),
                           ("card_mentions", ["card_id"]), ("card_mentions", ["page_id"]),
                           ("wiki_card_blocks", ["card_id"]), ("wiki_pages", ["title"])):
        db[table].create_index(columns, if_not_exists=True)
    for table in ("rulings", "cards"):
        db[table].enable_fts(["search_text"], fts_version="FTS5", tokenize=FTS_TOKENIZE,
                             create_triggers=False, replace=True)
    for name, sql in VIEWS.items():
        db.create_view(name, sql, replace=True)


def _keyword_titles(db):
    """A function giving a keyword name's title in the newest English CR, lower case (else the name's)."""
    titles: list[str] = []
    if "rules" in db.table_names():
        row = db.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()
        if row and row[0]:
            titles = [t for (t,) in db.execute(
                "select title from rules where release = ? and lang = 'en' and kind = 'numbered'"
                " and parent in ('701', '702') and title is not null", [row[0]])]
    lowered = {t.lower(): t for t in titles}

    def canonical(name: str) -> str:
        key = name.strip().lower()
        if key in lowered:
            return key
        return next((t for t in lowered if t.endswith(" " + key)), key)

    return canonical


def _keyword_of(page: WikiPage, keyword_pages: dict) -> str | None:
    """The keyword (its English name as the keywords table has it) a ruling's page is about."""
    names = [page.name_en] if page.kind and page.name_en else []
    if page.lang == "en":
        # an English page cut above its lead (a diff from line 36) is still its title's page
        names += [n for n in (page.name_en, page.title) if n and n not in names]
    for name in names:
        if name in keyword_pages:
            return name
        lowered = name.lower()
        found = next((k for k in keyword_pages if k.lower() == lowered), None)
        # "Face a villainous choice" is the page of the keyword the CR titles "Villainous Choice"
        found = found or next((k for k in keyword_pages if lowered.endswith(" " + k.lower())), None)
        if found:
            return found
    return None



def _cr_name(lang: str) -> str:
    return "総合ルール" if lang == "ja" else "the Comprehensive Rules"


def _same_words(a: str | None, b: str | None) -> bool:
    """An English quote as the wiki renders it (curly quotes, spacing) says the same as the stored text."""
    def words(t):
        return re.findall(r"[a-z0-9]+", unicodedata.normalize("NFKC", t or "").lower())
    return words(a) == words(b)


def _quoted_text(record) -> tuple:
    return (record.title, getattr(record, "text", None))


def _insert_quoted_cr(ctx: BuildContext, quoted_by_page: dict, page_ids: dict, search_form) -> None:
    """Merge the quoted rules of all pages by (release, lang, number) and insert them as excerpt releases.

    A Japanese page quotes the Japanese CR, an English page the English one. A release we
    hold whole (every English one, Japanese 20260116) keeps its own text: the quote is
    only compared with it, and a difference is a problem.
    """
    from .cr import insert_records

    db = ctx.db
    existing_releases = {(r, lang) for r, lang in db.execute("select release, lang from releases")} \
        if "releases" in db.table_names() else set()
    kept: dict[tuple, object] = {}  # (type, release, lang, number[, seq]) -> record
    release_records: dict[tuple[str, str], Release] = {}
    provenance: list[tuple[QuotedRule, bool, bool]] = []
    for page_key, records in quoted_by_page.items():
        stored_here: dict[tuple[str, str, str], bool] = {}
        same: dict[tuple[str, str, str], bool] = {}
        for r in records:
            if isinstance(r, Release):
                release_records.setdefault((r.release, r.lang), r)
            elif isinstance(r, (Section, Rule)):
                key = (type(r).__name__, r.release, r.lang, r.number)
                text = _quoted_text(r)
                where = (r.release, r.lang, r.number)
                if key not in kept:
                    kept[key] = r
                    stored_here[where] = True
                    same[where] = True
                else:
                    first = kept[key]
                    agrees = _quoted_text(first) == text
                    same[where] = agrees
                    stored_here[where] = False
                    if not agrees:
                        ctx.problems.append(IngestProblem(
                            r.source, r.line, "warning", "quoted-rule-differs",
                            f"rule {r.number} of {_cr_name(r.lang)} {r.release} is quoted here with other text than in "
                            f"{first.source}:{first.line}; the first is kept", r.release, r.lang))
            elif isinstance(r, Example):
                kept.setdefault(("Example", r.release, r.lang, r.rule_number, r.seq), r)
            elif isinstance(r, RuleRef):
                kept.setdefault(("RuleRef", r.release, r.lang, r.from_number, r.from_kind, r.to_number, r.cited), r)
        for r in records:
            if isinstance(r, QuotedRule):
                where = (r.release, r.lang, r.number)
                provenance.append((r, stored_here.get(where, False), same.get(where, True)))
    # rules already stored for a release (a whole release loaded by another step) win
    stored_rules: dict[tuple[str, str, str], tuple] = {}
    stored_sections = {(r, lang, n) for r, lang, n in db.execute("select release, lang, number from sections")} \
        if "sections" in db.table_names() else set()
    whole = {(r, lang) for r, lang, c in db.execute("select release, lang, completeness from releases")
             if c == "whole"} if "releases" in db.table_names() else set()
    if "rules" in db.table_names():
        for release, lang in release_records:
            for number, title, text in db.execute(
                    "select number, title, text from rules where lang = ? and release = ?", [lang, release]):
                stored_rules[(release, lang, number)] = (title, text)
    records: list = []
    for key, r in kept.items():
        if isinstance(r, Rule) and (r.release, r.lang, r.number) in stored_rules:
            stored_title, stored_text = stored_rules[(r.release, r.lang, r.number)]
            if (stored_title, stored_text) != (r.title, r.text) and not (
                    r.lang == "en" and _same_words(stored_text or stored_title, r.text or r.title)):
                ctx.problems.append(IngestProblem(
                    r.source, r.line, "warning", "quoted-rule-differs",
                    f"rule {r.number} of {_cr_name(r.lang)} {r.release} as quoted differs from the stored release; "
                    "the stored text is kept", r.release, r.lang))
            continue
        if isinstance(r, Section) and (r.release, r.lang, r.number) in stored_sections:
            continue
        if isinstance(r, (Example, RuleRef)) and (r.release, r.lang) in whole:
            continue
        records.append(r)
    # positions in document order within each release
    by_release: dict[tuple[str, str], list] = defaultdict(list)
    for r in records:
        if isinstance(r, Rule):
            by_release[(r.release, r.lang)].append(r)
    renumbered = []
    for r in records:
        if isinstance(r, Rule):
            order = sorted(by_release[(r.release, r.lang)], key=lambda x: rule_sort_key(x.number))
            r = Rule(r.release, r.lang, r.number, r.kind, r.parent, r.title, r.text, order.index(r) + 1,
                     r.source, r.line, title_en=r.title_en)
        renumbered.append(r)
    insert_records(ctx, renumbered, search_ja=search_form)
    for (release, lang), r in release_records.items():
        if (release, lang) in existing_releases:
            continue
        rules = [x for x in renumbered if isinstance(x, Rule) and x.release == release and x.lang == lang]
        db["releases"].insert({
            "release": release, "lang": lang, "effective_date": r.effective_date, "source": r.source,
            "completeness": r.completeness, "version_label": r.version_label,
            "sections": sum(isinstance(x, Section) and (x.release, x.lang) == (release, lang) for x in renumbered),
            "rules": sum(x.kind == "rule" for x in rules),
            "numbered_rules": sum(x.kind == "numbered" for x in rules),
            "subrules": sum(x.kind == "subrule" for x in rules),
            "examples": sum(isinstance(x, Example) and (x.release, x.lang) == (release, lang) for x in renumbered),
            "glossary_entries": 0, "warnings": 0, "errors": 0,
        })
    db["wiki_quoted_rules"].insert_all(({
        "page_id": page_ids.get((q.source, q.revision)), "release": q.release, "lang": q.lang, "number": q.number,
        "version_label": q.version_label, "stored_from_here": int(stored), "same_as_stored": int(same),
        "source": q.source, "line": q.line,
    } for q, stored, same in provenance), batch_size=500)
    # Their references are resolved with every other CR row's in the "finish CR" step.
