"""Stale citations: a rule cited by a number that no longer (or never) names what the text is about.

Rule numbers move, and what cites them does not follow: a wiki page about
Discover quotes 701.55, Discover's number when it arrived, but 701.55 has
been “Face a Villainous Choice” since 20250606. This module finds such
citations in every text that cites rules by number — wiki pages (their prose
and their quoted CR blocks), rulings, card rulings, and our own docstrings,
comments and scenario files — and says which number to cite now. The
translated CRs are checked too, inside themselves: a Japanese rule citing
``rule 725〔ゲームを再び開始する〕`` when that title is 726 in the same release
(:func:`find_stale_cross_references`).

Each citation is read in **the release it was written for**: the release a
quoted block names (``引用：総合ルール 20260807.0``), else the newest release
before the document's date, else the newest release; a release the database
does not have is read as the newest English release before it. A number that
release lacks but the next one has is read in the next one: rulings and
release notes written a week before a release cite its numbers. Then we work
out **what the citing text is about**, from the first of:

1. a title printed beside the number: ``701.55 最悪の二択を行う／Face a
   Villainous Choice``, ``701.57, “Discover”``, ``rule 701.19〔再生する〕``,
   ``Discover — CR 701.57`` (a name counts only when it is the title of a
   rule of some release, in English or Japanese);
2. for a quoted CR block on a page about a keyword, the page's keyword
   (``発見/Discover``), when the block quotes rules of that keyword's family
   (701 or 702) but not the keyword's own rule: the quote was meant to define
   the keyword;
3. for other citations of the keyword's family (701.x on a keyword-action
   page or module), the document's keyword;
4. for a quoted rule with no title, its text: the rule of that release whose
   text it is.

A citation is **stale** when the rule its number names in that release is
not what it is about (``wrong-rule``), when that rule has moved since and the
number now names something else or nothing (``moved``), when the rule has
been removed since (``removed``), or when the number does not exist in the
release it was written for (``missing``). The suggestion is the number the
rule it is about has in the newest release, found through the lineages of
:mod:`kb.lineage`; for a subrule, the subrule of that rule the old one became
or whose text is closest to it, else the numbered rule alone
(:func:`suggest_subrule`).

A line that cites a stale number on purpose (a doctest showing a check
catch one) says so with ``stale on purpose`` or ``kb: ignore-stale`` and is
left out.

What we read is whatever the database has: wiki tables, ruling tables and
quoted excerpts are read when present and skipped when absent, with columns
found by name (:data:`TEXT_COLUMNS`, ...), so the check keeps working as
those tables grow.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

import sqlite_utils

from ingest.records import IngestProblem
from ingest.rule_refs import find_citations, parent_number, rule_kind

from .corpus import PROJECT_ROOT, CorpusNotFound, find_corpus
from .history import normalize_text, title_key, word_similarity

# --- what is read ------------------------------------------------------------------


@dataclass(frozen=True)
class CitingText:
    """A text that cites rules by number, with what is known about where it comes from.

    ``line`` is the line of the text's first line in ``source``;
    ``written_for`` is a release the text names (a quoted block's label);
    ``date`` (``YYYYMMDD``) is when the document was written; ``keywords``
    are names of what the whole document is about (``("発見", "Discover")``);
    ``quoted`` marks a quoted CR block, whose line-leading numbers are the
    rules it quotes; ``lines`` gives the source line of each line of text
    when they are not consecutive (quoted rules read back from the database);
    ``title`` is what a reader calls the source (a wiki page's title, a card's
    name), shown instead of its file.
    """

    source_kind: str
    source: str
    line: int
    text: str
    written_for: str | None = None
    date: str | None = None
    keywords: tuple[str, ...] = ()
    quoted: bool = False
    lines: tuple[int, ...] | None = None  # the source line of each line of text, when not consecutive
    title: str | None = None

    def line_of(self, offset: int) -> int:
        """The source line of line ``offset`` (0-based) of the text."""
        if self.lines is not None and offset < len(self.lines):
            return self.lines[offset]
        return self.line + offset


@dataclass
class StaleCitation:
    """One stale citation, with the number to cite now."""

    source_kind: str
    source: str
    line: int
    cited: str
    cited_number: str
    written_for: str | None
    read_in: str
    about: str | None
    about_from: str | None
    cited_title: str | None
    reason: str
    suggested_number: str | None
    suggested_title: str | None
    message: str
    source_title: str | None = None  # the wiki page's title (発見), the card's name: what a reader calls it

    def as_dict(self) -> dict:
        return asdict(self)

    def as_row(self) -> tuple:
        return tuple(asdict(self).values())

    def __str__(self) -> str:
        return f"{self.source_title or self.source}:{self.line}: {self.message}"


# --- reading documents ---------------------------------------------------------------

# "引用：総合ルール 20260807.0" — a wiki page's quoted CR block and its release.
QUOTE_LABEL = re.compile(r"引用\s*[：:]\s*総合ルール\s*(?P<release>\d{8})(?:\.\d+)?")
# A quoted item: bullets or dashes, then a number, then its title or text.
_QUOTED_ITEM = re.compile(r"^[\s•\-*・]*(?P<number>\d(?:\d\d(?:\.\d+[a-z]?)?)?)\.?\s+(?P<rest>\S.*)$")
# "発見/Discover", "探検（たんけん）/Explore": a Japanese name with its English one.
_BILINGUAL_NAME = re.compile(
    r"(?P<ja>[^\s/／、。「」『』（）()]{1,20})(?:[（(][^）)]{1,20}[）)])?\s*[/／]\s*(?P<en>[A-Z][A-Za-z' -]{1,40}[A-Za-z])"
)
_DATE = re.compile(r"(?P<y>(?:19|20)\d\d)[-/年.]?(?P<m>\d{1,2})[-/月.]?(?P<d>\d{1,2})")


def wiki_texts(text: str, source: str, *, source_kind: str = "wiki_page", date: str | None = None,
               keywords: tuple[str, ...] = (), first_line: int = 1, title: str | None = None) -> list[CitingText]:
    """Split a rendered wiki page into its prose and its quoted CR blocks.

    The page's keyword is its first line (the page title) and the first
    ``日本語名/English name`` pair near the top, unless ``keywords`` are given;
    its title is ``title`` or else that first line.

    >>> parts = wiki_texts("発見\\n\\n発見/Discoverはキーワード処理。\\n引用：総合ルール 20260807.0\\n• 701.55 最悪の二択を行う", "p.txt")
    >>> [(p.quoted, p.written_for, p.line, p.keywords, p.title) for p in parts]
    [(False, None, 1, ('発見', 'Discover'), '発見'), (True, '20260807', 4, ('発見', 'Discover'), '発見')]
    """
    lines = text.split("\n")
    if not keywords:
        keywords = page_keywords(text)
    title = title or page_title(text)
    out: list[CitingText] = []
    prose: list[str] = []
    prose_start = 0
    i = 0
    while i < len(lines):
        label = QUOTE_LABEL.search(lines[i])
        if not label:
            prose.append(lines[i])
            i += 1
            continue
        if prose:
            out.append(CitingText(source_kind, source, first_line + prose_start, "\n".join(prose),
                                  None, date, keywords, title=title))
        start = i
        i += 1
        block = [lines[start]]
        while i < len(lines) and not QUOTE_LABEL.search(lines[i]) and (
                not lines[i].strip() or _QUOTED_ITEM.match(lines[i]) or lines[i][:1].isspace()):
            block.append(lines[i])
            i += 1
        out.append(CitingText("wiki_quote", source, first_line + start, "\n".join(block),
                              label.group("release"), date, keywords, quoted=True, title=title))
        prose, prose_start = [], i
    if prose and any(line.strip() for line in prose):
        out.append(CitingText(source_kind, source, first_line + prose_start, "\n".join(prose), None, date, keywords,
                              title=title))
    return out


def page_title(text: str) -> str | None:
    """A rendered wiki page's title: its first line, when it is short enough to be one.

    >>> page_title("\\n探検\\n探検（たんけん）/Exploreとは"), page_title("")
    ('探検', None)
    """
    first = next((line.strip() for line in text.split("\n") if line.strip()), None)
    return first if first and len(first) <= 40 else None


def page_keywords(text: str) -> tuple[str, ...]:
    """What a wiki page is about: its title (first line) and its ``日本語/English`` name near the top.

    >>> page_keywords("探検\\n探検（たんけん）/Exploreとは、キーワード処理。")
    ('探検', 'Explore')
    """
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if not lines:
        return ()
    title = lines[0]
    names = [title] if len(title) <= 40 else []
    for line in lines[:12]:
        for m in _BILINGUAL_NAME.finditer(line):
            if m.group("ja") == title or m.group("ja").startswith(title) or not names:
                names.append(m.group("en"))
                return tuple(dict.fromkeys(names))
    return tuple(names)


KEYWORD_ASSIGNMENT = re.compile(r"^\s*(?:KEYWORD|keyword)\s*[:=]\s*[\"'](?P<name>[^\"']+)[\"']", re.M)


def python_texts(path: Path, source: str) -> list[CitingText]:
    """Docstrings and comments of a Python file; its keyword from ``KEYWORD = "..."``."""
    code = path.read_text(encoding="utf-8")
    m = KEYWORD_ASSIGNMENT.search(code)
    keywords = (m.group("name"),) if m else ()
    out: list[CitingText] = []
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return [CitingText("code", source, 1, code, keywords=keywords)]
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.append(CitingText("code", source, body[0].lineno, body[0].value.value, keywords=keywords))
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                out.append(CitingText("code", source, tok.start[0], tok.string, keywords=keywords))
            elif tok.type == tokenize.STRING and "CR" in tok.string and not tok.string.startswith(('"""', "'''")):
                # Messages such as IllegalChoice("... Discover — CR 701.57a ...").
                out.append(CitingText("code", source, tok.start[0], tok.string, keywords=keywords))
    except (tokenize.TokenError, IndentationError):
        pass
    return out


def scenario_texts(path: Path, source: str) -> list[CitingText]:
    """A scenario file (TOML) read as text; its keyword from ``keyword = "..."``."""
    text = path.read_text(encoding="utf-8")
    m = KEYWORD_ASSIGNMENT.search(text)
    return [CitingText("scenario", source, 1, text, keywords=(m.group("name"),) if m else ())]


def code_texts(root: Path = PROJECT_ROOT) -> list[CitingText]:
    """Our own citing texts: ``executable_rules/`` (Python and TOML) and ``data/scenarios/*.toml``."""
    out: list[CitingText] = []
    package = root / "executable_rules"
    for path in sorted(package.rglob("*.py")) if package.is_dir() else []:
        out.extend(python_texts(path, path.relative_to(root).as_posix()))
    tomls = sorted(package.rglob("*.toml")) if package.is_dir() else []
    scenarios = root / "data" / "scenarios"
    tomls += sorted(scenarios.rglob("*.toml")) if scenarios.is_dir() else []
    for path in tomls:
        out.extend(scenario_texts(path, path.relative_to(root).as_posix()))
    return out


# Columns looked for in the tables of other sources, by name: every text
# column present is read; the first date, source and line column found is used.
TEXT_COLUMNS = ("text", "ruling", "body", "content", "wikitext", "rendered", "definition", "note")
DATE_COLUMNS = ("date", "ruling_date", "published", "revision_date", "revision", "updated")
SOURCE_COLUMNS = ("source", "sources", "url", "path", "page", "card", "card_name", "name", "title")
LINE_COLUMNS = ("line",)
TITLE_COLUMNS = ("title", "page_title", "card", "card_name")
KEYWORD_COLUMNS = ("keyword", "keyword_en", "name_ja", "name_en", "title", "title_en", "page_title",
                   "english_name")
CITING_TABLES = (("wiki_pages", "wiki_page"), ("rulings", "ruling"), ("card_rulings", "card_ruling"))


def _first(columns: Iterable[str], wanted: tuple[str, ...]) -> str | None:
    have = set(columns)
    return next((c for c in wanted if c in have), None)


def parse_date(value) -> str | None:
    """``YYYYMMDD`` from a date in most forms, or None.

    >>> parse_date("2023-11-03"), parse_date("2023年11月3日"), parse_date(None)
    ('20231103', '20231103', None)
    """
    if not value:
        return None
    m = _DATE.search(str(value))
    if not m:
        return None
    return f"{m.group('y')}{int(m.group('m')):02d}{int(m.group('d')):02d}"


def database_texts(db: sqlite_utils.Database) -> Iterator[CitingText]:
    """Citing texts from the tables present: wiki pages, rulings, card rulings, quoted excerpts.

    Prose is read in the release of its date (a ruling's date, a page
    revision's date) or else the newest release; only a quoted block is read
    in the release it names. A card ruling has no keyword (the card's name is
    not what a rule is titled); wiki pages and their rulings have the page's.
    """
    tables = set(db.table_names())
    for table, kind in CITING_TABLES:
        if table not in tables:
            continue
        columns = list(db[table].columns_dict)
        text_cols = [c for c in TEXT_COLUMNS if c in columns]
        if not text_cols:
            continue
        date_col = _first(columns, DATE_COLUMNS)
        source_col = _first(columns, SOURCE_COLUMNS)
        line_col = _first(columns, LINE_COLUMNS)
        title_col = _first(columns, TITLE_COLUMNS)
        keyword_cols = [c for c in KEYWORD_COLUMNS if c in columns] if kind != "card_ruling" else []
        for i, row in enumerate(db[table].rows, 1):
            texts = [row[c] for c in text_cols if isinstance(row[c], str) and _CITES.search(row[c])]
            if not texts:
                continue
            source = str(row[source_col]) if source_col and row[source_col] else f"{table}:{i}"
            line = int(row[line_col]) if line_col and row[line_col] else 1
            date = parse_date(row[date_col]) if date_col else None
            keywords = tuple(dict.fromkeys(str(row[c]) for c in keyword_cols if row[c]))
            title = str(row[title_col]) if title_col and row[title_col] else None
            for text in texts:
                if kind == "wiki_page":
                    yield from wiki_texts(text, source, source_kind=kind, date=date,
                                          keywords=keywords or page_keywords(text), first_line=line, title=title)
                else:
                    yield CitingText(kind, source, line, text, date=date, keywords=keywords, title=title)
    yield from excerpt_texts(db)


_CITES = re.compile(r"\d{3}\.\d")


EXCERPT_SQL = """
select r.release, r.lang, r.number, r.title, r.title_en, r.text, r.source, r.line
from rules r join releases rel on rel.release = r.release and rel.lang = r.lang
where rel.completeness = 'excerpt'
order by r.source, r.release, r.position
"""


def excerpt_texts(db: sqlite_utils.Database) -> Iterator[CitingText]:
    """Quoted CR blocks stored as excerpt releases: one text per (page, release), items as lines."""
    if "rules" not in db.table_names() or "releases" not in db.table_names():
        return
    blocks: dict[tuple[str, str], list[dict]] = {}
    for row in db.query(EXCERPT_SQL):
        blocks.setdefault((row["source"] or "", row["release"]), []).append(row)
    keywords_of: dict[str, tuple[str, ...]] = {}
    title_of: dict[str, str] = {}
    if "wiki_pages" in db.table_names():
        columns = list(db["wiki_pages"].columns_dict)
        source_col, text_col = _first(columns, SOURCE_COLUMNS), _first(columns, TEXT_COLUMNS)
        title_col = _first(columns, TITLE_COLUMNS)
        keyword_cols = [c for c in KEYWORD_COLUMNS if c in columns]
        if source_col:
            for row in db["wiki_pages"].rows:
                names = tuple(str(row[c]) for c in keyword_cols if row[c])
                if not names and text_col and isinstance(row[text_col], str):
                    names = page_keywords(row[text_col])
                keywords_of[str(row[source_col])] = names
                if title_col and row[title_col]:
                    title_of.setdefault(str(row[source_col]), str(row[title_col]))
    for (source, release), rows in blocks.items():
        lines = []
        first = rows[0]["line"] or 1
        numbers = [first - 1] + [row["line"] or first for row in rows]
        for row in rows:
            title = row["title"]
            if title and row["title_en"] and row["title_en"] not in title:
                title = f"{title}／{row['title_en']}"
            lines.append(f"{row['number']} {title or row['text'] or ''}".rstrip())
        keywords, title = keywords_of.get(source, ()), title_of.get(source)
        if not keywords or not title:
            page = _read_page(source)
            keywords = keywords or (page_keywords(page) if page else ())
            title = title or (page_title(page) if page else None)
        yield CitingText("wiki_quote", source, first - 1, f"引用：総合ルール {release}\n" + "\n".join(lines),
                         release, None, keywords, True, tuple(numbers), title)


def _read_page(source: str) -> str | None:
    """The text of a quoted block's page when ``source`` is a file (absolute or in the corpus)."""
    if not source or "://" in source:
        return None
    candidates = [Path(source)]
    try:
        candidates.append(find_corpus() / source)
    except CorpusNotFound:  # no corpus: the page's keyword stays unknown
        pass
    for path in candidates:
        if path.is_file():
            return path.read_text(encoding="utf-8", errors="replace")
    return None


# --- the rules as each release has them ------------------------------------------------


class RuleBook:
    """What numbers and titles mean in each English release, and where each rule went since."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db
        self.releases = [r[0] for r in db.execute(
            "select release from releases where lang = 'en' and completeness = 'whole' order by release")]
        if not self.releases:
            raise LookupError("the database has no English release; run `kb build`")
        self.newest = self.releases[-1]
        self.has_lineage = "rule_lineage" in db.table_names()
        self._rules: dict[tuple[str, str], dict[str, tuple]] = {}
        self._titled: dict[str, dict[str, list[str]]] = {}
        self._resolved: dict[str, str | None] = {}
        self.keyword_keys: set[str] = set()
        self.names = self._names()

    def read_in(self, written_for: str | None, date: str | None) -> str:
        """The English release to read a citation in; see the module docstring."""
        wanted = written_for or date
        if not wanted:
            return self.newest
        earlier = [r for r in self.releases if r <= wanted]
        return earlier[-1] if earlier else self.releases[0]

    def rules(self, release: str, lang: str = "en") -> dict[str, tuple]:
        """number → (kind, parent, title, text) in ``release`` (``lang``)."""
        if (release, lang) not in self._rules:
            self._rules[(release, lang)] = {
                r[0]: tuple(r[1:]) for r in self.db.execute(
                    "select number, kind, parent, title, text from rules where release = ? and lang = ?",
                    [release, lang])
            }
        return self._rules[(release, lang)]

    def next_release(self, release: str) -> str | None:
        """The English release after ``release``, or None."""
        later = [r for r in self.releases if r > release]
        return later[0] if later else None

    def whole_release(self, lang: str, wanted: str | None) -> str | None:
        """The whole release of ``lang`` nearest ``wanted`` (the newest before it, else the first)."""
        releases = [r[0] for r in self.db.execute(
            "select release from releases where lang = ? and completeness = 'whole' order by release", [lang])]
        if not releases:
            return None
        earlier = [r for r in releases if r <= (wanted or releases[-1])]
        return earlier[-1] if earlier else releases[0]

    def heading(self, release: str, number: str) -> tuple[str | None, str | None]:
        """(number, title) of the headed rule ``number`` belongs to: 701.55a → ('701.55', 'Face a Villainous Choice')."""
        rules = self.rules(release)
        while number:
            row = rules.get(number)
            if row is not None and row[2]:
                return number, row[2]
            if rule_kind(number) == "section":
                break
            number = parent_number(number)
        return None, None

    def number_titled(self, release: str, key: str) -> str | None:
        """The numbered rule (or rule) titled ``key`` (a :func:`title_key`) in ``release``."""
        titled = self._titled.get(release)
        if titled is None:  # indexed once per release: this is asked for every titled citation
            titled = self._titled[release] = {}
            for n, row in self.rules(release).items():
                if row[2] and row[0] in ("numbered", "rule"):
                    titled.setdefault(title_key(row[2]), []).append(n)
        found = titled.get(key, [])
        numbered = [n for n in found if rule_kind(n) == "numbered"]
        pick = numbered or found
        return pick[0] if len(pick) == 1 else None

    def forward(self, release: str, number: str) -> str | None:
        """The number of rule ``number`` of ``release`` in the newest release, None when gone."""
        if release == self.newest:
            return number if number in self.rules(release) else None
        if not self.has_lineage:
            return number if number in self.rules(self.newest) else None
        row = self.db.execute(
            "select n.number from rule_lineage o join rule_lineage n on n.lineage_id = o.lineage_id"
            " where o.lang = 'en' and o.release = ? and o.number = ? and n.lang = 'en' and n.release = ?",
            [release, number, self.newest],
        ).fetchone()
        return row[0] if row else None

    def numbers_over_time(self, number: str) -> list[tuple[str, str, str]]:
        """(first release, last release, number) runs of the lineage of ``number`` today."""
        if not self.has_lineage:
            return []
        rows = self.db.execute(
            "select n.release, n.number from rule_lineage o join rule_lineage n on n.lineage_id = o.lineage_id"
            " where o.lang = 'en' and o.release = ? and o.number = ? and n.lang = 'en' order by n.release",
            [self.newest, number],
        ).fetchall()
        runs: list[list[str]] = []
        for release, num in rows:
            if runs and runs[-1][2] == num:
                runs[-1][1] = release
            else:
                runs.append([release, release, num])
        return [tuple(r) for r in runs]

    def _names(self) -> dict[str, str]:
        """Every title of a headed rule (any release, English or Japanese) → its English title key."""
        names: dict[str, str] = {}
        # Keywords: the titled rules under 701 (keyword actions) and 702 (keyword abilities) today.
        for (title,) in self.db.execute(
                "select title from rules where release = ? and lang = 'en' and parent in ('701', '702')"
                " and title is not null", [self.newest]):
            self.keyword_keys.add(title_key(title))
        for title, title_en in self.db.execute(
                "select distinct title, title_en from rules where title is not null and kind in ('numbered', 'rule')"):
            key = title_key(title, title_en)
            if not key:
                continue
            for name in (title, title_en, *re.split(r"[／/]", title)):
                if name:
                    names.setdefault(name_key(name), key)
        if "glossary" in self.db.table_names():
            for term, term_en in self.db.execute(
                    "select term, term_en from glossary where lang != 'en' and term_en is not null"):
                key = title_key(term_en)
                if term and title_key(term_en) in names.values():
                    names.setdefault(name_key(term), key)
        return names

    def resolve_name(self, name: str) -> str | None:
        """The English title key a name stands for (``発見`` and ``発見を行う`` → ``discover``), or None."""
        if name in self._resolved:  # every suffix of the text before each citation is tried
            return self._resolved[name]
        found = self._resolved[name] = self._resolve_name(name)
        return found

    def _resolve_name(self, name: str) -> str | None:
        key = name_key(name)
        if not key:
            return None
        if key in self.names:
            return self.names[key]
        for part in re.split(r"[／/]", name):
            k = name_key(part)
            if k in self.names:
                return self.names[k]
        return None


_JA_VERB_ENDINGS = ("を行う", "する")


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """A name as compared: folded, punctuation gone, Japanese ``を行う``/``する`` dropped.

    >>> name_key("発見を行う"), name_key("発見"), name_key(" Face a Villainous Choice ")
    ('発見', '発見', 'face a villainous choice')
    """
    text = normalize_text(name).casefold().strip(" 　.,:;「」『』“”\"'()（）〔〕[]")
    for ending in _JA_VERB_ENDINGS:
        if text.endswith(ending) and len(text) > len(ending) + 1:
            text = text[: -len(ending)]
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


# --- finding what a citation is about -----------------------------------------------------

_AFTER = re.compile(
    r"\.?\s*[,，:：]?\s*(?:[“\"「『〔(（\[]\s*)?(?P<name>[^”\"」』〕)）\]\n。.,，;；]{1,60})"
)
_BEFORE_SEPARATORS = " \t—–-:：(（「“\"[〔,"
_BEFORE_WORDS = ("CR", "rule", "rules", "Rule", "Rules", "see", "See")


def name_after(text: str, end: int, book: RuleBook) -> str | None:
    """A rule title printed right after a cited number, resolved to its English title key, or None.

    A bracketed or bilingual name (``701.57, “Discover”``, ``rule 701.19〔再生する〕``,
    ``701.55 最悪の二択を行う／Face a Villainous Choice``) may be any rule's
    title; a bare name counts only when it is a keyword's title standing
    alone after the number (``701.23 Search``), since prose and lists go on
    after numbers (``701.57a: exile until``, ``701.40f, Cloak — CR 701.58f``).
    """
    m = _AFTER.match(text, end)
    if not m:
        return None
    name = m.group("name").strip()
    opened = text[end:m.start("name")]
    if any(ch in opened for ch in "“\"「『〔(（[") or "／" in name:
        candidates = [name] + [p for p in name.split("／") if p.strip()]
    elif opened.strip(" .") or name[:1].islower():
        return None  # "701.40f, Cloak — CR 701.58f" is a list; "701.57a: exile until" is prose
    else:
        # "701.23 Search": a keyword's title, alone up to the end of its line or clause.
        rest = text[m.end("name"):m.end("name") + 1]
        if rest not in ("", "\n", ")", "）", ",", ".", "。", ";"):
            return None
        key = book.resolve_name(name)
        return key if key in book.keyword_keys else None
    for candidate in candidates:
        key = book.resolve_name(candidate)
        if key:
            return key
    return None


_CODE_MARKS = re.compile(r'["{}\[\]=]')


def name_before(text: str, start: int, book: RuleBook) -> str | None:
    """A rule title printed right before a cited number, resolved to its English title key, or None.

    With a citation word between them (``Face-Down Spells and Permanents —
    CR 708.2a``, ``Search: rule 701.23``) any rule's title counts, over a line
    break too; with only a bracket (``発見(701.57)``) only a keyword's title
    does, capitalised when it is English, since prose such as ``into their
    graveyard (701.17a)`` or ``can be cast (709.3a)`` names things that are
    not what the number is about.
    """
    window = text[max(0, start - 80):start].replace("\n", " ")
    before = window
    while True:
        stripped = before.rstrip(_BEFORE_SEPARATORS)
        for word in _BEFORE_WORDS:
            if stripped.endswith(word) and (len(stripped) == len(word) or not stripped[-len(word) - 1].isalnum()):
                stripped = stripped[: -len(word)]
        if stripped == before:
            break
        before = stripped
    separator = window[len(before):]
    strong = any(mark in separator for mark in ("—", "–", "CR", "rule", "Rule", "：", ":"))
    # A title is prose: a quote, a brace, a bracket or an "=" before it (TOML, code) ends it, so
    # 'file = ".../cards/copy/CloneTest.java" } also = ["Copying Objects — CR 707.2' is about
    # Copying Objects, not about the "cards" of a path.
    before = _CODE_MARKS.split(before)[-1]
    if not before.strip():
        return None
    # Longest suffix that is a known name, starting at a word boundary.
    for i in range(len(before)):
        if before[i].isspace() or (i and before[i - 1].isalnum() and before[i].isascii()):
            continue
        name = before[i:]
        if i and name[:1].isupper() and before[:i].rstrip()[-1:].isalpha() and before[:i].split()[-1][:1].isupper():
            continue  # "Triggered Abilities": a longer title we do not know, not "Abilities"
        key = book.resolve_name(name)
        # A bare bracket needs a keyword's title, capitalised as a title in English:
        # "can be cast (709.3a)" uses the verb, "Cast (701.5)" names the rule.
        if key and (strong or (key in book.keyword_keys and not name.strip()[:1].islower())):
            return key
    return None


def _family(number: str) -> str:
    """701.57a → '701': the rule a keyword's numbered rule sits under."""
    return number.split(".")[0]


@dataclass
class _Cited:
    number: str
    cited: str
    line: int
    start: int
    end: int
    quoted_title: str | None = None
    quoted_text: str | None = None


def _citations(doc: CitingText) -> list[_Cited]:
    out: list[_Cited] = []
    if doc.quoted:
        line_start = 0
        for offset, raw in enumerate(doc.text.split("\n")):
            m = _QUOTED_ITEM.match(raw)
            starts_at, line_start = line_start, line_start + len(raw) + 1
            if not m or QUOTE_LABEL.search(raw):
                continue
            number = m.group("number")
            if rule_kind(number) in ("section", "rule"):
                continue  # "7 その他のルール", "701 キーワード処理": the path to the quoted rule
            rest = m.group("rest")
            is_title = rule_kind(number) == "numbered" and len(rest) <= 60 and "。" not in rest
            out.append(_Cited(number, number, doc.line_of(offset), starts_at + m.start("number"),
                              starts_at + m.end("number"), rest if is_title else None,
                              None if is_title else rest))
        return out
    for c in find_citations(doc.text):
        if c.kind != "rule" or rule_kind(c.number) == "rule":
            continue  # a bare "701" is the whole chapter, not a rule that moves
        at = doc.text.find(c.number, c.start)
        at = c.start if at < 0 else at
        line = doc.line_of(doc.text.count("\n", 0, at))
        out.append(_Cited(c.number, c.cited, line, at, at + len(c.number)))
    return out


# A citation on a line saying one of these is stale on purpose (a doctest of the check itself).
IGNORE_MARKERS = ("stale on purpose", "kb: ignore-stale")


def ignored_lines(text: str) -> set[int]:
    """Lines (0-based) marked stale on purpose; a marked ``>>>`` line takes its expected output along.

    >>> sorted(ignored_lines(">>> check('701.55a')   # stale on purpose\\nstale: 701.55a\\n\\n701.55a"))
    [0, 1]
    """
    out: set[int] = set()
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not any(marker in line for marker in IGNORE_MARKERS):
            continue
        out.add(i)
        if line.lstrip().startswith(">>>"):
            for j in range(i + 1, len(lines)):
                following = lines[j].strip()
                if not following or following.startswith(">>>"):
                    break
                out.add(j)
    return out


# --- the check ------------------------------------------------------------------------------


def check_text(doc: CitingText, book: RuleBook) -> list[StaleCitation]:
    """The stale citations of one text."""
    cites = _citations(doc)
    if not cites:
        return []
    read_in = book.read_in(doc.written_for, doc.date)
    doc_key = next((k for k in (book.resolve_name(n) for n in doc.keywords) if k), None)
    doc_rule = book.number_titled(read_in, doc_key) or book.number_titled(book.newest, doc_key) if doc_key else None
    doc_family = _family(doc_rule) if doc_rule and rule_kind(doc_rule) == "numbered" else None
    # In a quoted block, a subrule is about the title printed for its rule above it.
    printed = {c.number: c.quoted_title for c in cites if c.quoted_title}

    def printed_title(number: str) -> str | None:
        while number and rule_kind(number) in ("subrule", "numbered"):
            if number in printed:
                return printed[number]
            number = parent_number(number)
        return None

    quotes_keyword = doc.quoted and doc_key is not None and any(
        book.resolve_name(printed_title(c.number) or "") == doc_key
        or (printed_title(c.number) is None and title_key(book.heading(read_in, c.number)[1] or "") == doc_key)
        for c in cites
    )
    ignored = ignored_lines(doc.text)
    findings: list[StaleCitation] = []
    for c in cites:
        if doc.text.count("\n", 0, c.start) in ignored:
            continue
        about, about_from = None, None
        if doc.quoted:
            title = printed_title(c.number)
            if doc_key and doc_family and not quotes_keyword and _family(c.number) == doc_family:
                about, about_from = doc_key, "document keyword"
            elif title:
                about = book.resolve_name(title)
                about_from = "quoted title" if about else None
            elif c.quoted_text:
                about = _about_from_text(c, doc, book)
                about_from = "quoted text" if about else None
        else:
            about = name_after(doc.text, c.end, book)
            about_from = "title after number" if about else None
            if not about:
                about = name_before(doc.text, c.start, book)
                about_from = "title before number" if about else None
            if not about and doc_key and doc_family and _family(c.number) == doc_family:
                about, about_from = doc_key, "document keyword"
        finding = _judge(doc, c, read_in, about, about_from, book)
        if finding:
            findings.append(finding)
    return findings


def _about_from_text(c: _Cited, doc: CitingText, book: RuleBook) -> str | None:
    """For a quoted rule printed without its title: the title of the rule whose text it is.

    The quote is compared with the whole release of its own language nearest
    the release it names (a Japanese quote with the Japanese CR), first with
    the rule of the same number, then with the rules of the same family.
    """
    lang = "ja" if _JAPANESE.search(c.quoted_text or "") else "en"
    release = book.whole_release(lang, doc.written_for)
    if release is None:
        return None
    rules = book.rules(release, lang)
    text = c.quoted_text or ""

    def title_of(number: str) -> str | None:
        while number in rules:
            kind, parent, title, _text = rules[number]
            if title:
                return title_key(title, None) if lang == "en" else book.resolve_name(title)
            number = parent
        return None

    row = rules.get(c.number)
    if row and word_similarity(text, row[3] or "") >= 0.5:
        return title_of(c.number)
    family = _family(c.number)
    best, best_number = 0.0, None
    for number, other in rules.items():
        if other[0] == "subrule" and other[3] and _family(number) == family:
            sim = word_similarity(text, other[3])
            if sim > best:
                best, best_number = sim, number
    return title_of(best_number) if best_number and best >= 0.6 else None


_JAPANESE = re.compile("[\u3040-\u30ff\u3400-\u9fff]")


def _judge(doc: CitingText, c: _Cited, read_in: str, about: str | None, about_from: str | None,
           book: RuleBook) -> StaleCitation | None:
    if c.number not in book.rules(read_in):
        # Written just before a release (release notes, rulings of a new set), a
        # text cites the numbers of the release about to come: read it in that one.
        upcoming = book.next_release(read_in)
        if upcoming and c.number in book.rules(upcoming):
            read_in = upcoming
    rules_then = book.rules(read_in)
    exists_then = c.number in rules_then
    head_number, head_title = book.heading(read_in, c.number) if exists_then else (None, None)
    cited_key = title_key(head_title) if head_title else None
    now = book.forward(read_in, c.number) if exists_then else None
    reason = None
    suggestion = None
    if about and (not exists_then or cited_key != about):
        target = book.number_titled(book.newest, about)
        if target is None:
            return None  # the topic has no rule today: nothing better to cite
        reason = "wrong-rule" if exists_then else "missing"
        suggestion = suggest_subrule(book, c.number, read_in, target, quoted=doc.quoted)
    elif not exists_then:
        reason = "missing"
        if c.number in book.rules(book.newest):
            return None  # written for an older release than the number: read it as today's
    elif now is None:
        reason = "removed"
    elif now != c.number:
        reason = "moved"
        suggestion = now
    if reason is None:
        return None
    suggested_title = book.heading(book.newest, suggestion)[1] if suggestion else None
    return StaleCitation(
        doc.source_kind, doc.source, c.line, c.cited, c.number, doc.written_for, read_in,
        about, about_from, head_title, reason, suggestion, suggested_title,
        _message(c, doc, read_in, about, about_from, head_title, reason, suggestion, suggested_title, book),
        doc.title,
    )


# How close a subrule's text must be to an old one's to be suggested in its place.
SUBRULE_SIMILARITY = 0.5


def suggest_subrule(book: RuleBook, number: str, read_in: str, target: str, *, quoted: bool = False) -> str:
    """The subrule of ``target`` (in the newest release) to cite for the subrule ``number``, else ``target``.

    The letter is never kept blindly: Explore's 701.44b has nothing to do
    with Manifest's 701.40b. The old subrule is the one the citation means:
    for prose, the subrule of that number when the rule it is about had that
    number (``Phasing — CR 702.25e``: Phasing was 702.25 until 20200703), whose
    lineage gives today's number; for a quoted block, the rule quoted (its
    text, as ``read_in`` has it). When the lineage does not lead under
    ``target``, the subrule of ``target`` whose text is closest to the old
    one's (at least :data:`SUBRULE_SIMILARITY`) is suggested; when none is,
    the numbered rule alone.
    """
    if rule_kind(number) != "subrule":
        return target
    old: tuple[str, str] | None = None
    if not quoted:
        head = parent_number(number)
        runs = [last for _first, last, n in book.numbers_over_time(target) if n == head]
        if runs and number in book.rules(runs[-1]):
            old = (runs[-1], number)
    if old is None and number in book.rules(read_in):
        old = (read_in, number)
    if old is None:
        return target
    newest = book.rules(book.newest)
    subrules = {n: row for n, row in newest.items() if row[0] == "subrule" and row[1] == target}
    now = book.forward(*old)
    if now in subrules:
        return now
    return closest_subrule(book.rules(old[0])[old[1]][3] or "", subrules) or target


def closest_subrule(text: str, subrules: dict[str, tuple]) -> str | None:
    """The subrule (number → (kind, parent, title, text)) whose text is closest to ``text``, if close enough."""
    best, best_number = 0.0, None
    for number, row in sorted(subrules.items()):
        similarity = word_similarity(text, row[3] or "")
        if similarity > best:
            best, best_number = similarity, number
    return best_number if best >= SUBRULE_SIMILARITY else None


def _title_of(book: RuleBook, key: str | None) -> str:
    if not key:
        return "?"
    number = book.number_titled(book.newest, key)
    return (book.heading(book.newest, number)[1] if number else None) or key


def _message(c, doc, read_in, about, about_from, head_title, reason, suggestion, suggested_title, book) -> str:
    """What is wrong, in the words of the text cited: ``the page quotes the 20260807 CR; in 20260417 701.55 is …``.

    A quoted block says which release it quotes; the release it is read in
    is the newest the database has before that (or the one it names).
    """
    what = f"“{head_title}”" if head_title else "no rule"
    text = "the page" if doc.source_kind.startswith("wiki") else "the text"
    if doc.quoted and doc.written_for:
        if doc.written_for == read_in:
            where, prefix = f"in {read_in}", f"the page quotes the {read_in} CR: "
        else:
            where, prefix = f"in {read_in}", f"the page quotes the {doc.written_for} CR; "
        subject = f"{prefix}{where} {c.number}"
    elif doc.written_for and doc.written_for != read_in:
        where = f"written for {doc.written_for}, read in {read_in}"
        subject = f"{c.number} ({where})"
    else:
        where = f"in {read_in}"
        subject = f"{where} {c.number}"
    if reason == "wrong-rule":
        topic = _title_of(book, about)
        history = ""
        target = book.number_titled(book.newest, about)
        runs = book.numbers_over_time(target) if target else []
        if len(runs) > 1:
            history = " (" + ", ".join(f"{n} {a}–{b}" for a, b, n in runs) + ")"
        return (f"{subject} is {what}, but {text} is about {topic} ({about_from}); "
                f"cite {suggestion} ({suggested_title}){history}")
    if reason == "missing":
        tail = f"; cite {suggestion} ({suggested_title})" if suggestion else ""
        return f"{subject} does not exist{tail}"
    if reason == "removed":
        return f"{subject} is {what}, removed since; nothing replaces it"
    return f"{subject} is {what}, {suggestion} in {book.newest}; cite {suggestion}"


def find_stale_in(texts: Iterable[CitingText], book: RuleBook) -> Iterator[StaleCitation]:
    """Check ``texts``; the same citation found twice (page text and stored excerpt) is reported once."""
    seen: set[tuple] = set()
    for doc in texts:
        for finding in check_text(doc, book):
            key = (finding.source, finding.cited_number, finding.written_for, finding.reason)
            if key in seen:
                continue
            seen.add(key)
            yield finding


def find_stale_citations(
    db: sqlite_utils.Database,
    *,
    include_code: bool = True,
    code_root: Path = PROJECT_ROOT,
    problems: list[IngestProblem] | None = None,
) -> Iterator[StaleCitation]:
    """Every stale citation in the database's citing tables, the cross-references of the
    translated CRs (:func:`find_stale_cross_references`) and (``include_code``) our own code."""
    book = RuleBook(db)
    texts: list[CitingText] = list(database_texts(db))
    if include_code:
        texts.extend(code_texts(code_root))
    yield from find_stale_in(texts, book)
    yield from find_stale_cross_references(db)


STALE_SQL = """
select source_kind, source, line, cited, cited_number, written_for, read_in, about, about_from,
       cited_title, reason, suggested_number, suggested_title, message
from stale_citations
where (:source_kind is null or source_kind = :source_kind)
order by source, line
"""


# --- cross-references inside a translated CR ------------------------------------------------

# "rule 725〔ゲームを再び開始する〕" (Japanese), "601“施放咒语”" (Chinese): a number with the
# title of the rule it means, so the two can be checked against each other.
TITLED_REFERENCE = re.compile(
    r"(?<![\d.])(?P<number>\d{3}(?:\.\d+[a-z]?)?)\s*[〔“「](?P<title>[^〕”」\n]{1,40})[〕”」]")
LANGUAGE_NAMES = {"ja": "Japanese", "zh": "Chinese", "ko": "Korean", "en": "English"}


def translation_texts(db: sqlite_utils.Database) -> Iterator[tuple[str, str, str, str, str, int, str]]:
    """(release, lang, from_number, text, source, line, kind) of every rule, example and glossary
    definition of the whole translated releases that cites a rule with its title."""
    tables = set(db.table_names())
    if "rules" not in tables or "releases" not in tables:
        return
    releases = list(db.execute(
        "select release, lang from releases where lang != 'en' and completeness = 'whole' order by lang, release"))
    queries = [("rule", "select number, text, source, line from rules where release = ? and lang = ? order by position")]
    if "examples" in tables:
        queries.append(("example", "select rule_number, text, source, line from examples where release = ? and lang = ?"
                                   " order by rule_number, seq"))
    if "glossary" in tables:
        # The glossary's line is its term's; the definition starts on the next line.
        queries.append(("glossary", "select term, definition, source, line + 1 from glossary"
                                    " where release = ? and lang = ? order by line"))
    for release, lang in releases:
        for kind, sql in queries:
            for number, text, source, line in db.execute(sql, [release, lang]):
                if text and ("〔" in text or "“" in text or "「" in text):
                    yield release, lang, number, text, source or "", int(line or 1), kind


def find_stale_cross_references(db: sqlite_utils.Database) -> Iterator[StaleCitation]:
    """Cross-references inside a translated CR whose printed title names another rule.

    A translation that kept an older release's numbers cites ``rule 725
    〔ゲームを再び開始する〕`` when 725 is イニシアチブ and 726 is
    ゲームを再び開始する in that very release. Each titled reference is read
    in its own release and language: it is stale when the title is neither
    the cited rule's (or its heading's) nor mentioned in the cited rule, and
    another rule of the release has that title; the suggestion is that rule.
    A title no rule has (``700.14〔積算〕``, a glossary term) is left alone.
    """
    by_release: dict[tuple[str, str], tuple[dict, dict, dict]] = {}

    def rulebook(release: str, lang: str):
        if (release, lang) not in by_release:
            rules = {n: (kind, parent, title, text) for n, kind, parent, title, text in db.execute(
                "select number, kind, parent, title, text from rules where release = ? and lang = ?", [release, lang])}
            titled: dict[str, list[str]] = {}
            for n, (kind, _parent, title, _text) in rules.items():
                if title and kind in ("numbered", "rule"):
                    for name in {title, *re.split(r"[／/]", title)}:
                        if name_key(name):
                            titled.setdefault(name_key(name), []).append(n)
            english: dict[str, str] = {}
            if "rule_alignment" in db.table_names():
                en_titles = {n: t for n, t in db.execute(
                    "select number, title from rules where release = ? and lang = 'en' and title is not null", [release])}
                for n, n_en in db.execute(
                        "select number, number_en from rule_alignment where release = ? and lang = ?", [release, lang]):
                    if n_en in en_titles:
                        english[n] = en_titles[n_en]
            by_release[(release, lang)] = (rules, titled, english)
        return by_release[(release, lang)]

    def heading(rules: dict, number: str) -> tuple[str | None, str | None]:
        while number in rules:
            kind, parent, title, _text = rules[number]
            if title:
                return number, title
            if kind in ("section", "rule") or not parent:
                break
            number = parent
        return None, None

    for release, lang, from_number, text, source, line, kind in translation_texts(db):
        rules, titled, english = rulebook(release, lang)
        for m in TITLED_REFERENCE.finditer(text):
            number, printed = m.group("number"), m.group("title").strip()
            key = name_key(printed)
            if not key or number not in rules:
                continue
            head_number, head_title = heading(rules, number)
            if head_title and key in {name_key(t) for t in (head_title, *re.split(r"[／/]", head_title))}:
                continue
            if not rules[number][2]:
                own = [rules[number][3] or ""] + [row[3] or "" for row in rules.values() if row[1] == number]
                if any(printed in t for t in own):
                    continue  # an untitled rule defining the term printed (700.14〔積算〕)
            meant = [n for n in titled.get(key, []) if n != number]
            if len(meant) != 1:
                continue  # no rule (or several) with that title: nothing to say what was meant
            suggestion = meant[0]
            cited_title = head_title if head_number == number else None
            where = f"the {LANGUAGE_NAMES.get(lang, lang)} CR {release}"
            cited_en = f" ({english[number]})" if number in english else ""
            meant_en = f" ({english[suggestion]})" if suggestion in english else ""
            is_what = f"〔{cited_title}〕{cited_en}" if cited_title else "another rule"
            message = (f"{from_number} cites {m.group(0)}, but in {where} {number} is {is_what}; "
                       f"〔{printed}〕 is {suggestion}{meant_en}; cite {suggestion}")
            yield StaleCitation(
                "cr", source, line + text.count("\n", 0, m.start()), m.group(0), number, release, release,
                printed, "title in brackets", cited_title, "wrong-rule", suggestion, rules[suggestion][2], message)
