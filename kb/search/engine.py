"""Search that answers questions: a rule number, lexical and dense retrieval fused, grouped by rule.

:func:`answer` reads the query (:func:`.query.read_query`), then:

1. a rule number ("rule 704.5a", ルール510.1c) goes straight to that rule, first;
2. lexical retrieval (:mod:`.lexical`) ranks rows by bm25 over the OR of the words;
3. for a question (several content words, or words dropped as question forms),
   dense retrieval (:mod:`.dense`) ranks rows by the meaning of the sentence,
   in both languages; the two rankings are fused by reciprocal rank fusion;
4. the cards the query names (:mod:`.cards`) come first in :attr:`Answer.cards`; their names are
   not searched for as words, the rules their text points to (:mod:`.card_rules`) are one more
   ranking, and dense retrieval reads each name followed by the card's Oracle text;
5. rows are grouped by numbered rule (702.11 for 702.11b, its examples and the
   glossary entries that cite it), one group for a rule in both languages
   (matched through the rule lineage, so a rule renumbered between the
   English and the Japanese release is still one group), with the subrule
   that defines the thing first.

Work is bounded: the query is at most :data:`MAX_QUERY` characters and
:data:`~.query.MAX_TERMS` words, SQLite is interrupted past ``time_limit``
(:class:`SearchTimeout`), and a query with a content word never ends in a bare
"no hits": :attr:`Answer.notes` says which words were dropped, not found or
corrected.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import time
from dataclasses import asdict, dataclass, field, replace

from . import answer_cache, warm
from . import dense as dense_module
from .card_rules import card_ranking
from .cards import CardMention
from .fts import MARK_END, MARK_START, KeywordNames, english_key, english_stems
from .fusion import rrf_scores
from .lexical import LexicalHit, lexical_hits
from .query import Alias, AliasTable, QueryPlan, read_query
from .translated import Reading
from .translated import readings as translated_readings
from .typos import Vocabulary

MAX_QUERY = 500  # players write long questions (the 84 of tests/data/search_eval_players.toml reach 209)
TIME_LIMIT = 2.0  # seconds of CPU time a search may take once the database's word lists are loaded
OTHER_KINDS = ("ruling", "card", "card ruling")
DENSE_DEPTH = 40
LEXICAL_DEPTH = 50
DENSE_WEIGHT = 4.0  # e5 alone answers more questions than lexical alone: its ranking counts four times
LEXICAL_WEIGHT = 1.0
LONG_QUESTION = 8  # typed content words past which a question is long (players write 8–14; our first set, 2–5)
LONG_DENSE_WEIGHT = 2.0  # dense weighs half as much in a long question (measured on the tuning halves)
OTHER_LANGUAGE_WEIGHT = 0.5  # the ranking of the other language's text (matched through names)
ALIAS_WEIGHT = 1.0  # the ranking of a paired alias's words alone (1 beat 0 and 2 on the tuning halves)
TITLE_WEIGHT = 1.0  # rules whose title is a phrase of the query (Hexproof for "what does hexproof stop")
# The rules the text of a card the query names points to (:mod:`.card_rules`): one and a half times dense retrieval's
# weight, so that they come before what the words alone find, in the order the words find them.
CARD_WEIGHT = 6.0
TRANSLATED_WEIGHT = 1.0  # the ranking of a Chinese or Korean question's words in its own CR
# Dense retrieval of a Chinese or Korean question: the rules are embedded in English and Japanese, and at
# DENSE_WEIGHT it took the Chinese tuning half from 33 % (lexical) to 11 %; as one ranking among equals, 33 %.
TRANSLATED_DENSE_WEIGHT = 1.0


class SearchError(ValueError):
    """A query that can't be searched; the message says why (a 400, never a 500)."""


class SearchTimeout(SearchError):
    """The search ran past its time limit and was stopped."""


@dataclass
class RuleText:
    """A numbered rule in one language and release: its text and the subrules shown."""

    release: str
    lang: str
    number: str
    title: str | None
    text: str
    subrules: list[dict] = field(default_factory=list)  # {"number", "text"}, the defining one first


@dataclass
class RuleGroup:
    """One answer: a numbered rule (or a rule, or a glossary term), in both languages."""

    number: str | None
    title: str | None
    score: float
    via: list[str]  # "number", "lexical", "dense"
    matched: list[str]  # rule numbers (subrules, examples) that matched
    snippet: str
    en: RuleText | None = None
    ja: RuleText | None = None
    glossary: list[dict] = field(default_factory=list)  # {"lang", "term", "definition"}
    # The rule in the language of a Chinese or Korean question (its newest release there), beside both.
    translation: RuleText | None = None

    def as_dict(self) -> dict:
        data = asdict(self)
        data["snippet"] = self.snippet.replace(MARK_START, "[").replace(MARK_END, "]")
        return data


@dataclass
class Answer:
    query: str
    groups: list[RuleGroup]
    others: list[dict]  # rulings, cards, card rulings: kind, lang, title, text, number, link
    notes: list[str]  # what a user should know: corrections, dropped words, no dense search, …
    mode: str  # "number", "lexical", "hybrid"
    plan: QueryPlan
    seconds: float = 0.0
    cards: list[dict] = field(default_factory=list)  # the cards the query names, first (:mod:`.cards`)

    @property
    def shown_as(self) -> str | None:
        """The query as searched when a word was corrected ("showing results for …")."""
        return self.plan.shown_as() if self.plan.corrections else None

    def as_dict(self) -> dict:
        return {
            "query": self.query, "mode": self.mode, "shown_as": self.shown_as,
            "number": self.plan.number, "dropped": self.plan.dropped, "corrections": self.plan.corrections,
            "unknown": self.plan.unknown, "terms": [t.phrase for t in self.plan.terms], "notes": self.notes,
            "cards": self.cards, "groups": [g.as_dict() for g in self.groups], "others": self.others,
            "ms": round(self.seconds * 1000, 1),
        }


_ALIASES: dict[str, tuple[int | None, AliasTable]] = {}


def aliases_from_db(conn) -> AliasTable:
    """The ``search_aliases`` table of the database (none without one), cached per file."""
    import os

    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    path = row[2] if row else ""
    stamp = os.stat(path).st_mtime_ns if path and os.path.exists(path) else None
    cached = _ALIASES.get(path)
    if cached and cached[0] == stamp:
        return cached[1]
    table = AliasTable([])
    if conn.execute("select 1 from sqlite_master where name = 'search_aliases'").fetchone():
        columns = {r[1] for r in conn.execute("pragma table_info(search_aliases)")}
        paired = "with_words" if "with_words" in columns else "'[]'"  # a database built before round 6
        table = AliasTable([Alias(tuple(json.loads(w)), tuple(json.loads(en)), tuple(json.loads(ja)),
                                  tuple(json.loads(no)), tuple(json.loads(wi or "[]")))
                            for w, en, ja, no, wi in conn.execute(
                                f"select words, en, ja, not_senses, {paired} from search_aliases")])
    if path:
        _ALIASES[path] = (stamp, table)
    return table


_SUBRULE = re.compile(r"\d{3}\.\d+[a-z]")


def _numbered(number: str | None) -> str | None:
    """The numbered rule a number belongs to: 702.11 for 702.11b; 702 stays 702."""
    if not number:
        return None
    return number[:-1] if _SUBRULE.fullmatch(number) else number


class _TimeLimit:
    """SQLite's progress handler, interrupting work past a deadline.

    The clock is the CPU time of the thread running the search (SQLite calls the handler in that
    thread): what bounds is the work a query does, so a query is not stopped because other
    clients, or other programs, had the cores meanwhile.
    """

    clock = staticmethod(time.thread_time)

    def __init__(self, conn, seconds: float):
        self.conn = conn
        self.deadline = self.clock() + seconds
        self.seconds = seconds

    def _handler(self):
        return 1 if self.clock() > self.deadline else 0

    def __enter__(self):
        self.conn.set_progress_handler(self._handler, 2000)
        return self

    @contextlib.contextmanager
    def suspended(self):
        """Loading a model or an index once per process is not this query's work: the clock stops."""
        self.conn.set_progress_handler(None, 2000)
        paused = self.clock()
        try:
            yield
        finally:
            self.deadline += self.clock() - paused
            self.conn.set_progress_handler(self._handler, 2000)

    def __exit__(self, exc_type, exc, tb):
        self.conn.set_progress_handler(None, 2000)
        if exc_type is not None and "interrupted" in str(exc):
            raise SearchTimeout(f"the search took longer than {self.seconds * 1000:.0f} ms and was stopped;"
                                " try fewer or more specific words") from exc
        return False


def prepare(conn) -> None:
    """Read what every search of this database needs once per process — keyword names, slang,
    the vocabulary, titles, the card name index — so that a caller can do it outside a time limit
    (the search page does, before the first question's limit starts)."""
    from .fts import KeywordNames as _Names

    _Names.from_db(conn)
    aliases_from_db(conn)
    warm.vocabulary(conn)
    _titles(conn)
    _newest_lineages(conn)
    warm.card_names(conn)
    from ..japanese import tokens

    tokens("墓地")  # Sudachi's dictionary, loaded on first use


# Dropped words that make no question of a name: "toughness 0 or less", "the legend rule".
CONNECTIVES = frozenset("a an the and or of to in on at by for from with into onto".split())


def _verbatim(conn, plan: QueryPlan) -> bool:
    """The query's words, typed whole, are a phrase of the rules ("toughness 0 or less"): a
    keyword-shaped query, for the lexical path, however many words it has."""
    from .lexical import CR_KINDS, has_rules_index, row_ranges

    spans = [t.phrase for t in plan.terms if t.origin == "phrase" and t.lang == "en" and len(t.phrase.split()) >= 3]
    if not spans or plan.languages != {"en"} or spans[-1] != english_key(plan.text):
        return False  # a question's words around it ("what are the characteristics of copies")
    expression = '"' + spans[-1].replace('"', " ") + '"'
    if has_rules_index(conn):
        return conn.execute("select 1 from search_rules_fts join search_current s on s.id = search_rules_fts.rowid"
                            " where search_rules_fts match ? and s.lang = 'en' limit 1", [expression]).fetchone() \
            is not None
    for low, high in row_ranges(conn, CR_KINDS, "en"):
        if conn.execute("select 1 from search_current_fts where search_current_fts match ? and rowid between ? and ?"
                        " limit 1", [expression, low, high]).fetchone():
            return True
    return False


def needs_dense(plan: QueryPlan) -> bool:
    """A question rather than a keyword: words dropped as question forms, or three things to look
    for or more (content words, or keyword names as typed).

    Keyword-shaped queries (発見, "villainous choice", "lore counter") and numbers stay on the
    fast lexical path.
    """
    if plan.only_number:
        return False
    if any(w not in CONNECTIVES for w in plan.dropped):
        return True
    things = {t.phrase for t in plan.terms
              if t.origin in ("word", "correction") or (t.origin == "name" and t.lang in plan.languages)}
    return len(things) >= 3


def _dense_weight(plan: QueryPlan) -> float:
    """:data:`DENSE_WEIGHT`, or :data:`LONG_DENSE_WEIGHT` for a question of more than
    :data:`LONG_QUESTION` content words (one sentence vector spread over a long question says less
    than the words it holds)."""
    typed = {t.typed or t.phrase for t in plan.terms
             if t.origin in ("word", "correction", "alias") or (t.origin == "name" and t.lang in plan.languages)}
    return LONG_DENSE_WEIGHT if len(typed) > LONG_QUESTION else DENSE_WEIGHT


def answer(conn, query: str, *, lang: str | None = None, release: str | None = None, section: str | None = None,
           limit: int = 10, dense: bool | None = None, others: bool = True,
           time_limit: float = TIME_LIMIT, embedder_name: str | None = None, cards: bool = True) -> Answer:
    """Answer ``query`` over the database ``conn`` (a sqlite3 connection), best group first.

    ``lang`` restricts the language of the rules searched (``None``: both); ``release`` searches
    one release (lexically; default: the newest of each language); ``dense`` forces dense
    retrieval on or off (default: on for questions, when an embedder is available); ``cards``
    recognises the cards the query names (:mod:`.cards`): they come first in :attr:`Answer.cards`,
    their names are not searched for as words, and the rules their text points to are one more
    ranking of the fusion.
    """
    started = time.monotonic()
    query = (query or "").strip()
    if len(query) > MAX_QUERY:
        raise SearchError(f"the query is {len(query)} characters long; at most {MAX_QUERY} are accepted")
    if release is not None:
        _check_release(conn, release, lang)
    if release is None and not _has(conn, "search_current"):
        raise SearchError("this database has no search index (search_current); rebuild it with `kb build`")
    # What every search reads once per database (names, slang, vocabulary, titles), outside the
    # time limit, which bounds the work of this query.
    names = KeywordNames.from_db(conn)
    aliases = aliases_from_db(conn)
    vocabulary = warm.vocabulary(conn)
    _titles(conn)
    card_index = warm.card_names(conn) if cards and query else None
    with _TimeLimit(conn, time_limit) as clock:
        plan = read_query(query, names=names, aliases=aliases, vocabulary=None)
        mentions = []
        if card_index is not None and not plan.only_number:
            def misspells_a_rule_word(word: str) -> bool:
                return vocabulary is not None and vocabulary.correct(word, "en") is not None

            mentions = card_index.find(plan.text, known=misspells_a_rule_word)
        typed_terms = list(plan.terms)
        if mentions:
            _drop_card_words(plan, mentions, names)
        if vocabulary is not None:
            _correct_plan(plan, vocabulary, conn)
        # A question in Chinese or Korean (:mod:`.translated`): its words are searched in its own CR,
        # the keyword names it holds in English and Japanese.
        translated: list[Reading] = []
        if not plan.only_number:
            # Kiwi's model loads on the first Korean question (3-4 s): not this query's work. Reading
            # is bounded by MAX_QUERY characters.
            with clock.suspended():
                translated = translated_readings(conn, plan.text)
        if translated:
            _read_translated(plan, translated, names, aliases)
        notes: list[str] = []
        result = Answer(query, [], [], notes, "lexical", plan)
        if not query:
            return result
        by_key: dict = {}
        rankings: list[list] = []
        weights: list[float] = []
        number_key = None
        if plan.number:
            number_key = _number_group(conn, plan.number, lang, release, by_key)
            if number_key is None:
                notes.append(f"rule {plan.number} is not in the {'release ' + release if release else 'newest release'}")
            result.mode = "number"
            if plan.only_number:
                result.groups = _finish(conn, by_key, [number_key] if number_key else [], {}, release, lang, limit,
                                        plan)
                result.seconds = time.monotonic() - started
                return result
        # One ranking per language of text, each with the words of that language only, so that
        # a word's translation never outweighs the words typed; the query's own language counts most.
        lexical_order: list = []
        for text_lang in ([lang] if lang else ["en", "ja"]):
            hits = lexical_hits(conn, plan, lang=text_lang, section=section, release=release,
                                limit=LEXICAL_DEPTH, terms_lang=text_lang)
            order = _group_order(conn, hits, by_key, "lexical")
            rankings.append(order)
            weights.append(LEXICAL_WEIGHT if text_lang in plan.languages or not plan.languages
                           or any(r.only for r in translated)
                           # beside the ranking of the words typed, by the share of them it has
                           else OTHER_LANGUAGE_WEIGHT * (_translated_share(plan) if lang is None else 1.0))
            lexical_order += [k for k in order if k not in lexical_order]
        for reading in (translated if lang is None else []):  # its own CR's ranking beside both languages'
            hits = lexical_hits(conn, QueryPlan(plan.text, terms=reading.terms()), lang=reading.lang,
                                section=section, release=release, limit=LEXICAL_DEPTH, terms_lang=reading.lang)
            order = _group_order(conn, hits, by_key, "lexical")
            if order:
                rankings.append(order)
                weights.append(TRANSLATED_WEIGHT if reading.only else OTHER_LANGUAGE_WEIGHT)
                lexical_order += [k for k in order if k not in lexical_order]
        # The rules' words for the ideas the player's words name (paired aliases), ranked on their
        # own: a question that says "my aura" and "dies" is about what 704.5m says, whatever else.
        ideas = [t for t in plan.terms if t.origin == "alias" and t.phrase in plan.ideas]
        if ideas and ALIAS_WEIGHT:
            for text_lang in ([lang] if lang else ["en", "ja"]):
                if text_lang not in plan.languages and plan.languages:
                    continue
                hits = lexical_hits(conn, replace(plan, terms=ideas), lang=text_lang, section=section,
                                    release=release, limit=LEXICAL_DEPTH, terms_lang=text_lang)
                idea_order = _group_order(conn, hits, by_key, "lexical")
                if idea_order:
                    rankings.append(idea_order)
                    weights.append(ALIAS_WEIGHT)
        definitions = _definition_order(conn, plan, lang, release, by_key)
        titles = _title_order(conn, plan, lang, release, by_key, vocabulary)
        if titles:
            rankings.append(titles)
            weights.append(TITLE_WEIGHT)
        if mentions:
            result.cards = _cards_shown(conn, mentions)
        wants_dense = ((needs_dense(plan) and not _verbatim(conn, plan)) or not lexical_order
                       or any(r.only and (len(r.words) >= 2 or r.dropped) for r in translated))
        use_dense = (bool(plan.terms) or bool(mentions) or bool(translated)) and (
            wants_dense if dense is None else dense)
        if use_dense and release is None and section is None:
            dense_order, note = _dense_order(conn, _dense_text(plan, query, result.cards, mentions),
                                             _dense_language(plan, lang), by_key, embedder_name, clock)
            if note:
                notes.append(note)
            if dense_order:
                rankings.append(dense_order)
                weights.append(TRANSLATED_DENSE_WEIGHT if any(r.only for r in translated) else _dense_weight(plan))
                result.mode = "hybrid" if result.mode != "number" else "number"
        if mentions and release is None:  # the card's rules are numbers of the newest release
            pointed, focus = _card_order(conn, mentions, plan, by_key, section)
            if pointed:
                rankings.append(pointed)
                weights.append(CARD_WEIGHT * focus)  # less when the question's words ask about other rules
        scores = rrf_scores(rankings, weights=weights)
        order = _specific_first(sorted(scores, key=lambda key: -scores[key]), by_key)
        if definitions:
            order = definitions + [k for k in order if k not in definitions]
            top = max(scores.values(), default=0)
            for i, key in enumerate(reversed(definitions), 1):
                scores[key] = top + i / 1000
        if number_key is not None:
            order = [number_key] + [k for k in order if k != number_key]
            scores[number_key] = max(scores.values(), default=0) + 1
        result.groups = _finish(conn, by_key, order[:limit], scores, release, lang, limit, plan)
        if release is None and lang is None and any(r.only for r in translated):
            _translations(conn, result.groups, translated[0].lang)
        if others and release is None:
            # Rulings and cards are found by every word typed, the names of cards too.
            result.others = _others(conn, replace(plan, terms=typed_terms) if mentions else plan, lang)
    _explain(result)
    result.seconds = time.monotonic() - started
    return result


_HANGUL = re.compile("[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]")


def _read_translated(plan: QueryPlan, translated: list[Reading], names: KeywordNames, aliases: AliasTable) -> None:
    """Fold the Chinese and Korean readings into ``plan``: the names they hold become English and
    Japanese terms (践踏 searches trample and トランプル), and Hangul the English reader took for
    words it could not find is no longer searched or listed as dropped."""
    plan.terms = [t for t in plan.terms if not _HANGUL.search(t.phrase)]
    if any(r.lang == "zh" and r.only for r in translated):
        # Sudachi's reading of Chinese as Japanese (狮的, 是法): not words of either language.
        plan.terms = [t for t in plan.terms if not (t.lang == "ja" and t.origin in ("word", "phrase", "correction"))]
    plan.dropped = [w for w in plan.dropped if not _HANGUL.search(w)]
    plan.unknown = [w for w in plan.unknown if not _HANGUL.search(w)]
    english = [n for r in translated for n in r.names]
    if english:
        extra = read_query(" ".join(dict.fromkeys(english)), names=names, aliases=aliases)
        plan.terms += [t for t in extra.terms if t not in plan.terms]
    for r in translated:
        plan.dropped += [w for w in r.dropped if w not in plan.dropped]


def _translations(conn, groups: list[RuleGroup], lang: str) -> None:
    """Each group's rule in ``lang`` (Chinese or Korean), its newest release there, through the lineage."""
    newest = conn.execute("select max(release) from releases where lang = ? and completeness = 'whole'",
                          [lang]).fetchone()
    if not newest or not newest[0] or not _has(conn, "rule_lineage"):
        return
    for group in groups:
        shown = group.en or group.ja
        if shown is None:
            continue
        row = conn.execute(
            "select r.number, r.title, r.text from rule_lineage a join rule_lineage b on b.lineage_id = a.lineage_id"
            " join rules r on r.release = b.release and r.lang = b.lang and r.number = b.number"
            " where a.release = ? and a.lang = ? and a.number = ? and b.lang = ? and b.release = ? limit 1",
            [shown.release, shown.lang, shown.number, lang, newest[0]]).fetchone()
        if row:
            group.translation = RuleText(newest[0], lang, row[0], row[1], row[2] or "")


def _drop_card_words(plan: QueryPlan, mentions: list[CardMention], names: KeywordNames | None = None) -> None:
    """The words of a card's name are not searched for in the rules (Blood Moon is no question about
    blood): the card's own rules stand for them (:func:`_card_order`)."""
    from .cards import fold_cjk, fold_word, name_words

    latin = {w for m in mentions for w in name_words(m.typed)}
    cjk = "".join(fold_cjk(m.typed) for m in mentions)

    def of_a_name(term) -> bool:
        if term.origin not in ("word", "phrase", "correction"):
            return False
        words = term.phrase.split()
        within = [fold_word(w) in latin for w in words] if term.lang == "en" else \
            [bool(cjk) and fold_cjk(w) in cjk for w in words]
        # A word of a name, or a phrase running into one ("moon turn").
        return all(within) if term.origin != "phrase" else any(within)

    # A keyword in a card's name is no keyword asked about ("Elspeth, Sun's Champion" is no question about
    # champion, Death's Shadow none about shadow): its name term, and the other language's that follows
    # it, are dropped when every time the question has the keyword's words is inside a name.
    typed_words = [w for m in mentions for w in name_words(m.typed)]
    query_words = [fold_word(w) for w in re.findall(r"[^\W_]+(?:['’][^\W_]+)*", plan.text.replace("-", " "))]

    def times(words: list[str], phrase: tuple[str, ...]) -> int:
        n = len(phrase)
        return sum(tuple(words[i:i + n]) == phrase for i in range(len(words) - n + 1)) if n else 0

    kept, dropped_names = [], set()
    for t in plan.terms:
        if t.origin == "name" and t.lang == "en":
            phrase = tuple(fold_word(w) for w in t.phrase.split())
            inside = sum(times(list(name_words(m.typed)), phrase) for m in mentions)
            if inside and inside >= times(query_words, phrase) and set(phrase) <= set(typed_words):
                dropped_names.add(t.phrase)
                continue
        kept.append(t)
    if dropped_names:
        # The other language's names of each keyword dropped, by the names table (not by their place in
        # the terms: a keyword may have two Japanese names, and a Japanese question lists them first).
        others = {p for name in dropped_names for p in (names.by_english.get(english_stems(name), ()) if names else ())}
        kept = [t for t in kept if not (t.origin == "name" and t.lang != "en" and t.phrase in others)]
    plan.terms = [t for t in kept if not of_a_name(t)]


def _card_order(conn, mentions: list[CardMention], plan: QueryPlan, by_key: dict, section: str | None
                ) -> tuple[list, float]:
    """The rules the named cards' text points to, the question's words choosing among them, and how
    much the question is about them (:func:`.card_rules.card_ranking`)."""
    newest = _newest(conn, "en")
    # "Urborg" is a card of its own and the word most who type it mean Urborg, Tomb of Yawgmoth by:
    # both are shown, the rules are the latter's.
    ids = [m.card_id for m in mentions
           if not (m.how == "exact" and any(o.how == "partial" and o.start == m.start for o in mentions))]
    pointed, focus = card_ranking(conn, ids, release=newest, plan=plan)
    if section:
        pointed = [p for p in pointed if p[1] == section or p[1].startswith(section)]
    hits = [LexicalHit(None, "rule", rel, "en", number, None, "", float(i)) for i, (rel, number, _) in enumerate(pointed)]
    return (_group_order(conn, hits, by_key, "card") if hits else []), focus


def _cards_shown(conn, mentions: list[CardMention]) -> list[dict]:
    """What the answer shows of each card named, first: names, type, text, and its page."""
    from urllib.parse import quote

    out = []
    for m in mentions:
        row = conn.execute("select name_en, name_ja, name_zh, mana_cost, type_line, text, power, toughness, loyalty"
                           " from cards where id = ?", [m.card_id]).fetchone()
        if row is None:
            continue
        name, name_ja, name_zh, cost, type_line, text, power, toughness, loyalty = row
        out.append({"name": name, "name_ja": name_ja, "name_zh": name_zh, "mana_cost": cost, "type_line": type_line,
                    "text": text, "pt": f"{power}/{toughness}" if power is not None and toughness is not None else None,
                    "loyalty": loyalty, "typed": m.typed, "how": m.how, "lang": m.lang,
                    "link": "/-/cards/" + quote(name, safe="")})
    return out


HEADING_WINDOW = 10  # a heading goes after the numbered rules of it found among the first this many
# (or, if none is, after the first of them found)


def _specific_first(order: list, by_key: dict) -> list:
    """A whole rule (704) found with its numbered rules (704.5) goes after those of them among the
    first :data:`HEADING_WINDOW` (else after the first of them): the numbered rules answer, the
    heading only says where."""
    out = list(order)
    for key in order:
        number = by_key[key].number
        if not number or not re.fullmatch(r"\d{3}", number):
            continue
        children = [k for k in out if (by_key[k].number or "").startswith(number + ".")]
        near = [k for k in children if out.index(k) < HEADING_WINDOW]
        after = near[-1] if near else children[0] if children else None
        if after is not None and out.index(after) > out.index(key):
            out.remove(key)
            out.insert(out.index(after) + 1, key)
    return out


def _check_release(conn, release: str, lang: str | None) -> None:
    import sqlite_utils

    from ..database import check_release

    check_release(sqlite_utils.Database(conn), release, lang)


_FACTS: dict = {}


def _db_key(conn) -> str:
    row = next((r for r in conn.execute("pragma database_list") if r[1] == "main"), None)
    return row[2] if row and row[2] else str(id(conn))


def _fact(conn, key: tuple, compute):
    """A fact about the database that doesn't change while it is served (its tables, newest releases)."""
    full = (_db_key(conn), *key)
    if full not in _FACTS:
        _FACTS[full] = compute()
    return _FACTS[full]


def _has(conn, table: str) -> bool:
    return _fact(conn, ("has", table), lambda: conn.execute(
        "select 1 from sqlite_master where name = ?", [table]).fetchone() is not None)


def _correct_plan(plan: QueryPlan, vocabulary: Vocabulary, conn) -> None:
    from .query import Term

    terms = []
    names = None
    for t in plan.terms:
        if t.origin != "word" or t.lang is None or vocabulary.knows(t.phrase, t.lang, conn):
            if t.origin == "word" and t.lang == "en" and t.phrase not in vocabulary.docs:
                # Known only through the stemmer: a misspelt keyword name ("indestructable").
                if names is None:
                    from .fts import KeywordNames

                    names = [k[0] for k in KeywordNames.from_db(conn).by_english if len(k) == 1]
                name = vocabulary.nearest_name(t.phrase, names)
                if name and _same_stem(conn, t.phrase, name):
                    plan.corrections[t.phrase] = name
                    terms.append(Term(name, t.lang, "correction", t.phrase))
                    continue
            terms.append(t)
            continue
        better = vocabulary.correct(t.phrase, t.lang)
        if better and better != t.phrase:
            plan.corrections[t.phrase] = better
            terms.append(Term(better, t.lang, "correction", t.phrase))
        else:
            plan.unknown.append(t.phrase)
            terms.append(t)
    plan.terms = list(dict.fromkeys(terms))


def _same_stem(conn, word: str, other: str) -> bool:
    """The stemmed index reads ``word`` and ``other`` as one word (no row has one without the
    other): "indestructable" is "indestructible" misspelt, "flashing" is not "flanking"."""
    for a, b in ((word, other), (other, word)):
        try:
            if conn.execute("select 1 from search_current_fts where search_current_fts match ? limit 1",
                            [f'"{a}" NOT "{b}"']).fetchone():
                return False
        except Exception:  # noqa: BLE001 - no stemmed index: not the same
            return False
    return True


@dataclass
class _Group:
    key: tuple
    lang: str
    release: str
    number: str | None  # numbered rule in that lang/release
    hits: list = field(default_factory=list)  # (kind, number, text, via)
    via: set = field(default_factory=set)


_NO_LINEAGES = {"releases": set(), "by_rule": {}, "by_lineage": {}}


def _newest_lineages(conn, build: bool = True) -> dict:
    """The rule lineage of the newest English and Japanese releases (what the default search
    shows), in memory once per database: grouping and counterparts then ask SQLite nothing.
    Read by :func:`prepare` (a server); a process that answers one query (``kb search``) asks
    SQLite for the few rules it shows instead (``build=False`` before it was read)."""
    if not build and (_db_key(conn), "newest lineages") not in _FACTS:
        return _NO_LINEAGES

    def compute():
        releases = {(r, lg) for lg in ("en", "ja") if (r := _newest(conn, lg))}
        by_rule, by_lineage = {}, {}
        if _has(conn, "rule_lineage"):
            for release, lang in releases:
                for number, lineage in conn.execute(
                        "select number, lineage_id from rule_lineage where release = ? and lang = ?", [release, lang]):
                    by_rule[(release, lang, number)] = lineage
                    by_lineage.setdefault((lineage, release, lang), number)
        return {"releases": releases if _has(conn, "rule_lineage") else set(), "by_rule": by_rule,
                "by_lineage": by_lineage}
    return _fact(conn, ("newest lineages",), compute)


def _lineages(conn, items: set[tuple[str, str, str]]) -> dict[tuple[str, str, str], int]:
    """(release, lang, number) → lineage id (none in a database without the rule history)."""
    out: dict = {}
    if not _has(conn, "rule_lineage"):
        return out
    newest = _newest_lineages(conn, build=False)
    by_rl: dict[tuple[str, str], set[str]] = {}
    for release, lang, number in items:
        if (release, lang) in newest["releases"]:
            if (release, lang, number) in newest["by_rule"]:
                out[(release, lang, number)] = newest["by_rule"][(release, lang, number)]
            continue
        by_rl.setdefault((release, lang), set()).add(number)
    for (release, lang), numbers in by_rl.items():
        numbers_list = sorted(numbers)
        marks = ",".join("?" * len(numbers_list))
        for number, lineage in conn.execute(
                f"select number, lineage_id from rule_lineage where release = ? and lang = ? and number in ({marks})",
                [release, lang, *numbers_list]):
            out[(release, lang, number)] = lineage
    return out


def _group_order(conn, hits: list[LexicalHit], by_key: dict, via: str) -> list:
    """Group ``hits`` (best first) by numbered rule; the groups' keys in order of their best hit."""
    numbered = {(h.release, h.lang, _numbered(h.number)) for h in hits if h.number}
    lineages = _lineages(conn, numbered) if numbered else {}
    order: list = []
    for h in hits:
        n = _numbered(h.number)
        if n:
            lineage = lineages.get((h.release, h.lang, n))
            key = ("lineage", lineage) if lineage is not None else ("rule", h.lang, h.release, n)
        else:
            key = ("glossary", h.lang, h.title)
        group = by_key.get(key)
        if group is None:
            group = by_key[key] = _Group(key, h.lang, h.release, n)
        group.hits.append((h.kind, h.number, h.title, h.text, h.lang, h.release))
        group.via.add(via)
        if key not in order:
            order.append(key)
    return order


CARD_TEXT = 160  # characters of a card's Oracle text the embedder reads in place of its name


def _with_card_texts(text: str, cards: list[dict], mentions: list[CardMention]) -> str:
    """The question with each card's name followed by its Oracle text ("does Rest in Peace (If a
    card or token would be put into a graveyard from anywhere, exile it instead.) stop dies
    triggers"): a model that has never seen the card reads what it does."""
    by_name = {c["name"]: c for c in cards}
    out, last = [], 0
    for m in sorted(mentions, key=lambda m: m.start):
        card = by_name.get(m.name)
        if card is None or m.start < last or not card.get("text"):
            continue
        body = " ".join(card["text"].split())
        body = body if len(body) <= CARD_TEXT else body[:CARD_TEXT].rsplit(" ", 1)[0] + "…"
        out.append(text[last:m.end] + f" ({body})")
        last = m.end
    return "".join(out) + text[last:]


def _dense_text(plan: QueryPlan, query: str, cards: list[dict] | None = None,
                mentions: list[CardMention] | None = None) -> str:
    """What the embedder reads: the question as typed, with the rules' words for the player slang
    in it in the question's language ("what is an ETB trigger" + "enters the battlefield"), since a
    general model has never seen the slang of a game."""
    extra = [t.phrase.replace(" ", "") if t.lang == "ja" else t.phrase
             for t in plan.terms if t.origin == "alias" and t.phrase != t.typed and t.lang in plan.languages]
    extra = list(dict.fromkeys(extra))
    if cards and mentions:
        query = _with_card_texts(plan.text, cards, mentions)

    return query + (" (" + ", ".join(extra) + ")" if extra else "")


def _dense_language(plan: QueryPlan, lang: str | None) -> str | None:
    """The language of the rules dense retrieval reads: the question's own where one language is
    searched and the question is typed in the other (呪禁は何を防ぐ？ over the English rules). The
    model matches a question with a rule far better in one language than across two, and a rule
    found in Japanese is the same group as its English text (the rule lineage): the answer is
    still the rule in the language asked for."""
    if lang is not None and len(plan.languages) == 1:
        (typed,) = plan.languages
        if typed != lang and typed in ("en", "ja") and lang in ("en", "ja"):
            return typed
    return lang


def _dense_order(conn, query: str, lang: str | None, by_key: dict, embedder_name: str | None, clock):
    with clock.suspended():
        model = dense_module.embedder(embedder_name)
        if model is None:
            return [], dense_module.status(embedder_name)
        index = dense_module.load_index(conn, model.name)
    if not index.complete:
        share = len(index.rowids) / index.wanted if index.wanted else 0
        return [], (f"dense search is being prepared ({share:.0%} of the rules embedded); "
                    "these are lexical results")
    with clock.suspended():  # the model's time is bounded by QUERY_WAIT, not by SQLite's clock
        vector = model.query([query], wait=dense_module.QUERY_WAIT)
    if vector is None:
        return [], "the embedding model was busy; these are lexical results"
    found = index.search(vector[0], DENSE_DEPTH, lang)
    if not found:
        return [], None
    rowids = [r for r, _ in found]
    marks = ",".join("?" * len(rowids))
    rows = {r[0]: r for r in conn.execute(
        f"select id, kind, release, lang, number, title, text from search_current where id in ({marks})", rowids)}
    hits = [LexicalHit(*rows[r], rank=-score) for r, score in found if r in rows]
    return _group_order(conn, hits, by_key, "dense"), None


_TITLES: dict = {}


def _titles(conn) -> dict:
    """Titled rules and glossary terms by the words of their title (the ``search_titles`` table the
    build makes): {(lang, words): [(release, number, kind)]}."""
    def compute():
        out: dict = {}
        if _has(conn, "search_titles"):
            for lang, words, release, number, kind in conn.execute(
                    "select lang, words, release, number, kind from search_titles order by rowid"):
                out.setdefault((lang, tuple(words.split())), []).append((release, number, kind))
        return out
    return _fact(conn, ("titles",), compute)


GLOSSARY_CITES = True
COMMON = 200  # a word in more rows than this is no sign of what a question is about


def _title_order(conn, plan: QueryPlan, lang: str | None, release: str | None, by_key: dict,
                 vocabulary: Vocabulary | None = None) -> list:
    """The rules (and glossary terms) whose whole title is one of the query's phrases or words,
    names first. In a question, only distinctive ones: a title of common words (Creatures,
    クリーチャー) says nothing about what is asked."""
    if release is not None:
        return []
    from .fts import english_stems

    titles = _titles(conn)
    hits = []
    rank = {"name": 0, "alias": 1, "phrase": 1, "word": 2, "correction": 2}
    single = len([t for t in plan.terms if t.origin in ("word", "correction")]) <= 1
    # A question's names count as things typed too: the glossary names common words (Damage,
    # Player, During), and the title of one of them is no sign of what a longer question asks.
    question = needs_dense(plan)  # keyword-shaped queries ("graveyard order") keep a section's title
    one_thing = len({t.phrase for t in plan.terms if t.origin in ("word", "correction", "name")
                     and (t.lang in plan.languages or not plan.languages)}) <= 1
    ruled_out = _ruled_out(titles, plan.excluded)
    # In a question (not a phrase of the rules), not a long one: there the many names' citations crowd out the answer.
    cites = GLOSSARY_CITES and question and not _verbatim(conn, plan) and _dense_weight(plan) == DENSE_WEIGHT
    for term in sorted(plan.terms, key=lambda t: rank.get(t.origin, 3)):
        if lang is not None and term.lang != lang:
            continue
        if term.origin in ("word", "correction") and not single:
            continue  # a plain word of a question is too weak a sign (クリーチャー, card)
        common = vocabulary is not None and len(term.phrase.split()) == 1 \
            and vocabulary.docs.get(term.phrase.lower(), 0) > COMMON
        if not single and common:
            continue
        words = english_stems(english_key(term.phrase)) if term.lang == "en" else tuple(term.phrase.split())
        found = titles.get((term.lang, words), [])
        if cites and term.origin == "name" and not common and any(k == "glossary" for _, _, k in found):
            # A glossary term's definition names the rules that say what it does (Poison Counter:
            # rule 122 and 704.5c): those too, in its order.
            found = [(rel, n, "rule") for rel, n in _fact(
                conn, ("definition", term.lang, words),
                lambda lang=term.lang, words=words: _defined_by(conn, lang, words))]
        for rel, number, _kind in found:
            if number in ruled_out:
                continue  # a sense the words typed rule out ("counters" is not Counter, 701.6)
            if common and not one_thing and question and number and re.fullmatch(r"\d{3}", number):
                continue  # a whole section titled by a common word (120 Damage, 402 Hand): a topic, not the answer
            hits.append(LexicalHit(None, "rule", rel, term.lang, number, None, "", -1.0))
    return _group_order(conn, hits, by_key, "title") if hits else []


def _ruled_out(titles: dict, senses: set[str]) -> set[str]:
    """The numbers of the rules titled, in any language but English, by one of ``senses``."""
    if not senses:
        return set()
    return {number for (lang, words), found in titles.items() if lang != "en" and " ".join(words) in senses
            for _rel, number, _kind in found}


_CITED = re.compile(r"\b(rules?)\s+(\d{3}(?:\.\d+[a-z]?)?(?:(?:,\s*|\s+and\s+|\s+or\s+)\d{3}(?:\.\d+[a-z]?)?)*)"
                    r"|(\d{3}(?:\.\d+[a-z]?)?)〔")
_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]?)?")


def cited_rules(text: str) -> list[str]:
    """The rules a glossary definition points to, in the order it names them.

    >>> cited_rules("A counter that may be given to a player. See rule 122, “Counters,” and rule 704.5c.")
    ['122', '704.5c']
    >>> cited_rules("See rules 702.3 and 702.4.")
    ['702.3', '702.4']
    >>> cited_rules("rule 122〔カウンター〕、rule 704.5c 参照。"), cited_rules("122〔カウンター〕および 727〔RAD〕")
    (['122', '704.5c'], ['122', '727'])
    >>> cited_rules("A deck of exactly 100 cards.")
    []
    """
    out: list[str] = []
    for m in _CITED.finditer(text or ""):
        out += _NUMBER.findall(m.group(2)) if m.group(2) else [m.group(3)]
    return list(dict.fromkeys(out))


def _translated_share(plan: QueryPlan) -> float:
    """The share of what was typed that the other language's ranking looks for: names and slang
    are translated, plain words are not, so for "toughness 0 or less" the Japanese text is searched
    for タフネス alone, a third of the query, and its ranking counts a third as much."""
    content = _typed_content(plan)
    typed = [p for phrases in content.values() for p in phrases]
    if not typed:
        return 1.0
    translated = {t.phrase for t in plan.terms if t.origin in ("name", "alias") and t.lang in plan.languages}
    return sum(p in translated for p in typed) / len(typed)


def _typed_content(plan: QueryPlan) -> dict[str, list[str]]:
    """The words and keyword names typed, by language, in the order typed (no slang, no runs)."""
    out: dict[str, list[str]] = {}
    for t in plan.terms:
        if t.lang in plan.languages and (t.origin in ("word", "correction", "name")
                                         or (t.origin == "alias" and t.phrase == t.typed)):
            out.setdefault(t.lang, [])
            if t.phrase not in out[t.lang]:
                out[t.lang].append(t.phrase)
    return out


def _title_words(title: str | None, lang: str) -> tuple[str, ...]:
    """A title's words as ``search_titles`` keeps them (English stems, Japanese search form)."""
    from .fts import english_stems

    if lang == "en":
        return english_stems(english_key(title or ""))
    from ..japanese import search_form

    return tuple(search_form(title or "").split())


def _definition_order(conn, plan: QueryPlan, lang: str | None, release: str | None, by_key: dict) -> list:
    """When what the query looks for is, whole, the title of a rule or a glossary term ("priority",
    "poison counters", 呪禁, "what is mana value"): that rule, or the rules the term's definition
    points to, in its order. A keyword's own rule comes before the rules that only use the word."""
    if release is not None or plan.number:
        return []
    content = _typed_content(plan)
    if len(content) != 1:
        return []
    (typed_lang, phrases), = content.items()
    if lang is not None and typed_lang != lang:
        return []
    from .fts import english_stems

    # The words in the order typed; in Japanese also the one run of content words (毒 カウンター),
    # since a keyword name inside it (カウンター) comes before the run's other words.
    runs = [t.phrase for t in plan.terms if t.origin == "phrase" and t.lang == typed_lang]
    candidates = [" ".join(phrases)] + (runs if typed_lang != "en" and len(runs) == 1 else [])
    titles = _titles(conn)
    for joined in candidates:
        words = english_stems(english_key(joined)) if typed_lang == "en" else tuple(joined.split())
        if titles.get((typed_lang, words)):
            break
    else:
        return []
    numbers = _fact(conn, ("definition", typed_lang, words), lambda: _defined_by(conn, typed_lang, words))
    ruled_out = _ruled_out(titles, plan.excluded)
    hits = [LexicalHit(None, "rule", rel, typed_lang, n, None, "", -1.0) for rel, n in numbers if n not in ruled_out]
    return _group_order(conn, hits, by_key, "title") if hits else []


def _defined_by(conn, typed_lang: str, words: tuple[str, ...]) -> list[tuple[str, str]]:
    """(release, number) of the rules a title stands for: a titled rule itself, a glossary term
    the rules its definition names, in its order (rules of the release that exist only)."""
    found = _titles(conn).get((typed_lang, words), [])
    hits: list[LexicalHit] = []
    for rel, number, kind in found:
        numbers = [number]
        if kind == "glossary":
            rows = conn.execute("select title, text from search_current where kind = 'glossary' and lang = ?"
                                " and release = ? and number = ?", [typed_lang, rel, number]).fetchall()
            cited = [n for title, text in rows if _title_words(title, typed_lang) == words for n in cited_rules(text)]
            numbers = list(dict.fromkeys([number, *cited]))
        for n in numbers:
            if not any(h.number == n for h in hits):
                hits.append(LexicalHit(None, "rule", rel, typed_lang, n, None, "", -1.0))
    if not hits:
        return []
    known = {(r[0], r[1]) for r in conn.execute(
        f"select release, number from rules where lang = ? and number in ({','.join('?' * len(hits))})",
        [typed_lang, *[h.number for h in hits]])}
    return [(h.release, h.number) for h in hits if (h.release, h.number) in known]


def _number_group(conn, number: str, lang: str | None, release: str | None, by_key: dict):
    langs = [lang] if lang else ["en", "ja"]
    for lg in langs:
        rel = release or _newest(conn, lg)
        if rel is None:
            continue
        row = conn.execute("select number, title, text from rules where release = ? and lang = ? and number = ?",
                           [rel, lg, number]).fetchone()
        if row:
            hit = LexicalHit(None, "rule", rel, lg, number, row[1], row[2], -1e9)
            order = _group_order(conn, [hit], by_key, "number")
            return order[0]
    return None


_NEWEST: dict = {}


def _newest(conn, lang: str) -> str | None:
    def compute():
        row = conn.execute("select max(release) from releases where lang = ? and completeness = 'whole'",
                           [lang]).fetchone()
        return row[0] if row else None
    return _fact(conn, ("newest", lang), compute)


def _counterparts(conn, groups: list[_Group], release: str | None) -> dict:
    """{(group key, lang): (release, number)}: each group's rule in English and Japanese, the same
    lineage in each language's newest release (or in ``release``), in one query."""
    out: dict = {}
    targets = {lg: release or _newest(conn, lg) for lg in ("en", "ja")}
    lineage_ids = []
    for g in groups:
        if g.number is None:
            continue
        for lg in ("en", "ja"):
            if g.lang == lg and (release is None or g.release == release):
                out[(g.key, lg)] = (g.release, g.number)
        if g.key[0] == "lineage":
            lineage_ids.append(g.key[1])
    newest = _newest_lineages(conn, build=False)
    if lineage_ids and all((targets[lg], lg) in newest["releases"] for lg in ("en", "ja")):
        for lineage in lineage_ids:
            for lg in ("en", "ja"):
                found = newest["by_lineage"].get((lineage, targets[lg], lg))
                if found:
                    out.setdefault((("lineage", lineage), lg), (targets[lg], found))
    elif lineage_ids:
        marks = ",".join("?" * len(lineage_ids))
        for lineage, lg, rel, number in conn.execute(
                f"select lineage_id, lang, release, number from rule_lineage where lineage_id in ({marks})"
                " and ((lang = 'en' and release = ?) or (lang = 'ja' and release = ?))",
                [*lineage_ids, targets["en"], targets["ja"]]):
            out.setdefault((("lineage", lineage), lg), (rel, number))
    for g in groups:  # no lineage (a database without history): the same number in the other language
        if g.number and g.key[0] != "lineage":
            for lg in ("en", "ja"):
                if (g.key, lg) not in out and targets[lg]:
                    out[(g.key, lg)] = (targets[lg], g.number)
    return out


def _rule_texts(conn, wanted: dict[tuple[str, str], set[str]]) -> dict:
    """{(release, lang, number): (title, text)} for the numbers wanted, one query per release and language."""
    out: dict = {}
    for (rel, lg), numbers in wanted.items():
        numbers_list = sorted(numbers)
        for i in range(0, len(numbers_list), 400):
            chunk = numbers_list[i:i + 400]
            marks = ",".join("?" * len(chunk))
            for number, title, text in conn.execute(
                    f"select number, title, text from rules where release = ? and lang = ? and number in ({marks})",
                    [rel, lg, *chunk]):
                out[(rel, lg, number)] = (title, text)
    return out


def _subrules_shown(number: str, matched: list[str], titled: bool) -> list[str]:
    subs = [n for n in matched if n != number and n.startswith(number)]
    if titled and re.fullmatch(r"\d{3}\.\d+", number):
        # A titled numbered rule (a keyword) is defined by its first subrule.
        subs = [number + "a"] + [s for s in subs if s != number + "a"]
    return list(dict.fromkeys(subs))[:4]


def _finish(conn, by_key: dict, keys: list, scores: dict, release, lang, limit,
            plan: QueryPlan | None = None) -> list[RuleGroup]:
    groups: list[_Group] = [by_key[k] for k in keys[:limit]]
    where = _counterparts(conn, groups, release)
    local: dict = {}
    wanted: dict[tuple[str, str], set[str]] = {}
    for g in groups:
        matched = [h[1] for h in g.hits if h[1]]
        for lg in ("en", "ja"):
            if (g.key, lg) in where:
                rel, number = where[(g.key, lg)]
                # Subrules matched in the other language map by number within the rule.
                mine = [m.replace(g.number, number, 1) if g.number and m.startswith(g.number) else m for m in matched]
                local[(g.key, lg)] = mine
                wanted.setdefault((rel, lg), set()).update([number, number + "a", *mine])
    texts = _rule_texts(conn, wanted)
    out: list[RuleGroup] = []
    for g in groups:
        matched = [h[1] for h in g.hits if h[1]]
        # The snippet in the language of the query where the group has a hit in it.
        best = next((h for h in g.hits if plan and h[4] in plan.languages), g.hits[0])
        glossary = [{"lang": h[4], "term": h[2], "definition": h[3]} for h in g.hits if h[0] == "glossary"]
        shown_texts: dict[str, RuleText] = {}
        for lg in ("en", "ja"):
            if (g.key, lg) not in where:
                continue
            rel, number = where[(g.key, lg)]
            row = texts.get((rel, lg, number))
            if row is None:
                continue
            title, text = row
            subrules = [{"number": n, "text": texts[(rel, lg, n)][1]}
                        for n in _subrules_shown(number, local[(g.key, lg)], bool(title)) if (rel, lg, n) in texts]
            shown_texts[lg] = RuleText(rel, lg, number, title, text or "", subrules)
        en, ja = shown_texts.get("en"), shown_texts.get("ja")
        shown = en or ja
        number = shown.number if shown else g.number
        title = shown.title if shown else best[2]
        out.append(RuleGroup(number, title, scores.get(g.key, 0.0), sorted(g.via), list(dict.fromkeys(matched)),
                             _snippet(best, plan), en, ja, glossary))
    return out


def _snippet(hit, plan: QueryPlan | None = None) -> str:
    kind, number, title, text, lang, release = hit
    body = text or title or ""
    if kind == "glossary" and title:
        body = f"{title}: {body}"
    if plan is not None:
        return mark(body, plan, lang, width=220)
    return body if len(body) <= 220 else body[:220] + "…"


def mark(text: str, plan: QueryPlan, lang: str, *, width: int = 220) -> str:
    """``text`` around its first searched word, every searched word between MARK_START and MARK_END.

    English words match at the start of a word ("block" marks "blocked"); Japanese ones by their
    search form (:func:`kb.japanese.highlight`).
    """
    if lang == "ja":
        keys = {w for t in plan.terms if t.lang == "ja" for w in t.phrase.split()}
        # Words printed as searched (墓地, マナ総量) are marked where they stand; only when none is
        # (探す printed 探し) does Sudachi segment the text to find their forms.
        literal = sorted({k for k in keys if len(k) >= 2 and k in text}, key=len, reverse=True)
        if literal:
            return _mark_literal(text, literal, width)
        if keys:
            from ..japanese import highlight

            return highlight(text, keys, width=width, mark=(MARK_START, MARK_END))
        return text if len(text) <= width else text[:width] + "…"
    pattern = _english_marks(tuple(t.phrase for t in plan.terms if t.lang == "en"))
    if pattern is None:
        return text if len(text) <= width else text[:width] + "…"
    first = pattern.search(text)
    begin = max(0, (first.start() if first else 0) - width // 3)
    if begin:
        begin = text.rfind(" ", 0, begin) + 1
    piece = text[begin:begin + width]
    marked = pattern.sub(lambda m: MARK_START + m.group(0) + MARK_END, piece)
    return ("…" if begin else "") + marked + ("…" if begin + width < len(text) else "")


@functools.lru_cache(maxsize=256)
def _english_marks(phrases: tuple[str, ...]) -> re.Pattern | None:
    """The pattern marking the English words of ``phrases``, longest first; once per query, not
    once per group shown (its words and its compiled pattern were a tenth of a lexical answer)."""
    words = sorted({w for p in phrases for w in english_key(p).split() if len(w) > 1}, key=len, reverse=True)
    if not words:
        return None
    return re.compile(r"(?i)\b(" + "|".join(re.escape(w) for w in words) + r")[\w’']*")


@functools.lru_cache(maxsize=256)
def _literal_marks(words: tuple[str, ...]) -> re.Pattern:
    return re.compile("|".join(re.escape(w) for w in words))


def _mark_literal(text: str, words: list[str], width: int) -> str:
    pattern = _literal_marks(tuple(words))
    first = pattern.search(text)
    begin = max(0, first.start() - width // 3) if first else 0
    end = min(len(text), begin + width)
    marked = pattern.sub(lambda m: MARK_START + m.group(0) + MARK_END, text[begin:end])
    return ("…" if begin else "") + marked + ("…" if end < len(text) else "")


def _others(conn, plan: QueryPlan, lang: str | None) -> list[dict]:
    hits = lexical_hits(conn, plan, lang=lang, kinds=OTHER_KINDS, limit=8)
    if not hits:
        return []
    marks = ",".join("?" * len(hits))
    links = dict(conn.execute(f"select id, link from search_current where id in ({marks})", [h.rowid for h in hits]))
    return [{"kind": h.kind, "lang": h.lang, "title": h.title, "number": h.number, "link": links.get(h.rowid),
             "text": h.text if len(h.text) <= 300 else h.text[:300] + "…"} for h in hits]


def _explain(result: Answer) -> None:
    plan, notes = result.plan, result.notes
    if plan.corrections:
        notes.insert(0, f"showing results for “{plan.shown_as()}”")
    if plan.capped:
        notes.append("the query had more words than a search takes; the first ones were used")
    if not result.groups:
        searched = [t.phrase for t in plan.terms]
        if not searched and not plan.number:
            dropped = ", ".join(plan.dropped) or result.query
            notes.append(f"no word to search for: {dropped} are too common to search the rules for;"
                         " add what the question is about")
        elif plan.unknown:
            notes.append(f"no rule has {', '.join(plan.unknown)}; check the spelling, or try a rule number")
        elif searched:
            notes.append(f"no rule has any of: {', '.join(dict.fromkeys(searched))}"
                         + (f" (not searched for: {', '.join(plan.dropped)})" if plan.dropped else ""))
    elif plan.unknown:
        notes.append(f"not in the rules: {', '.join(plan.unknown)}")


# The same search of the same database asked again is answered from memory (:mod:`.answer_cache`).
answer = answer_cache.cached(answer)
