"""Link every ruling to the rules it applies: ``ruling_rules`` (wiki rulings) and ``card_ruling_rules``.

Runs after the rule history (it needs ``rule_lineage``). Each wiki ruling
(``rulings``) and each dated card ruling (``card_rulings``) goes through
:class:`kb.ruling_links.Linker`; a link is stored twice, as a row for the
release the ruling was written for (``role = 'written'``) and one for the
newest English release (``role = 'newest'``), each with its number there:

- a card ruling was written for the English release in force on its date;
- a wiki ruling for the Japanese release its page quotes, when the rule is in
  that quote, else the English release in force on the quoted release's date
  or the page revision's date; a page with neither has only the newest row.

``how`` says on what evidence (``cited``, ``template``, ``keyword+similarity``,
``topic+similarity``, ``similarity``: see :mod:`kb.ruling_links.linker`; ``parent``: a wiki
ruling nested under another, linked to nothing itself, takes its parent's links) and ``score`` how
strongly. A card ruling's candidates come from its card's keywords (``card_keywords``) and the
general topics of its card's text (:func:`kb.ruling_links.topics.card_topics`). A ruling with no link is kept as an
``ingest_problems`` row (``ruling-not-linked``) naming its file and line and the
candidate that came closest. ``rulings.linked_rules`` and
``card_rulings.linked_rules`` list the newest numbers as a JSON array, for
Datasette's facets by rule.

Identical rulings (the same text on many printings or cards with the same
keywords) are decided once: some 49,000 card rulings hold about 24,000 texts.
"""

from __future__ import annotations

import bisect
import json
import re
from collections import defaultdict
from dataclasses import replace

from ingest.records import IngestProblem

from ..build import BuildContext
from ..ruling_links import Linker, RuleIndex, Ruling
from ..ruling_links.functions import TextFunctions
from ..ruling_links.linker import Decision, Link
from ..schema import create_tables

_LINK_COLUMNS = {
    "lineage_id": int, "role": str, "release": str, "lang": str, "number": str, "how": str,
    "score": float, "similarity": float, "cited": str,
}
LINK_TABLES: dict[str, dict] = {
    "ruling_rules": dict(
        columns={"id": int, "ruling_id": int, **_LINK_COLUMNS},
        pk="id", foreign_keys=[("ruling_id", "rulings", "id")],
    ),
    "card_ruling_rules": dict(
        columns={"id": int, "card_ruling_id": int, **_LINK_COLUMNS},
        pk="id", foreign_keys=[("card_ruling_id", "card_rulings", "id")],
    ),
}
# Whether a card's keywords narrow only its rulings that name the keyword.
KEYWORDS_IF_NAMED = False  # narrowing only named ones lost coverage for no precision (tune half)
# Whether a card ruling no subrule of the card's keyword stands out for is linked to the keyword's
# definition: most such rulings were about the card's other text (608.2b, 603.3), wrong links.
CARD_DEFINITION_FALLBACK = False
# Whether a card ruling that names a general rule's topic (a target, a token, a trigger …: see
# kb.ruling_links.topics) has that topic's rules as candidates, surer when the card's text has it.
CARD_TOPICS = True
# Whether a card ruling that names its card's keyword (and no general topic) applies the keyword's
# definition when no subrule of it stands out.
CARD_DEFINITION_IF_NAMED = True
# Whether a wiki ruling linked to nothing that is nested under another ruling takes its parent's links.
INHERIT_PARENT_LINKS = True
PARENT_SHARE = 0.9  # ... at this share of the parent's score
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_JA_DATE = re.compile(r"(?P<y>\d{4})年(?P<m>\d{1,2})月(?P<d>\d{1,2})日")
_EN_DATE = re.compile(r"(?P<d>\d{1,2}) (?P<month>January|February|March|April|May|June|July|August|September"
                      r"|October|November|December) (?P<y>\d{4})")
_MONTHS = {m: i for i, m in enumerate(("January", "February", "March", "April", "May", "June", "July", "August",
                                       "September", "October", "November", "December"), 1)}


def revision_date(revision: str | None) -> str | None:
    """The date of a page revision line, ISO: ``2021年4月21日 (水) 07:03時点における版`` → ``2021-04-21``.

    >>> revision_date("2021年4月21日 (水) 07:03時点における版"), revision_date("Revision as of 10:07, 30 December 2014")
    ('2021-04-21', '2014-12-30')
    """
    if not revision:
        return None
    m = _JA_DATE.search(revision)
    if m:
        return f"{int(m['y']):04d}-{int(m['m']):02d}-{int(m['d']):02d}"
    m = _EN_DATE.search(revision)
    if m:
        return f"{int(m['y']):04d}-{_MONTHS[m['month']]:02d}-{int(m['d']):02d}"
    return None


class _Releases:
    """The English releases by effective date, to find the one in force on a day."""

    def __init__(self, conn):
        rows = conn.execute("select effective_date, release from releases where lang = 'en'"
                            " and completeness = 'whole' and effective_date is not null"
                            " order by effective_date").fetchall()
        self.dates = [d for d, _ in rows]
        self.releases = [r for _, r in rows]
        whole_ja = conn.execute("select max(release) from releases where lang = 'ja' and completeness = 'whole'").fetchone()
        self.newest_en = self.releases[-1] if self.releases else None
        self.newest_ja = whole_ja[0] if whole_ja else None

    def in_force(self, day: str | None) -> str | None:
        if not day or not self.dates:
            return None
        k = bisect.bisect_right(self.dates, day[:10])
        return self.releases[max(k - 1, 0)]


def _create(db) -> None:
    for name in LINK_TABLES:
        if name in db.table_names():
            db[name].drop()
    create_tables(db, LINK_TABLES)
    for table in ("rulings", "card_rulings"):
        if table in db.table_names() and "linked_rules" not in db[table].columns_dict:
            db[table].add_column("linked_rules", str)
            db[table].add_column("link_how", str)


def _remembering_functions(memo) -> TextFunctions:
    """The functions of a text the linker calls (:class:`~kb.ruling_links.functions.TextFunctions`), each
    remembering its answers in ``memo`` (:mod:`kb.load.text_memo`): the rulings' regular expressions are
    most of the step, and a new release leaves every ruling's answer as it was."""
    from ..ruling_links import topics

    plain = TextFunctions()
    same = (lambda v: v, lambda v: v)
    ruling_topics = plain.ruling_topics
    if len(topics.BY_NAME) == len(topics.TOPICS):   # a topic is stored by its name
        ruling_topics = memo.wrap("kb.ruling_links.topics.ruling_topics", plain.ruling_topics,
                                  lambda v: tuple(t.name for t in v), lambda names: tuple(topics.BY_NAME[n] for n in names))
    return TextFunctions(
        # english_terms gives a new list each call
        english_terms=memo.wrap("kb.ruling_links.text.english_terms", plain.english_terms, tuple, list),
        template_rule=memo.wrap("kb.ruling_links.topics.template_rule", plain.template_rule, *same),
        template_rule_ja=memo.wrap("kb.ruling_links.topics.template_rule_ja", plain.template_rule_ja, *same),
        ruling_topics=ruling_topics,
        card_topics=memo.wrap("kb.ruling_links.topics.card_topics", plain.card_topics,
                              lambda v: tuple(sorted(v)), frozenset))


def load_ruling_links(ctx: BuildContext) -> None:
    """The build step (see the module docstring)."""
    from .text_memo import TextMemo

    memo = TextMemo(ctx.cache, "ruling links", ("kb.ruling_links.topics", "kb.ruling_links.text"))
    _load_ruling_links(ctx, _remembering_functions(memo) if memo.enabled else TextFunctions())
    memo.store()


def _load_ruling_links(ctx: BuildContext, functions: TextFunctions) -> None:
    db = ctx.db
    tables = set(db.table_names())
    if not {"rule_lineage", "rules"} <= tables or not ({"rulings", "card_rulings"} & tables):
        return
    _create(db)
    releases = _Releases(db.conn)
    if releases.newest_en is None:
        return
    index = RuleIndex(db.conn, releases.newest_en, releases.newest_ja, functions=functions)
    linker = Linker(index)
    wiki = wiki_rulings(db) if "rulings" in tables else []
    cards = card_rulings(db, index) if "card_rulings" in tables else []
    with ctx.task("Linking rulings to rules", len(wiki) + len(cards)) as advance:
        for table, link_table, key_column, items in (
                ("rulings", "ruling_rules", "ruling_id", wiki),
                ("card_rulings", "card_ruling_rules", "card_ruling_id", cards)):
            # identical rulings (one text on many cards with the same keywords) are decided once
            distinct = list(dict.fromkeys(item["ruling"] for item in items))
            decided = dict(zip(distinct, linker.link_many(distinct)))
            decisions = inherit_parent_links(items, [decided[item["ruling"]] for item in items])
            rows, updates = [], []
            for item, decision in zip(items, decisions):
                written = item["written"]
                for link in decision.links:
                    base = {key_column: item["id"], "lineage_id": link.lineage_id, "how": link.how,
                            "score": link.score, "similarity": link.similarity, "cited": link.cited}
                    rows.append({**base, "role": "newest", "release": releases.newest_en, "lang": "en",
                                 "number": link.number})
                    place = _written_place(index, written, link.lineage_id, releases)
                    if place and place[:2] != (releases.newest_en, "en"):
                        rows.append({**base, "role": "written", "release": place[0], "lang": place[1],
                                     "number": place[2]})
                numbers = list(dict.fromkeys(link.number for link in decision.links))
                hows = sorted({link.how for link in decision.links})
                updates.append((json.dumps(numbers) if numbers else None, ",".join(hows) or None, item["id"]))
                if not decision.links:
                    ctx.problems.append(_not_linked(item, decision, linker.threshold))
                for number in decision.unresolved:
                    ctx.problems.append(IngestProblem(
                        item["source"], item["line"], "warning", "ruling-cites-unknown-rule",
                        f"{item['what']} cites rule {number}, which no release we hold has"))
            db[link_table].insert_all(rows, batch_size=2000)
            with db.conn:
                db.conn.executemany(f"update [{table}] set linked_rules = ?, link_how = ? where id = ?", updates)
            advance(len(items))
    for name, column in (("ruling_rules", "ruling_id"), ("card_ruling_rules", "card_ruling_id")):
        db[name].create_index([column], if_not_exists=True)
        db[name].create_index(["release", "lang", "number"], if_not_exists=True)
        db[name].create_index(["lineage_id"], if_not_exists=True)


def inherit_parent_links(items: list[dict], decisions: list) -> list:
    """Each decision, or, for a wiki ruling linked to nothing that is nested under another (a sub-bullet or
    an example: ``parent`` is that ruling's id), its parent's links, ``how`` "parent": a nested bullet
    elaborates the ruling above it (探す: 「例：…ショックが公開されている…」 under the 701.23b ruling).

    Items come parents first (by id), so a chain of nested rulings inherits down from its top."""
    out: list = []
    by_id: dict[int, list[Link]] = {}
    for item, decision in zip(items, decisions):
        parent = item.get("parent")
        if INHERIT_PARENT_LINKS and not decision.links and parent in by_id and by_id[parent]:
            decision = Decision(links=[replace(link, how="parent", score=round(link.score * PARENT_SHARE, 3),
                                               similarity=None, cited=None) for link in by_id[parent]],
                                best=decision.best, unresolved=decision.unresolved)
        by_id[item["id"]] = decision.links
        out.append(decision)
    return out


def _written_place(index: RuleIndex, written: list[tuple[str, str]], lineage_id: int, releases: _Releases):
    """(release, lang, number) of the lineage in the first of the ruling's releases that has it."""
    for lang, release in written:
        number = index.numbers_in(lang, release).get(lineage_id)
        if number:
            return release, lang, number
    return None


def _not_linked(item: dict, decision, threshold: float) -> IngestProblem:
    if decision.best:
        closest = f"the closest rule, {decision.best[0]}, scored {decision.best[1]:.2f} (links need {threshold:.2f})"
    else:
        closest = "no rule shares a word with it"
    return IngestProblem(item["source"], item["line"], "warning", "ruling-not-linked",
                         f"{item['what']} is linked to no rule: {closest}")


def wiki_rulings(db) -> list[dict]:
    pages = {r[0]: r[1:] for r in db.execute(
        "select id, name_en, kind, quoted_release, revision from wiki_pages")} if "wiki_pages" in db.table_names() else {}
    releases = _Releases(db.conn)
    out = []
    for rid, page_id, title, text, search_ja, keyword, source, line, parent in db.execute(
            "select id, page_id, page_title, text, search_ja, keyword, source, line, parent_id from rulings order by id"):
        if not text:
            continue
        name_en, kind, quoted, revision = pages.get(page_id, (None, None, None, None))
        lang = "ja" if _JAPANESE.search(text) else "en"
        written: list[tuple[str, str]] = []
        if quoted:
            written.append(("ja", quoted))
        day = (f"{quoted[:4]}-{quoted[4:6]}-{quoted[6:]}" if quoted else None) or revision_date(revision)
        in_force = releases.in_force(day)
        if in_force:
            written.append(("en", in_force))
        keywords = tuple(k for k in dict.fromkeys([keyword, name_en]) if k)
        out.append({
            "id": rid, "source": source, "line": line, "written": written, "parent": parent,
            "what": f"the ruling on the {title} page",
            "ruling": Ruling(text, lang, search_ja if lang == "ja" else None, keywords, tuple(written),
                             subjects=keywords),
        })
    return out


def card_rulings(db, index: RuleIndex) -> list[dict]:
    releases = _Releases(db.conn)
    card_keywords: dict[int, tuple[str, ...]] = {}
    tables = set(db.table_names())
    if "card_keywords" in tables:
        # the keywords a card has, as the card step read them from its abilities (Aim High *has*
        # reach and only names flying; Absorb Vis has cycling, whose reminder says "search")
        found: dict[int, set[str]] = defaultdict(set)
        for card_id, name in db.execute("select card_id, keyword from card_keywords where card_id is not null"):
            keyword = index.keyword(name)
            if keyword is not None and not keyword.generic:
                found[card_id].add(keyword.title)
        card_keywords = {card_id: tuple(sorted(names)) for card_id, names in found.items()}
    elif "cards" in tables:  # without the card step's table, the keywords the text names
        for card_id, text in db.execute("select id, text from cards where text is not null"):
            card_keywords[card_id] = tuple(sorted(k.title for k in index.keywords_in_english(text) if not k.generic))
    topics: dict[int, frozenset[str]] = {}
    if CARD_TOPICS and "cards" in tables:
        for card_id, text, faces in db.execute("select id, text, faces_text from cards"):
            topics[card_id] = index.functions.card_topics("\n".join(t for t in (text, faces) if t))
    out = []
    for rid, card_id, card, day, text, sources, line in db.execute(
            "select id, card_id, card, date, text, sources, line from card_rulings order by id"):
        if not text:
            continue
        in_force = releases.in_force(day)
        written = (("en", in_force),) if in_force else ()
        try:
            source = (json.loads(sources or "[]") or ["cards"])[0]
        except ValueError:
            source = "cards"
        out.append({
            "id": rid, "source": source, "line": line, "written": list(written),
            "what": f"the {day} ruling of {card}",
            "ruling": Ruling(text, "en", None, card_keywords.get(card_id, ()), written,
                             keywords_if_named=KEYWORDS_IF_NAMED, definition_fallback=CARD_DEFINITION_FALLBACK,
                             card_topics=topics.get(card_id, frozenset()), use_topics=CARD_TOPICS,
                             definition_if_named=CARD_DEFINITION_IF_NAMED),
        })
    return out


def links_by_ruling(conn, table: str, key_column: str) -> dict[int, list[dict]]:
    """``{ruling id: [link rows]}`` of one of the link tables (for tools and tests)."""
    out: dict[int, list[dict]] = defaultdict(list)
    cursor = conn.execute(f"select * from [{table}] order by id")
    names = [d[0] for d in cursor.description]
    for row in cursor:
        item = dict(zip(names, row))
        out[item[key_column]].append(item)
    return out
