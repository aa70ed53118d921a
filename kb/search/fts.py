"""Full-text search over rules, examples and glossary (SQLite FTS5), in English and Japanese.

``search_sql()`` builds the query, ``search()`` runs it; the CLI, the Datasette
plugin and ``bench/`` share that one string (``kb search --sql`` prints it).
User input never reaches FTS5 syntax: :func:`fts_query` quotes every word, so
``AND``, ``*``, ``"`` or ``:`` in a query are searched for, not interpreted.

>>> fts_query('search "library" OR')
'"search" "library" "or"'
>>> fts_query('   ')
''

Japanese words are segmented as the build segmented the text
(:mod:`kb.japanese`): ``墓地から探す`` must find 墓地 and 探す.

>>> fts_query("墓地から探す")
'"墓地" "探す"'

Across languages: with the ``keyword_names`` of the database
(:class:`KeywordNames`), a keyword or glossary term in one language also
matches its name in the other, so 発見 finds the English rules of Discover
and "discover" the Japanese ones; each hit carries the other language's text
of the same release where there is one (``title_other``, ``text_other``).

>>> names = KeywordNames([("discover", "発見", "発見"), ("sacrifice", "生け贄 に 捧げる", "生け贄|捧げる")])
>>> fts_query("発見を行う", names)
'("発見" OR "discover")'
>>> fts_query("sacrifice library", names)
'("sacrifice" OR "生け贄 に 捧げる") AND "library"'
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field, replace
from typing import Iterable, Iterator

import sqlite_utils
from markupsafe import Markup, escape

from ..database import check_release
from ..translated_search import LANGUAGES as TRANSLATED, TranslatedNames, TranslatedQuery

# Japanese text is matched word by word after segmentation (kb.japanese).
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uff66-\uff9f]")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")


def has_japanese(text: str) -> bool:
    """True when ``text`` has kana or kanji.

    >>> has_japanese("発見"), has_japanese("discover")
    (True, False)
    """
    return bool(_JAPANESE.search(text))


def english_stems(key: str) -> tuple[str, ...]:
    """The words of an :func:`english_key` as names are matched: a plural -s dropped (-ies
    made -y), so "poison counters" finds the glossary's Poison Counter and "mana abilities" its
    Mana Ability.

    >>> english_stems("poison counters"), english_stems("less class")
    (('poison', 'counter'), ('less', 'class'))
    >>> english_stems("mana abilities"), english_stems("copies"), english_stems("dies")
    (('mana', 'ability'), ('copy',), ('die',))
    """
    return tuple(w[:-3] + "y" if len(w) > 4 and w.endswith("ies")
                 else w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
                 for w in key.split())


def english_key(text: str) -> str:
    """Words as FTS5's unicode61 sees them, lower case, space separated: how English
    names are compared.

    >>> english_key("For Mirrodin!"), english_key("Web-slinging"), english_key("+1/+1")
    ('for mirrodin', 'web slinging', '1 1')
    """
    return " ".join(_WORD.findall(text.lower().replace("’", "'")))


class KeywordNames:
    """English ↔ Japanese names (the ``keyword_names`` table), indexed for query matching.

    Each name is ``(key_en, key_ja, match_ja)``: the English name as
    :func:`english_key` words, the Japanese name's search form (the FTS5
    phrase), and its query runs joined by ``|`` (what a Japanese query is
    compared with: ``生け贄|捧げる``).
    """

    def __init__(self, names: Iterable[tuple[str, str, str]]):
        # English words → Japanese phrases; Japanese runs → (Japanese phrases, English names).
        self.by_english: dict[tuple[str, ...], set[str]] = {}
        self.by_japanese: dict[tuple[str, ...], tuple[set[str], set[str]]] = {}
        # The same by words rather than runs: 破壊不能 is one run of two words (破壊 不能), and a
        # query read word by word within its runs (:mod:`.query`) must find it whole, not as 破壊.
        self.by_japanese_words: dict[tuple[str, ...], tuple[set[str], set[str]]] = {}
        for key_en, key_ja, match_ja in names:
            if not key_en or not key_ja or not match_ja:
                continue
            runs = tuple(match_ja.split("|"))
            # A one-run name is searched as its run (発見 for 発見を行う); a longer one as written.
            ja_phrase = runs[0] if len(runs) == 1 else key_ja
            self.by_english.setdefault(english_stems(key_en), set()).add(ja_phrase)
            for index, key in ((self.by_japanese, runs),
                               (self.by_japanese_words, tuple(w for run in runs for w in run.split()))):
                phrases, english = index.setdefault(key, (set(), set()))
                phrases.add(ja_phrase)
                english.add(key_en)
        self.longest_en = max((len(k) for k in self.by_english), default=0)
        self.longest_ja = max((len(k) for k in self.by_japanese), default=0)
        self.longest_ja_words = max((len(k) for k in self.by_japanese_words), default=0)

    def __len__(self) -> int:
        return len(self.by_english)

    @classmethod
    def from_db(cls, db: sqlite_utils.Database) -> "KeywordNames":
        """The names in ``db`` (none when it has no ``keyword_names`` table), cached per file."""
        path = next((row[2] for row in db.execute("pragma database_list") if row[1] == "main"), "")
        stamp = os.stat(path).st_mtime_ns if path and os.path.exists(path) else None
        cached = _NAMES_CACHE.get(path) if path else None
        if cached and cached[0] == stamp:
            return cached[1]
        if not db.execute("select 1 from sqlite_master where name = 'keyword_names'").fetchone():
            names = cls([])
        else:
            names = cls(db.execute("select key_en, key_ja, match_ja from keyword_names").fetchall())
        if path:
            _NAMES_CACHE[path] = (stamp, names)
        return names


_NAMES_CACHE: dict[str, tuple[int | None, KeywordNames]] = {}

# bm25 ranks are negative, lower is better: a hit in the other language than the
# query's counts as this fraction of its score when both languages are searched.
OTHER_LANGUAGE_WEIGHT = 0.7


def _quoted(phrase: str) -> str:
    return '"' + phrase.replace('"', "").strip() + '"'


@dataclass
class ParsedQuery:
    """A query read for FTS5: groups that must all match. A group is a list of
    alternatives, an alternative a list of phrases that must all match."""

    groups: list[list[list[str]]] = field(default_factory=list)
    japanese_keys: set[str] = field(default_factory=set)  # Japanese words to mark in snippets
    languages: set[str] = field(default_factory=set)  # of the words typed: "en", "ja"

    @property
    def expression(self) -> str:
        """The FTS5 MATCH expression: ``"a" "b"``, or ``("a" AND "b") OR "c"`` alternatives."""
        return self.expression_for(None)

    def expression_for(self, lang: str | None) -> str:
        """The expression for text in ``lang``: of a group's alternatives, only those in that
        language when it has any (so that 400.1's gloss 「墓地／Graveyard」 does not count
        twice for 墓地); every alternative for ``None``.

        >>> parsed = parse_query("墓地 x", KeywordNames([("graveyard", "墓地", "墓地")]))
        >>> parsed.expression_for("ja"), parsed.expression_for("en")
        ('"墓地" "x"', '"graveyard" "x"')
        """
        parts = []
        for group in self.groups:
            if lang is not None:
                wanted = [a for a in group if any(has_japanese(p) for p in a) == (lang == "ja")]
                group = wanted or group
            alternatives = []
            for phrases in group:
                quoted = [_quoted(p) for p in dict.fromkeys(phrases) if p.replace('"', "").strip()]
                if quoted:
                    alternatives.append(quoted[0] if len(quoted) == 1 else "(" + " AND ".join(quoted) + ")")
            alternatives = list(dict.fromkeys(alternatives))
            if len(alternatives) == 1:
                parts.append(alternatives[0])
            elif alternatives:
                parts.append("(" + " OR ".join(alternatives) + ")")
        # FTS5 takes "a" "b" as "a" AND "b", but wants the AND spelled out next to a bracket.
        return (" AND " if any(p.startswith("(") for p in parts) else " ").join(parts)


def parse_query(query: str, names: KeywordNames | None = None) -> ParsedQuery:
    """Read a query: English words, Japanese runs (:func:`kb.japanese.query_runs`) and, with
    ``names``, the longest keyword names found among them, each with its other-language names.

    Words typed in English stay separate words (all required, as without
    names); a name in the other language is one phrase.

    >>> parse_query("collect evidence", KeywordNames([("collect evidence", "証拠 収集", "証拠 収集")])).groups
    [[['collect', 'evidence'], ['証拠 収集']]]
    """
    names = names or KeywordNames([])
    items: list[tuple[str, str]] = []  # ("en", word) or ("ja", run)
    for chunk in query.split():
        if has_japanese(chunk):
            from ..japanese import segment_query

            items.extend(("ja", run) for run in segment_query(chunk))
        else:
            items.extend(("en", w) for w in english_key(chunk).split())
    parsed = ParsedQuery(languages={lg for lg, _ in items})
    i = 0
    while i < len(items):
        lang = items[i][0]
        longest = names.longest_en if lang == "en" else names.longest_ja
        for n in range(min(longest, len(items) - i), 0, -1):
            span = items[i:i + n]
            key = tuple(value for _, value in span)
            if any(lg != lang for lg, _ in span):
                continue
            if lang == "en" and english_stems(" ".join(key)) in names.by_english:
                others = names.by_english[english_stems(" ".join(key))]
                parsed.groups.append([list(key), *([p] for p in sorted(others))])
            elif lang == "ja" and key in names.by_japanese:
                phrases, english = names.by_japanese[key]
                parsed.groups.append([*([p] for p in sorted(phrases)), *([e] for e in sorted(english))])
            else:
                continue
            i += n
            break
        else:
            parsed.groups.append([[items[i][1]]])
            i += 1
    japanese = [p for group in parsed.groups for phrases in group for p in phrases if has_japanese(p)]
    if japanese:
        from ..japanese import content_keys

        parsed.japanese_keys = content_keys(" ".join(japanese))
    return parsed


def query_terms(query: str) -> list[str]:
    """The words of a query, as FTS5 will see them (Japanese segmented into words)."""
    return [phrase for group in parse_query(query).groups for phrase in group[0]]


def fts_query(query: str, names: KeywordNames | None = None) -> str:
    """A safe FTS5 MATCH expression: every word a quoted phrase, all required; with
    ``names``, a keyword also matches its name in the other language."""
    return parse_query(query, names).expression


# What a hit can be: CR text, and (newest release only) wiki rulings and cards.
KINDS = ("rule", "example", "glossary", "ruling", "card", "card ruling")

# Snippets mark matches with control characters no rule text contains, so that
# brackets in the text ("[Cost]: [Effect]") are never mistaken for marks.
MARK_START, MARK_END = "\x02", "\x03"


@dataclass(frozen=True)
class Hit:
    """One search result, with the same item in the other language of its release where there is one."""

    kind: str  # one of KINDS: "rule", "example", "glossary", "ruling", "card", "card ruling"
    release: str
    lang: str
    number: str | None  # the rule (for an example, the rule it belongs to; for a glossary entry, its first reference)
    title: str | None  # rule title or glossary term
    text: str
    snippet: str
    rank: float
    lang_other: str | None = None  # "ja" for an English hit whose release has it in Japanese, and so on
    title_other: str | None = None
    text_other: str | None = None
    link: str | None = None  # for rulings and cards: the row's path in the database ("cards/7")

    def as_dict(self) -> dict:
        """The hit as plain data; the snippet marks the matched words [like this]."""
        data = asdict(self)
        data["snippet"] = self.snippet.replace(MARK_START, "[").replace(MARK_END, "]")
        return data

    def snippet_html(self) -> Markup:
        """The snippet, escaped, with the matched words in ``<mark>``."""
        return Markup(str(escape(self.snippet)).replace(MARK_START, "<mark>").replace(MARK_END, "</mark>"))


_SCOPE = """
    {alias}.lang = coalesce(:lang, {alias}.lang)
    and {alias}.release = coalesce(:release, (
        select max(r.release) from releases r where r.lang = {alias}.lang and r.completeness = 'whole'))
"""

_SECTION_FILTER = """
    and (:section is null or {col} = :section or {col} like :section || '.%'
         or {col} glob :section || '[a-z]' or (length(:section) = 1 and substr({col}, 1, 1) = :section))
"""


CURRENT_SQL = """
select search_current.kind, search_current.release, search_current.lang, search_current.number,
       search_current.title, search_current.text, search_current.rowid as snippet,
       bm25(search_current_fts) as rank, search_current.link
from search_current_fts join search_current on search_current.rowid = search_current_fts.rowid
where search_current_fts match :query
  and (:lang is null or search_current.lang = :lang)
  and (:kinds is null or search_current.kind in (select value from json_each(:kinds)))
  and (:section is null or search_current.number = :section or search_current.number like :section || '.%'
       or search_current.number glob :section || '[a-z]'
       or (length(:section) = 1 and substr(search_current.number, 1, 1) = :section))
order by rank limit :limit
"""

# snippet() costs about a microsecond per matching row and SQLite computes it for
# every match before ORDER BY ... LIMIT, so snippets are made afterwards for the
# hits kept only (a common word matches hundreds of rows).
CURRENT_SNIPPETS_SQL = """
select rowid, snippet(search_current_fts, 0, char(2), char(3), '…', 16)
from search_current_fts where search_current_fts match :query and rowid in ({rowids})
"""


def current_sql() -> str:
    """The SQL of the default search: the newest release of each language, one small index.

    Parameters: ``:query`` (from :func:`fts_query`), ``:lang``, ``:section``, ``:kinds`` (a JSON
    list of kinds: rule, example, glossary, ruling, card, card ruling; each may be null), ``:limit``.
    """
    return CURRENT_SQL


def search_sql(kinds: tuple[str, ...] = ("rule", "example", "glossary")) -> str:
    """The SQL of a search in any release, with parameters ``:query`` (an FTS5
    expression from :func:`fts_query`, restricted with :func:`scoped`),
    ``:release``, ``:lang``, ``:section`` (each may be null) and ``:limit``."""
    parts = []
    if "rule" in kinds:
        parts.append(
            "select 'rule' as kind, rules.release, rules.lang, rules.number, rules.title, rules.text,"
            " snippet(rules_fts, 0, char(2), char(3), '…', 16) as snippet, bm25(rules_fts, 1.0, 0.0) as rank"
            " from rules_fts join rules on rules.rowid = rules_fts.rowid"
            " where rules_fts match :query and" + _SCOPE.format(alias="rules")
            + _SECTION_FILTER.format(col="rules.number")
        )
    if "example" in kinds:
        parts.append(
            "select 'example', examples.release, examples.lang, examples.rule_number, null, examples.text,"
            " snippet(examples_fts, 0, char(2), char(3), '…', 16), bm25(examples_fts, 1.0, 0.0)"
            " from examples_fts join examples on examples.rowid = examples_fts.rowid"
            " where examples_fts match :query and" + _SCOPE.format(alias="examples")
            + _SECTION_FILTER.format(col="examples.rule_number")
        )
    if "glossary" in kinds:
        parts.append(
            "select 'glossary', glossary.release, glossary.lang, json_extract(glossary.rule_refs, '$[0]'),"
            " glossary.term, glossary.definition,"
            " snippet(glossary_fts, 0, char(2), char(3), '…', 16), bm25(glossary_fts, 1.0, 0.0)"
            " from glossary_fts join glossary on glossary.rowid = glossary_fts.rowid"
            " where glossary_fts match :query and" + _SCOPE.format(alias="glossary")
            + " and (:section is null or json_extract(glossary.rule_refs, '$[0]') like :section || '%')"
        )
    return "\nunion all\n".join(parts) + "\norder by rank limit :limit"


def scope_tokens(db: sqlite_utils.Database, release: str | None, lang: str | None) -> list[str]:
    """The ``search_scope`` tokens (``r20260116en``) of the releases a search covers:
    ``release`` in ``lang`` (or in every language that has it), else the newest
    whole release of each language."""
    if release is not None:
        rows = db.execute(
            "select release, lang from releases where release = ? and (? is null or lang = ?)",
            [release, lang, lang],
        ).fetchall()
    else:
        rows = db.execute(
            "select max(release), lang from releases where completeness = 'whole'"
            " and (? is null or lang = ?) group by lang",
            [lang, lang],
        ).fetchall()
    return [f"r{r}{lg}" for r, lg in rows if r]


def scoped(expression: str, scopes: list[str]) -> str:
    """Restrict an FTS5 expression to some releases inside the MATCH itself.

    >>> scoped('"discover"', ["r20260116en", "r20260116ja"])
    '("discover") AND search_scope : ("r20260116en" OR "r20260116ja")'
    """
    return f"({expression}) AND search_scope : (" + " OR ".join(f'"{s}"' for s in scopes) + ")"


def search(
    db: sqlite_utils.Database,
    query: str,
    *,
    release: str | None = None,
    lang: str | None = None,
    section: str | None = None,
    limit: int = 20,
    across_languages: bool = True,
    kinds: Iterable[str] | None = None,
) -> list[Hit]:
    """Ranked hits for ``query`` (best first). An empty query gives no hits.

    Without ``release``, the newest release of each language is searched
    (the ``search_current`` index); with it, that release. A keyword in either
    language also finds its name in the other (``keyword_names``; off with
    ``across_languages=False``). Each hit carries its other-language text from
    the same release where that exists; when both languages of one item are
    hits, the better one stays and shows both. ``kinds`` keeps only some kinds
    of hit (:data:`KINDS`); a search of an older release has the CR kinds only.
    """
    kinds = tuple(kinds) if kinds else None
    if kinds and not set(kinds) <= set(KINDS):
        raise ValueError(f"unknown kind of hit: {sorted(set(kinds) - set(KINDS))}; kinds are {', '.join(KINDS)}")
    names = KeywordNames.from_db(db) if across_languages else None
    parsed = parse_query(query, names)
    # Chinese and Korean (kb.translated_search): their own segmenters; a query in either
    # is searched in English and Japanese by the keyword names it contains.
    translated = TranslatedQuery(query, TranslatedNames.from_db(db) if across_languages else TranslatedNames([]))
    if translated.english and (_has_hangul(query) or not any(len(g) > 1 for g in parsed.groups)):
        # Korean, or Han characters Japanese names do not know (倾探): searched in English and
        # Japanese by the English names the query holds.
        parsed = parse_query(translated.english, names)
    elif not translated.english and any(len(g) > 1 for g in parsed.groups):
        # A Japanese (or English) keyword: Chinese and Korean are searched by its English name.
        english = [next((a[0] for a in g if not has_japanese(a[0])), g[0][0]) for g in parsed.groups]
        translated = TranslatedQuery(" ".join(english), translated.names)
    translated_languages = _translated_languages(db)
    languages = [lang] if lang else ["en", "ja", *translated_languages]
    expressions = {lg: parsed.expression_for(lg) for lg in languages if lg in ("en", "ja")}
    expressions.update({lg: translated.expression_for(lg) for lg in languages if lg in TRANSLATED})
    expressions = {lg: e for lg, e in expressions.items() if e}
    if not expressions:
        return []
    if release is not None:
        check_release(db, release, lang)
    # One run per language when the languages need different expressions (see expression_for);
    # one for all when only English and Japanese are searched and they need the same.
    same = (lang is None and not translated_languages and set(expressions) == {"en", "ja"}
            and len(set(expressions.values())) == 1)
    runs = [(None, parsed.expression)] if same else list(expressions.items())
    fetch = limit * 2 if lang is None else limit
    rows = []
    for run_lang, expression in runs:
        if release is None:
            params = {"query": expression, "lang": run_lang, "section": section, "limit": fetch,
                      "kinds": json.dumps(list(kinds)) if kinds else None}
            found = db.execute(current_sql(), params).fetchall()
            # English snippets from FTS5 (the others are cut from the printed text below).
            rowids = ",".join(str(int(r[6])) for r in found if r[2] == "en")
            snippets = dict(db.execute(CURRENT_SNIPPETS_SQL.format(rowids=rowids), {"query": expression})
                            .fetchall()) if rowids else {}
            rows += [Hit(*r[:6], snippets.get(r[6], r[5]), r[7], link=r[8]) for r in found]
            continue
        scopes = scope_tokens(db, release, run_lang)
        if scopes:
            params = {"query": scoped(expression, scopes), "release": release, "lang": run_lang,
                      "section": section, "limit": fetch}
            cr_kinds = tuple(k for k in ("rule", "example", "glossary") if not kinds or k in kinds)
            if cr_kinds:
                rows += [Hit(*row) for row in db.execute(search_sql(cr_kinds), params).fetchall()]
    hits = sorted(rows, key=lambda h: h.rank)
    if lang is None and len(parsed.languages) == 1:
        # At equal relevance, hits in the language of the query come first.
        (query_lang,) = parsed.languages
        hits.sort(key=lambda h: h.rank * (1.0 if h.lang == query_lang else OTHER_LANGUAGE_WEIGHT))
    out: list[Hit] = []
    seen: set[tuple] = set()
    for hit, key in _Pairing(db).pair_all(hits):
        if key in seen:
            continue  # the same item in the other language ranked higher and shows this one
        seen.add(key)
        if hit.lang == "ja" and parsed.japanese_keys:
            hit = replace(hit, snippet=_japanese_snippet(hit, parsed.japanese_keys))
        elif hit.lang in TRANSLATED:
            hit = replace(hit, snippet=_translated_snippet(hit, translated))
        out.append(hit)
        if len(out) == limit:
            break
    return out


def _japanese_snippet(hit: Hit, keys: set[str]) -> str:
    """The snippet of a Japanese hit from its text as printed (FTS5's would show the
    segmented search form), matched words marked."""
    from ..japanese import highlight

    text = hit.text if hit.text else (hit.title or "")
    if hit.kind == "glossary" and hit.title:
        text = f"{hit.title}: {hit.text}"
    return highlight(text, keys, width=100, mark=(MARK_START, MARK_END))


def _translated_snippet(hit: Hit, translated: TranslatedQuery) -> str:
    """The snippet of a Chinese or Korean hit from its text as printed, matched words marked."""
    from ..translated_search import segmenter

    text = hit.text if hit.text else (hit.title or "")
    if hit.kind == "glossary" and hit.title:
        text = f"{hit.title}: {hit.text}"
    return segmenter(hit.lang).highlight(text, translated.content_keys(hit.lang), width=100,
                                         mark=(MARK_START, MARK_END))


def _has_hangul(text: str) -> bool:
    return bool(re.search("[\uac00-\ud7a3]", text))


def _translated_languages(db: sqlite_utils.Database) -> list[str]:
    """The Chinese and Korean releases' languages the database has."""
    return [lg for (lg,) in db.execute(
        "select distinct lang from releases where lang in ('zh', 'ko') and completeness = 'whole'")]


class _Pairing:
    """Finds each hit's counterpart in the other language of the same release (never another
    release), a few queries for all the hits rather than a few for each."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db
        self.has_pairs = bool(db.execute(
            "select 1 from sqlite_master where name = 'glossary_pairs'").fetchone())

    def _rules(self, hits: list[Hit]) -> dict[tuple, tuple]:
        """(release, lang, number) → (title, text) of the other-language rules of ``hits``."""
        found: dict[tuple, tuple] = {}
        wanted: dict[tuple[str, str], set[str]] = {}
        for h in hits:
            if h.kind == "rule":
                wanted.setdefault((h.release, _other(h.lang)), set()).add(h.number)
        for (release, lang), numbers in wanted.items():
            marks = ",".join("?" * len(numbers))
            for number, title, text in self.db.execute(
                    f"select number, title, text from rules where release = ? and lang = ? and number in ({marks})",
                    [release, lang, *numbers]):
                found[(release, lang, number)] = (title, text)
        return found

    def _examples(self, hits: list[Hit]) -> dict[tuple, dict]:
        """(release, lang, rule_number) → {seq: text, text: seq} of the examples of the rules ``hits`` need."""
        found: dict[tuple, dict] = {}
        wanted: dict[tuple[str, str], set[str]] = {}
        for h in hits:
            if h.kind == "example":
                for lang in (h.lang, _other(h.lang)):
                    wanted.setdefault((h.release, lang), set()).add(h.number)
        for (release, lang), numbers in wanted.items():
            marks = ",".join("?" * len(numbers))
            for number, seq, text in self.db.execute(
                    f"select rule_number, seq, text from examples where release = ? and lang = ?"
                    f" and rule_number in ({marks})", [release, lang, *numbers]):
                entry = found.setdefault((release, lang, number), {})
                entry[seq] = text
                entry[text] = seq
        return found

    def pair_all(self, hits: list[Hit]) -> Iterator[tuple[Hit, tuple]]:
        """Each hit with its other-language text where there is one, and a key that is the
        same for an item in either language."""
        rules = self._rules(hits)
        examples = self._examples(hits)
        for hit in hits:
            other = _other(hit.lang)
            title = text = None
            key: tuple = (hit.kind, hit.release, hit.number, hit.lang, hit.text)
            if hit.kind == "rule":
                key = ("rule", hit.release, hit.number)
                title, text = rules.get((hit.release, other, hit.number), (None, None))
            elif hit.kind == "example":
                seq = examples.get((hit.release, hit.lang, hit.number), {}).get(hit.text)
                if seq is not None:
                    key = ("example", hit.release, hit.number, seq)
                    text = examples.get((hit.release, other, hit.number), {}).get(seq)
            elif hit.kind == "glossary" and self.has_pairs:
                mine, theirs = ("term_en", "term_ja") if hit.lang == "en" else ("term_ja", "term_en")
                rows = self.db.execute(
                    f"select id, {theirs}, definition_{other} from glossary_pairs"
                    f" where release = ? and {mine} = ? and {theirs} is not null order by id",
                    [hit.release, hit.title]).fetchall()
                if rows:
                    title = " / ".join(r[1] for r in rows)
                    text = "\n".join(r[2] or "" for r in rows)
                    key = ("glossary", hit.release, min(r[0] for r in rows))
            if title is None and text is None:
                yield hit, key
            else:
                yield replace(hit, lang_other=other, title_other=title, text_other=text), key


def _other(lang: str) -> str:
    return "ja" if lang == "en" else "en"
