"""The Japanese glossary (用語集): entries of the CR file and of its wiki transcription.

The Japanese CR's glossary comes in two forms with one record shape,
:class:`~ingest.records.GlossaryEntry` with ``lang='ja'``:

- inside the CR file (:mod:`ingest.cr_ja`): a heading line
  ``用語（よみ）／English`` and a definition line that starts with U+3000;
- as a MediaWiki-formatted transcription (``JPN_CR_20260116_glossary_dict.txt``,
  :func:`parse_glossary_ja`): ``=用語（よみ）／English=`` headings, each followed
  by its definition.

Both go through :func:`glossary_entry`, so the two forms give equal records
(apart from file and line); :func:`compare_glossaries` says where they differ.

What we do with the source's quirks:

- ``Counter(v)``/``Counter(n)``, ``Draw(1)``/``Draw(2)``: the Japanese glossary
  splits one English entry where the two senses have different Japanese terms.
  ``term_en`` keeps the English as printed; :func:`english_term_key` drops the
  marker so both pair with the English ``Counter``.
- A heading without its term (``（へや）／Room``): the reading stands in for the
  term and a warning says so.
- ``(廃語)`` at the start of a definition marks an obsolete term, as
  ``(Obsolete)`` does in the English heading.

>>> g = glossary_entry("探す（さがす）／Search", "　rule 701.23〔探す〕参照。", "20260116", "x.txt", 3)[0]
>>> (g.term, g.reading, g.term_en, g.definition, g.rule_refs)
('探す', 'さがす', 'Search', 'rule 701.23〔探す〕参照。', ('701.23',))
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Iterator, Union

from .decoding import lost_characters, read_source
from .records import GlossaryEntry, IngestProblem, RuleRef
from .rule_refs import find_citations

GlossaryRecord = Union[GlossaryEntry, RuleRef, IngestProblem]

# 用語（よみ）／English: the term may hold ASCII brackets (生息条件(島)), never full-width ones.
_HEADING = re.compile(r"^(?P<term>[^（）]*)（(?P<reading>[^（）]*)）／(?P<en>\S.*)$")
_WIKI_HEADING = re.compile(r"^=(?P<heading>[^=].*[^=])=\s*$")
_OBSOLETE = re.compile(r"^\s*[(（]廃語[)）]")
_SENSE_MARKER = re.compile(r"\s*\((?:n|v|\d)\)\s*$")


def is_glossary_heading(line: str) -> bool:
    """True for a ``用語（よみ）／English`` line.

    >>> is_glossary_heading("相棒（あいぼう）／Companion"), is_glossary_heading("　そのカードの相棒")
    (True, False)
    """
    return bool(_HEADING.match(line.strip()))


def split_heading(heading: str) -> tuple[str, str, str] | None:
    """``用語（よみ）／English`` → (term, reading, English term), or None.

    >>> split_heading("生息条件(島)（せいそくじょうけんしま）／Islandhome")
    ('生息条件(島)', 'せいそくじょうけんしま', 'Islandhome')
    """
    m = _HEADING.match(heading.strip())
    if not m:
        return None
    return m.group("term").strip(), m.group("reading").strip(), m.group("en").strip()


def japanese_aliases(term: str) -> tuple[str, ...]:
    """Names a term lists with 、 (コントロール、コントローラー), as the English lists them with commas.

    >>> japanese_aliases("コントロール、コントローラー")
    ('コントロール', 'コントローラー')
    >>> japanese_aliases("探す")
    ()
    """
    parts = tuple(p.strip() for p in term.split("、") if p.strip())
    return parts if len(parts) > 1 else ()


def english_term_key(term: str) -> str:
    """The key an English glossary term pairs by: lower case, ``/`` and ``,`` lists alike,
    quotes and the Japanese glossary's sense markers ``(v)``, ``(2)`` dropped.

    >>> english_term_key("Counter(v)") == english_term_key("Counter")
    True
    >>> english_term_key('Banding/"Bands with Other"') == english_term_key("Banding, “Bands with Other”")
    True
    >>> english_term_key("You/Your")
    'you, your'
    """
    key = _SENSE_MARKER.sub("", term).replace("’", "'")
    key = re.sub(r"[“”\"]", "", key)
    key = re.sub(r"\s*/\s*|\s*,\s*", ", ", key)
    return re.sub(r"\s+", " ", key).strip().lower()


def loose_term_key(term: str) -> str:
    """A spelling-tolerant key for terms the Japanese glossary prints slightly off:
    no "the", no plural -s, no brackets, hyphens, apostrophes or spaces.

    >>> loose_term_key("Venture into Dungeon") == loose_term_key("Venture into the Dungeon")
    True
    >>> loose_term_key("The City's Blessing") == loose_term_key("City’s Blessing")
    True
    >>> loose_term_key("Modal DoubleFaced Cards") == loose_term_key("Modal Double-Faced Cards")
    True
    """
    words = re.findall(r"[a-z0-9]+", english_term_key(term).replace("'", ""))
    return "".join(w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words if w != "the")


def glossary_entry(
    heading: str, definition: str, release: str, source: str, line: int
) -> list[GlossaryRecord]:
    """The entry (with its cross-references and any problem) for one heading and definition.

    ``definition`` may have several lines; each loses its leading U+3000
    (paragraph indentation), the text is otherwise kept as printed.
    """
    out: list[GlossaryRecord] = []
    parts = split_heading(heading)
    if parts is None:
        return [IngestProblem(source, line, "error", "glossary-heading",
                              f"glossary heading {heading.strip()!r} is not 用語（よみ）／English; entry skipped",
                              release, "ja")]
    term, reading, term_en = parts
    if not term:
        out.append(IngestProblem(
            source, line, "warning", "glossary-term-missing",
            f"glossary heading {heading.strip()!r} has no term before its reading; "
            f"the reading {reading!r} is used as the term", release, "ja"))
        term = reading
    text = "\n".join(p.strip().lstrip("\u3000").strip() for p in definition.split("\n") if p.strip())
    if not text:
        out.append(IngestProblem(source, line, "warning", "glossary-no-definition",
                                 f"glossary term {term!r} has no definition", release, "ja"))
    cites = list(find_citations(text))
    refs = tuple(dict.fromkeys(c.number for c in cites))
    out.append(GlossaryEntry(
        release, "ja", term, text, source, line, aliases=japanese_aliases(term), rule_refs=refs,
        obsolete=bool(_OBSOLETE.match(text)), reading=reading, term_en=term_en))
    out.extend(RuleRef(release, "ja", term, "glossary", c.number, c.kind, c.cited, source, line)
               for c in cites)
    return out


def iter_glossary_lines(
    lines: list[str], first_line: int, release: str, source: str
) -> Iterator[GlossaryRecord]:
    """Entries from the CR file's 用語集: a heading line, then definition lines until the next heading.

    ``first_line`` is the 1-based line number of ``lines[0]``.
    """
    heading: tuple[int, str] | None = None
    body: list[str] = []
    for offset, raw in enumerate(lines):
        if not raw.strip():
            continue
        if not raw.startswith("\u3000") and is_glossary_heading(raw):
            if heading:
                yield from glossary_entry(heading[1], "\n".join(body), release, source, heading[0])
            heading, body = (first_line + offset, raw), []
        elif heading:
            body.append(raw)
        else:
            yield IngestProblem(source, first_line + offset, "warning", "stray-text",
                                f"glossary text before the first term skipped: {raw.strip()[:60]!r}",
                                release, "ja")
    if heading:
        yield from glossary_entry(heading[1], "\n".join(body), release, source, heading[0])


def parse_glossary_ja_text(text: str, source: str, release: str) -> Iterator[GlossaryRecord]:
    """Entries of the wiki-formatted glossary (``=用語（よみ）／English=`` headings).

    The page's lead paragraph (before ``----``), blank lines and ``__NOTOC__``
    are page furniture, not glossary text.

    >>> page = "転記。\\n----\\n\\n=探す（さがす）／Search=\\nrule 701.23 参照。\\n\\n__NOTOC__\\n"
    >>> [(g.term, g.line) for g in parse_glossary_ja_text(page, "d.txt", "20260116")
    ...  if isinstance(g, GlossaryEntry)]
    [('探す', 4)]
    """
    heading: tuple[int, str] | None = None
    body: list[str] = []
    for line_no, raw in enumerate(text.split("\n"), 1):
        m = _WIKI_HEADING.match(raw)
        if m:
            if heading:
                yield from glossary_entry(heading[1], "\n".join(body), release, source, heading[0])
            heading, body = (line_no, m.group("heading")), []
        elif heading and raw.strip() and raw.strip() != "__NOTOC__":
            body.append(raw)
    if heading:
        yield from glossary_entry(heading[1], "\n".join(body), release, source, heading[0])
    else:
        yield IngestProblem(source, 1, "error", "not-a-glossary",
                            "no =用語（よみ）／English= heading found; not a glossary page", release, "ja")


_VERSION = re.compile(r"和訳\s*(?P<release>\d{8})\.(?P<revision>\d+)")


def find_version_label(text: str) -> str | None:
    """The translation's version as the page prints it (``和訳 20260116.0 版`` → ``20260116.0``).

    >>> find_version_label("マジック総合ルール（和訳 20260116.0 版）を転記")
    '20260116.0'
    """
    m = _VERSION.search(text[:2000])
    return f"{m.group('release')}.{m.group('revision')}" if m else None


def parse_glossary_ja(path: str | Path, display_path: str | None = None,
                      release: str | None = None) -> Iterator[GlossaryRecord]:
    """Parse the wiki-formatted Japanese glossary file into entries (``lang='ja'``).

    The release is the one the page names (``和訳 20260116.0 版``), else
    ``release``, else the date in the file name. Raises
    :class:`~ingest.records.SourceError` when the file cannot be read.
    """
    shown = display_path or str(path)
    decoded = read_source(path, shown)
    yield from filter(None, [lost_characters(decoded)])
    label = find_version_label(decoded.text)
    named = re.search(r"(?<!\d)(\d{8})(?!\d)", Path(path).name)
    found = label.split(".")[0] if label else (release or (named.group(1) if named else None))
    if found is None:
        yield IngestProblem(shown, 1, "error", "no-release",
                            "the page names no release (和訳 YYYYMMDD.N 版) and the file name has no date; "
                            "pass release=", None, "ja")
        return
    if release and found != release:
        yield IngestProblem(shown, 1, "warning", "release-mismatch",
                            f"the page says 和訳 {label}, expected release {release}; using {found}",
                            found, "ja")
    yield from parse_glossary_ja_text(decoded.text, shown, found)


def compare_glossaries(
    used: Iterable[GlossaryEntry], other: Iterable[GlossaryEntry]
) -> Iterator[IngestProblem]:
    """Problems for every difference between two copies of one glossary, by heading.

    ``used`` is the copy loaded (the CR file's); each problem is placed at the
    ``other`` copy's line (or the used one's, for an entry missing there).

    >>> a = GlossaryEntry("20260116", "ja", "探す", "rule 701.23 参照。", "cr.txt", 9, reading="さがす", term_en="Search")
    >>> b = GlossaryEntry("20260116", "ja", "探す", "rule 701.24 参照。", "wiki.txt", 4, reading="さがす", term_en="Search")
    >>> [str(p) for p in compare_glossaries([a], [b])]
    ["wiki.txt:4: warning: glossary 探す（さがす）／Search: definition differs from cr.txt:9: 'rule 701.23 参照。' there, 'rule 701.24 参照。' here"]
    >>> list(compare_glossaries([a], [a]))
    []
    """
    def key(g: GlossaryEntry) -> tuple:
        return (g.term, g.reading, g.term_en)

    def name(g: GlossaryEntry) -> str:
        return f"{g.term}（{g.reading}）／{g.term_en}"

    used_by = {key(g): g for g in used}
    other_by = {key(g): g for g in other}
    for k, g in other_by.items():
        mine = used_by.get(k)
        if mine is None:
            yield IngestProblem(g.source, g.line, "warning", "glossary-copies-differ",
                                f"glossary {name(g)}: not in {next(iter(used_by.values())).source if used_by else 'the used copy'}",
                                g.release, "ja")
        elif mine.definition != g.definition:
            yield IngestProblem(g.source, g.line, "warning", "glossary-copies-differ",
                                f"glossary {name(g)}: definition differs from {mine.source}:{mine.line}: "
                                f"{mine.definition[:80]!r} there, {g.definition[:80]!r} here",
                                g.release, "ja")
    other_source = next(iter(other_by.values())).source if other_by else "the other copy"
    missing = [g for k, g in used_by.items() if k not in other_by]
    for g in missing:
        yield IngestProblem(g.source, g.line, "warning", "glossary-copies-differ",
                            f"glossary {name(g)}: not in {other_source}", g.release, "ja")
    if missing and other_by:
        # Said once at the copy itself too: a copy cut short lacks the entries after its last one.
        last = max(other_by.values(), key=lambda g: g.line or 0)
        yield IngestProblem(last.source, last.line, "warning", "glossary-copy-short",
                            f"{len(missing)} of the {len(used_by)} entries of {missing[0].source} are not in this "
                            f"copy (its last entry is {name(last)}): it is cut short or incomplete",
                            last.release, "ja")
    if list(used_by) and list(other_by) and [k for k in used_by if k in other_by] != [k for k in other_by if k in used_by]:
        first = next(iter(other_by.values()))
        yield IngestProblem(first.source, None, "warning", "glossary-copies-differ",
                            f"the entries of {first.source} are in another order than in "
                            f"{next(iter(used_by.values())).source}", first.release, "ja")
