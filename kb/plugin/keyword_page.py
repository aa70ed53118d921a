"""The keyword pages: ``/-/keywords/<name>`` by English or Japanese name, and ``/-/keywords``.

``/-/keywords/discover``, ``/-/keywords/Discover`` and ``/-/keywords/発見``
are one page, and so are ``/-/keywords/倾探`` (Chinese) and the Korean name:
the keyword's names and glossary definitions in English, Japanese, Chinese and
Korean where the database has them, its rule with every subrule side by side
(English and Japanese; ``?with=zh`` or ``ko`` for another), its rule numbers
today and every number it has had, every wiki ruling, every card ruling that
speaks of it, every card that uses it, and every scenario of the executable
rules for it, each with a "run" control, and what the executable rules cover of
it: its module, each subrule implemented / out of reach (with the reason) /
missing, and each CR example with its scenario (:mod:`kb.coverage`). ``?show=both|en|ja|zh|ko`` shows one
language (``show=zh`` puts the Chinese rule beside the English);
``.json`` (or ``?_format=json``) gives the same data.

``/-/keywords`` lists the keyword actions (701) and abilities (702) of the
newest release with their Japanese names, which the home page shows too.

A name is found, in order, among the actions of ``executable_rules``
(``find_action``), the titles of rules 701 and 702 of the newest English
release, the Japanese names of ``keyword_names`` (rule titles and glossary
terms), the Chinese and Korean names of ``keyword_translations`` and the
wiki's ``keywords``.
"""

from __future__ import annotations

import difflib
import os
import re
from kb.sqlite import sqlite3
import unicodedata
from typing import Any
from urllib.parse import quote, unquote

from datasette.utils.asgi import Response

from kb.coverage import coverage as coverage_report
from kb.coverage import keyword_coverage
from kb.database import RuleNotFound, UnknownRelease

from . import fragments, links, resolution
from .rule_page import (
    HTML,
    LANGUAGES,
    BadParameter,
    HtmlCache,
    PageCache,
    cached_read,
    error_response,
    file_facts,
    newest_whole,
    page_context,
    parse_rule_args,
    read_rule,
    release_index,
    table_names,
    wants_json,
)

MAX_NAME = 80
# The translations shown beside English and Japanese when the database has them.
TRANSLATIONS = ("zh", "ko")
LANGUAGE_NAMES = {"zh": "Chinese", "ko": "Korean"}


class KeywordNotFound(LookupError):
    pass


def normalize_name(name: str) -> str:
    """NFKC, trimmed, single spaces (``Ｄｉｓｃｏｖｅｒ`` → ``Discover``)."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", name)).strip()


def keyword_list(conn: sqlite3.Connection) -> dict:
    """The keyword actions and abilities of the newest English release, each with its Japanese title
    in the newest Japanese release not after it (paired by lineage, else by number)."""
    tables = table_names(conn)
    releases = release_index(conn)
    release = newest_whole(releases, "en")
    if release is None:
        return {"release": None, "release_ja": None, "keywords": []}
    ja_release = newest_whole(releases, "ja", not_after=release)
    if "rule_lineage" in tables and ja_release:
        sql = """
            select en.number, en.title, en.parent, ja.number, ja.title
            from rules en
            left join rule_lineage le on le.lang = 'en' and le.release = en.release and le.number = en.number
            left join rule_lineage lj on lj.lineage_id = le.lineage_id and lj.lang = 'ja' and lj.release = :ja
            left join rules ja on ja.release = :ja and ja.lang = 'ja' and ja.number = lj.number
            where en.release = :en and en.lang = 'en' and en.kind = 'numbered' and en.parent in ('701', '702')
            order by en.position"""
    else:
        sql = """
            select en.number, en.title, en.parent, ja.number, ja.title
            from rules en left join rules ja on ja.release = :ja and ja.lang = 'ja' and ja.number = en.number
            where en.release = :en and en.lang = 'en' and en.kind = 'numbered' and en.parent in ('701', '702')
            order by en.position"""
    names_ja = {}
    if "keyword_names" in tables and ja_release:
        for name_en, name_ja in conn.execute(
                "select name_en, name_ja from keyword_names where release = ? and source = 'glossary'", [ja_release]):
            names_ja.setdefault(name_en.casefold(), name_ja)
    with_scenarios = {s.keyword for s in resolution.library().scenarios.values()}
    keywords = []
    for number, title, parent, number_ja, title_ja in conn.execute(sql, {"en": release, "ja": ja_release}):
        if not title:
            continue
        keywords.append({
            "number": number, "title": title, "kind": "keyword action" if parent == "701" else "keyword ability",
            "number_ja": number_ja, "title_ja": title_ja, "name_ja": names_ja.get(title.casefold()) or title_ja,
            "has_scenarios": title in with_scenarios, "url": f"/-/keywords/{quote(title.lower())}",
        })
    return {"release": release, "release_ja": ja_release, "keywords": keywords}


def find_keyword(conn: sqlite3.Connection, name: str, *, suggest: bool = True) -> tuple[str, str, str]:
    """``(English title, newest release having it, its number there)`` for ``name`` in either language;
    :class:`KeywordNotFound` (with the nearest keyword when ``suggest``) otherwise."""
    tables = table_names(conn)
    wanted = normalize_name(name)
    candidates = [wanted]
    try:
        from executable_rules.actions import UnknownAction, find_action

        try:
            candidates.insert(0, find_action(wanted).KEYWORD)
        except UnknownAction:
            pass
    except ImportError:  # pragma: no cover - the package is part of the project
        pass
    if "keyword_names" in tables:
        candidates += [r[0] for r in conn.execute(
            "select name_en from keyword_names where name_ja = ? or match_ja = ? or lower(name_en) = lower(?)"
            " order by source = 'rule' desc, release desc", [wanted, wanted, wanted])]
    if "keyword_translations" in tables:
        candidates += [r[0] for r in conn.execute(
            "select name_en from keyword_translations where name = ?"
            " order by source = 'rule' desc, release desc", [wanted])]
    if "keywords" in tables:
        candidates += [r[0] for r in conn.execute(
            "select name_en from keywords where name_ja = ? or lower(name_en) = lower(?)", [wanted, wanted])]
    candidates += [r[0] for r in conn.execute(
        "select coalesce(title_en, title) from rules where lang = 'ja' and kind = 'numbered'"
        " and parent in ('701', '702') and title = ? order by release desc limit 1", [wanted])]
    # The title as written first (the title index answers it: "+kind" keeps the planner off the kind
    # index, which nearly every rule matches), then in any case (a scan, for names typed in lower case).
    for collation in ("", " collate nocase"):
        for candidate in dict.fromkeys(c for c in candidates if c):
            row = conn.execute(
                "select title, release, number from rules where lang = 'en' and +kind = 'numbered'"
                f" and parent in ('701', '702') and title = ?{collation} order by release desc limit 1",
                [candidate]).fetchone()
            if row:
                return row[0], row[1], row[2]
    if not suggest:
        raise KeywordNotFound(f"no keyword {name!r}")
    known = [k["title"] for k in keyword_list(conn)["keywords"]]
    near = difflib.get_close_matches(wanted.title(), known, n=1, cutoff=0.6)
    hint = f"; did you mean {near[0]!r}?" if near else "; see /-/keywords for every keyword"
    raise KeywordNotFound(f"no keyword {name!r} in the rules 701 and 702 of any release{hint}")


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _nocase(text: str | None) -> str:
    """SQLite's NOCASE: ASCII letters folded, nothing else (``Ａ`` stays).

    >>> _nocase("Double Strike"), _nocase("É")
    ('double strike', 'É')
    """
    return (text or "").translate(_ASCII_LOWER)


# Each served file's translated keyword names and glossary entries, by (lang, English name), read once:
# looked up by ``name_en = ? collate nocase`` they were two scans of each table per keyword page.
_TRANSLATIONS = PageCache(4)


def translation_index(conn: sqlite3.Connection, tables: set[str], path: str | None) -> dict:
    """``{"names": {(lang, name): (name, release, number)}, "glossary": {(lang, term): (term, definition,
    release)}}``: the first row of each as the page's queries ordered them (newest release, the rule's
    name before the glossary's)."""
    try:
        stat = os.stat(path) if path else None
    except OSError:
        stat = None
    key = (path, stat.st_mtime_ns, stat.st_size) if stat else None
    found = _TRANSLATIONS.get(key) if key else None
    if found is not None:
        return found
    names: dict[tuple[str, str], tuple] = {}
    glossary: dict[tuple[str, str], tuple] = {}
    if "keyword_translations" in tables:
        for lang, name_en, name, release, number in conn.execute(
                "select lang, name_en, name, release, number from keyword_translations"
                " order by release desc, source = 'rule' desc"):
            names.setdefault((lang, _nocase(name_en)), (name, release, number))
    if "glossary_translations" in tables:
        for lang, term_en, term, definition, release in conn.execute(
                "select lang, term_en, term, definition, release from glossary_translations"
                " where definition is not null order by release desc"):
            glossary.setdefault((lang, _nocase(term_en)), (term, definition, release))
    found = {"names": names, "glossary": glossary}
    if key:
        _TRANSLATIONS.put(key, found)
    return found


def read_translations(conn: sqlite3.Connection, tables: set[str], releases: dict, title: str,
                      path: str | None = None) -> dict:
    """The keyword's name, rule number and glossary definition in each of :data:`TRANSLATIONS`:
    ``{lang: {...}}``, or ``{lang: None}`` with a note when that language's CR lacks the keyword."""
    out: dict[str, Any] = {}
    index = translation_index(conn, tables, path)
    for lang in TRANSLATIONS:
        whole = sorted(r for r, c in releases.get(lang, {}).items() if c == "whole")
        if not whole:
            continue  # the database has no such CR: say nothing
        entry = None
        row = index["names"].get((lang, _nocase(title)))
        if row:
            entry = {"name": row[0], "release": row[1], "number": row[2], "glossary": None}
            term = index["glossary"].get((lang, _nocase(title)))
            if term:
                entry["glossary"] = {"term": term[0], "definition": term[1], "release": term[2]}
        if entry:
            out[lang] = entry
        else:
            names = ", ".join(whole)
            out[lang] = None
            out[f"{lang}_note"] = f"{title} is in none of the {LANGUAGE_NAMES[lang]} CRs we have ({names})"
    return out


def read_keyword(conn: sqlite3.Connection, path: str | None, name: str,
                 pair: tuple[str, str] | None = None) -> dict:
    """Everything the keyword page shows, as plain data; ``pair``: the rule's two languages side by side."""
    tables, releases = file_facts(conn, path)
    title, release, number = find_keyword(conn, name)
    newest_en = newest_whole(releases, "en")
    rule = read_rule(conn, path, number, release, pair)
    ja_release = rule["releases"].get("ja")
    title_ja = rule["title"].get("ja")
    name_ja = None
    if "keyword_names" in tables:
        row = conn.execute("select name_ja from keyword_names where name_en = ? collate nocase"
                           " order by source = 'glossary' desc, release desc limit 1", [title]).fetchone()
        name_ja = row[0] if row else None
    glossary: dict[str, Any] = {"en": None, "ja": None}
    row = conn.execute("select term, definition from glossary where release = ? and lang = 'en' and term = ? collate nocase",
                       [release, title]).fetchone()
    if row:
        glossary["en"] = {"term": row[0], "definition": row[1], "release": release}
    if "glossary_pairs" in tables and ja_release:
        row = conn.execute("select term_ja, definition_ja from glossary_pairs where release = ?"
                           " and term_en = ? collate nocase and term_ja is not null", [ja_release, title]).fetchone()
        if row:
            glossary["ja"] = {"term": row[0], "definition": row[1], "release": ja_release}
    wiki = None
    if "keywords" in tables:
        # the wiki may name the keyword shorter than the CR (Villainous Choice for Face a Villainous Choice)
        row = conn.execute("select name_ja, kind, kind_ja, page_id, page_title, cr_release, cr_number, page_en_id,"
                           " page_en_title from keywords where lower(name_en) = lower(?)"
                           " or lower(?) like '% ' || lower(name_en) order by lower(name_en) = lower(?) desc limit 1",
                           [title, title, title]).fetchone()
        if row:
            wiki = dict(zip(("name_ja", "kind", "kind_ja", "page_id", "page_title", "cr_release", "cr_number",
                             "page_en_id", "page_en_title"), row))
            if "wiki_pages" in tables and wiki["page_id"]:
                page = conn.execute("select definition, source from wiki_pages where id = ?", [wiki["page_id"]]).fetchone()
                if page:
                    wiki["definition"], wiki["source"] = page
            # the English MTG Wiki's page of the keyword, shown beside the Japanese one
            wiki["en_page"] = None
            if "wiki_pages" in tables and wiki["page_en_id"]:
                page = conn.execute("select id, title, definition, source, partial from wiki_pages where id = ?",
                                    [wiki["page_en_id"]]).fetchone()
                if page:
                    wiki["en_page"] = dict(zip(("id", "title", "definition", "source", "partial"), page))
            name_ja = name_ja or wiki["name_ja"]
    numbers = []
    for run in rule.get("history", []):
        if run["lang"] != "en" or run["completeness"] != "whole":
            continue
        if numbers and numbers[-1]["number"] == run["number"]:
            numbers[-1]["last_release"] = run["last_release"]
        else:
            numbers.append({"number": run["number"], "first_release": run["first_release"],
                            "last_release": run["last_release"]})
    scenarios = {s["id"]: s for s in resolution.scenarios_for_keyword(title)}
    for s in rule["scenarios"]:
        scenarios.setdefault(s["id"], s)
    form = None
    try:
        from executable_rules.actions import UnknownAction, find_action, module_name

        try:
            key = module_name(find_action(title))
            form = f"/-/run/{key}" if key in resolution.FORMS else None
        except UnknownAction:
            pass
    except ImportError:  # pragma: no cover
        pass
    return {
        "ok": True, "name": name, "title": title, "title_ja": title_ja, "name_ja": name_ja,
        "kind": "keyword action" if number.startswith("701.") else "keyword ability",
        "kind_ja": "キーワード処理" if number.startswith("701.") else "キーワード能力",
        "current": {"en": {"release": release, "number": number},
                    "ja": {"release": ja_release, "number": next(
                        (r["ja"]["number"] for r in rule["rows"] if r.get("ja") and r.get("en")
                         and r["en"]["number"] == number), None)} if ja_release else None},
        "is_current": release == newest_en,
        "numbers": numbers, "glossary": glossary, "wiki": wiki, "rule": rule,
        "translations": read_translations(conn, tables, releases, title, path),
        "rulings": rule["rulings"], "card_rulings": rule["card_rulings"], "cards": rule["cards"],
        "card_count": rule.get("card_count"),
        "scenarios": list(scenarios.values()), "form": form, "missing": rule["missing"],
        "coverage": coverage_of(conn, path, title) if release == newest_en else None,
    }


# The coverage of every keyword of a served (immutable) file, worked out once (50-100 ms) and kept:
# one keyword's alone is 15-30 ms, each time a keyword page is first read.
_COVERAGE = PageCache(4)
_COVERAGE_DICTS = PageCache(1024)


def coverage_of(conn: sqlite3.Connection, path: str | None, title: str) -> dict | None:
    """:func:`kb.coverage.keyword_coverage`, from the whole report kept per served file."""
    try:
        stat = os.stat(path) if path else None
    except OSError:
        stat = None
    if stat is None:
        return keyword_coverage(conn, title)
    key = (path, stat.st_mtime_ns, stat.st_size)
    kept = _COVERAGE_DICTS.get((*key, title))
    if kept is not None:
        return kept[0]
    report = _COVERAGE.get(key)
    if report is None:
        report = coverage_report(conn)
        _COVERAGE.put(key, report)
    found = report.find(title)
    # as_dict is a deep copy of dataclasses (7 ms for Manifest's): once per keyword. Callers don't change it.
    out = found.as_dict() if found else None
    _COVERAGE_DICTS.put((*key, title), (out,))
    return out


async def warm(datasette) -> None:
    """Work the coverage report out, and each keyword's part of it, before the first keyword page asks
    for it (a server's startup)."""
    try:
        db = datasette.get_database()
    except KeyError:
        return
    if db.is_mutable or not db.path:
        return
    def fill(conn):
        # The report, then each keyword's part of it as the page reads it (a deep copy, 1-7 ms each).
        coverage_of(conn, db.path, "")
        stat = os.stat(db.path)
        report = _COVERAGE.get((db.path, stat.st_mtime_ns, stat.st_size))
        for keyword in (report.keywords if report is not None else []):
            coverage_of(conn, db.path, keyword.title)

    try:
        await db.execute_fn(fill)
    except Exception as e:  # noqa: BLE001 - a database without the tables: the pages say so themselves
        import logging

        logging.getLogger("kb.serve").info("keyword coverage not warmed: %s", e)


def parse_keyword_args(args) -> dict:
    """Validate a keyword page's query string as the rule page does (``show``, ``lang``, ``with``).

    >>> parse_keyword_args({"show": "zh"})
    {'show': 'zh', 'pair': ('en', 'zh')}
    >>> parse_keyword_args({"with": "ko"})
    {'show': 'both', 'pair': ('en', 'ko')}
    >>> parse_keyword_args({"release": "20231117"})
    Traceback (most recent call last):
    ...
    kb.plugin.rule_page.BadParameter: a keyword page has no release: it shows the keyword's newest rule
    """
    if args.get("release"):
        raise BadParameter("a keyword page has no release: it shows the keyword's newest rule")
    parsed = parse_rule_args(args)
    show, pair = parsed["show"], parsed.get("pair")
    if show not in ("both", "en") and show not in (pair or ("en", "ja")):
        # show=zh: the Chinese rule, so beside the English.
        pair = ("en", show) if show != "en" else pair
    out = {"show": show}
    if pair and pair != ("en", "ja"):
        out["pair"] = pair
    return out


async def keyword_view(datasette, request):
    as_json = wants_json(request)
    # Datasette matches routes on the raw path: /-/keywords/%E7%99%BA%E8%A6%8B is 発見.
    name = unquote(request.url_vars["name"])
    if len(name) > MAX_NAME:
        return await error_response(datasette, request, as_json, 400,
                                    f"name is {len(name)} characters long; at most {MAX_NAME} are accepted", title="Keyword")
    try:
        params = parse_keyword_args(request.args)
    except BadParameter as e:
        return await error_response(datasette, request, as_json, 400, str(e), title="Keyword")
    db = datasette.get_database()
    try:
        data = await cached_read(db, ("keyword", normalize_name(name).casefold(), params.get("pair")),
                                 lambda conn: read_keyword(conn, db.path, name, params.get("pair")))
    except (KeywordNotFound, RuleNotFound) as e:
        return await error_response(datasette, request, as_json, 404, str(e), title="Keyword")
    except UnknownRelease as e:
        return await error_response(datasette, request, as_json, 400, str(e), title="Keyword")
    data = {**data, "name": name}  # kept once per keyword, whichever name asked first
    if as_json:
        return Response.json(data)
    html_key = HtmlCache.key(db, request, "keyword")
    html = HTML.get(html_key)
    if html is not None:
        return Response.html(html)
    key = ("keyword", normalize_name(name).casefold(), params.get("pair"))
    page = dict(data)
    page["rule"] = await page_context(datasette, request, db, data["rule"], params["show"], key=key)
    page["json_url"] = page["rule"]["json_url"]
    for part in ("rulings", "card_rulings", "cards"):
        page[part] = page["rule"][part]
    page["scenarios"] = [{**sc, "page_url": datasette.urls.path(sc["url"]),
                          "rule_links": [(n, links.rule_url(datasette, n)) for n in sc["rules"]]}
                         for sc in data["scenarios"]]
    page["show"] = params["show"]
    page["database"] = db.name
    page["glossary_html"] = {lang: links.link_text(entry["definition"], datasette, release=entry["release"])
                             for lang, entry in data["glossary"].items() if entry}
    page["translations"] = {
        lang: {**entry,
               "rule_url": datasette.urls.path(f"/-/rules/{entry['number']}?release={entry['release']}&lang={lang}&with=en"),
               "glossary_html": links.link_text(entry["glossary"]["definition"], datasette,
                                                release=entry["glossary"]["release"]) if entry["glossary"] else None}
        if isinstance(entry, dict) else entry
        for lang, entry in data["translations"].items()}
    page["languages"] = LANGUAGES
    html = await fragments.render_page(datasette, "kb_keyword.html", page, request)
    HTML.put(html_key, html)
    return Response.html(html)


async def keywords_view(datasette, request):
    as_json = wants_json(request)
    db = datasette.get_database()
    data = await cached_read(db, ("keywords",), keyword_list)
    if as_json:
        return Response.json({"ok": True, **data})
    return Response.html(await datasette.render_template("kb_keywords.html", data, request=request))


ROUTES = [
    (r"^/-/keywords(?:\.(?P<format>json))?$", keywords_view),
    (r"^/-/keywords/(?P<name>[^/]+?)(?:\.(?P<format>json))?$", keyword_view),
]
