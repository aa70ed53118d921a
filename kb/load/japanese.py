"""Load the Japanese Comprehensive Rules and align them with the English ones.

The build step :func:`load_japanese_cr`:

1. parses ``cr/ja/JPN_CR_<date>.txt`` (:func:`ingest.cr_ja.parse_cr_ja`) and
   inserts it like any release (``insert_records``), each Japanese row with
   its search form (:func:`kb.japanese.search_form`), a ``releases`` row and a
   ``release_sources`` row; headings as printed (``701.23. 探す／Search``) go to
   ``printed_headings``;
2. parses the wiki transcription of the glossary
   (``cr/ja/JPN_CR_<date>_glossary_dict.txt``), compares it with the CR file's
   glossary and keeps every difference as a problem; the file is listed in
   ``release_sources`` (not loaded: it is a second copy of the same glossary);
3. builds the alignment: ``rule_alignment`` (:mod:`kb.alignment`), ``glossary_pairs`` (an English glossary entry and its
   Japanese one, by English term within a release), ``keyword_names`` (English
   name ↔ Japanese name, from the ``日本語／English`` titles of 701/702 and the
   glossary, used by cross-language search) and the views ``rules_bilingual``
   and ``examples_bilingual``.

Alignment is within a release only, by number unless the citations of a
numbered rule's subrules say otherwise (:mod:`kb.alignment`): a Japanese rule is
never paired with an English rule of another release, because the same number can mean
different things in two releases (Discover was 701.55, the number 701.55 is
now Face a Villainous Choice).
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path

from ingest.cr import release_from_filename
from ingest.cr_ja import Heading, parse_cr_ja_text, split_title
from ingest.decoding import lost_characters, read_source
from ingest.glossary_ja import compare_glossaries, english_term_key, loose_term_key, parse_glossary_ja
from ingest.records import GlossaryEntry, IngestProblem, Release, SourceError

from ..build import BuildContext, NeedsFullBuild
from ..cache import file_digest
from ..corpus import CorpusFile
from ..japanese import search_form, segment_query
from ..languages import CRLanguage, register_language
from .cr import insert_records
from .translations import create_translation_tables, fill_rule_alignment

JAPANESE_TABLES: dict[str, dict] = {
    "printed_headings": dict(
        columns={"release": str, "lang": str, "number": str, "printed": str, "source": str, "line": int},
        pk=("release", "lang", "number"),
    ),
    "glossary_pairs": dict(
        columns={
            "id": int, "release": str, "term_en": str, "term_ja": str, "reading": str,
            "term_en_printed": str, "paired_by": str, "en_id": int, "ja_id": int,
            "definition_en": str, "definition_ja": str,
        },
        pk="id",
    ),
    "keyword_names": dict(
        columns={
            "id": int, "release": str, "source": str, "number": str, "name_en": str, "name_ja": str,
            "key_en": str, "key_ja": str, "match_ja": str,
        },
        pk="id",
    ),
}

# Every rule of a release that has both languages, side by side; a rule of only
# one language has nulls for the other (610.5 is new in English 20260116 and not
# yet translated). Joined within a release only: by ``rule_alignment`` where the
# build aligned the release (kb.alignment: the Japanese 805.10g is the English
# 805.10f), else by number (rules quoted by wiki pages).
RULES_BILINGUAL = """
select ja.release, ja.number, ja.kind, ja.parent, ja.section,
       coalesce(en.title, ja.title_en) as title_en,
       -- a row whose title is the whole printed heading (探す／Search) shows its Japanese name
       case when ja.title_en is not null and ja.title like '%／' || ja.title_en
            then substr(ja.title, 1, length(ja.title) - length(ja.title_en) - 1) else ja.title end as title_ja,
       en.text as text_en, ja.text as text_ja,
       case when en.number is null then 'ja' else 'both' end as languages,
       coalesce(en.position, ja.position) as position,
       en.line as line_en, ja.line as line_ja, en.source as source_en, ja.source as source_ja,
       (select completeness from releases r where r.release = ja.release and r.lang = 'ja') as completeness_ja,
       en.number as number_en, coalesce(a.paired_by, case when en.number is not null then 'number' end) as paired_by
from rules ja
left join rule_alignment a on a.release = ja.release and a.lang = 'ja' and a.number = ja.number
left join rules en on en.release = ja.release and en.lang = 'en'
     and en.number = (case when a.number is null then ja.number else a.number_en end)
where ja.lang = 'ja'
union all
select en.release, en.number, en.kind, en.parent, en.section, en.title, null, en.text, null, 'en',
       en.position, en.line, null, en.source, null,
       (select completeness from releases r where r.release = en.release and r.lang = 'ja'), en.number, null
from rules en
where en.lang = 'en'
  and en.release in (select release from releases where lang = 'ja' and completeness = 'whole')
  and not exists (select 1 from rule_alignment a where a.release = en.release and a.lang = 'ja'
                  and a.number_en = en.number)
  and not exists (select 1 from rules ja where ja.release = en.release and ja.lang = 'ja'
                  and ja.number = en.number
                  and not exists (select 1 from rule_alignment a where a.release = ja.release
                                  and a.lang = 'ja' and a.number = ja.number))
"""

EXAMPLES_BILINGUAL = """
select ja.release, ja.rule_number, ja.seq, en.text as text_en, ja.text as text_ja,
       case when en.id is null then 'ja' else 'both' end as languages,
       en.line as line_en, ja.line as line_ja
from examples ja
left join examples en on en.release = ja.release and en.lang = 'en'
     and en.rule_number = ja.rule_number and en.seq = ja.seq
where ja.lang = 'ja'
union all
select en.release, en.rule_number, en.seq, en.text, null, 'en', en.line, null
from examples en
where en.lang = 'en'
  and en.release in (select release from releases where lang = 'ja' and completeness = 'whole')
  and not exists (select 1 from examples ja where ja.release = en.release and ja.lang = 'ja'
                  and ja.rule_number = en.rule_number and ja.seq = en.seq)
"""

VIEWS = {"rules_bilingual": RULES_BILINGUAL, "examples_bilingual": EXAMPLES_BILINGUAL}


def japanese_cr_files(corpus: Path) -> list[Path]:
    """The Japanese CR files: ``cr/ja/JPN_CR_<date>.txt`` (not the glossary transcriptions)."""
    return sorted(p for p in (corpus / "cr" / "ja").glob("JPN_CR_*.txt") if "glossary" not in p.name)


def japanese_glossary_files(corpus: Path) -> list[Path]:
    """The wiki transcriptions of the Japanese glossary: ``cr/ja/*_glossary_dict.txt``."""
    return sorted((corpus / "cr" / "ja").glob("*_glossary_dict.txt"))


def load_japanese_cr(ctx: BuildContext) -> None:
    """The build step: the Japanese CR, its glossary copy, and the alignment tables and views."""
    db = ctx.db
    for name, spec in JAPANESE_TABLES.items():
        db.table(name).create(**spec, if_not_exists=True)
    create_translation_tables(db)
    files = japanese_cr_files(ctx.corpus)
    if not files:
        ctx.source_failed(SourceError(str(ctx.corpus / "cr" / "ja"), None,
                                      "no Japanese CR file (JPN_CR_YYYYMMDD.txt) found"))
    glossaries: dict[str, list[GlossaryEntry]] = {}
    with ctx.task("Japanese CR", len(files)) as advance:
        for path in files:
            _load_file(ctx, path, glossaries)
            advance(1)
    for path in japanese_glossary_files(ctx.corpus):
        _check_glossary_copy(ctx, path, glossaries)
    fill_glossary_pairs(ctx)
    fill_keyword_names(ctx)
    for name, sql in VIEWS.items():
        db.create_view(name, sql, replace=True)


def add_japanese_releases(ctx: BuildContext) -> None:
    """The step when releases are added (``kb add --lang ja``): load the new Japanese files only,
    and pair their glossary and names; what would change the releases already there needs a full build."""
    new = [ctx.corpus / a.relative for a in ctx.added if a.lang == "ja"]
    if any(a.lang == "en" for a in ctx.added):
        english = {r[0] for r in ctx.db.execute("select distinct release from glossary where lang = 'ja'")}
        for a in ctx.added:
            if a.lang == "en" and release_from_filename(Path(a.relative).name) in english:
                raise NeedsFullBuild(f"{a.relative} is the English text of a Japanese release: "
                                     "their glossaries pair anew")
    if not new:
        return
    glossaries: dict[str, list[GlossaryEntry]] = {}
    excerpts = {r[0] for r in ctx.db.execute(
        "select release from releases where lang = 'ja' and completeness = 'excerpt'")}
    copies = {release_from_filename(p.name) for p in japanese_glossary_files(ctx.corpus)}
    with ctx.task("Japanese CR", len(new)) as advance:
        for path in new:
            release = _release_of(path, ctx.corpus)
            if release in excerpts:
                raise NeedsFullBuild(f"wiki pages quote Japanese release {release}, which {path.name} gives whole")
            if release in copies:
                raise NeedsFullBuild(f"the glossary copy of release {release} is compared anew")
            _load_file(ctx, path, glossaries)
            advance(1)
    fill_glossary_pairs(ctx, releases=list(glossaries))
    fill_keyword_names(ctx, releases=list(glossaries))


def _release_of(path: Path, corpus: Path) -> str | None:
    relative = path.relative_to(corpus).as_posix()
    records = read_japanese_release(path, relative)
    return next((r.release for r in records if isinstance(r, Release)), None)


def _load_file(ctx: BuildContext, path: Path, glossaries: dict[str, list[GlossaryEntry]]) -> None:
    """Parse one Japanese CR file and insert it: rows, headings as printed, ``releases`` and ``release_sources``."""
    db = ctx.db
    relative = path.relative_to(ctx.corpus).as_posix()
    try:
        decoded = read_source(path, relative)
    except SourceError as e:
        ctx.source_failed(e)
        return
    records = [*parse_cr_ja_text(decoded.text, relative), *filter(None, [lost_characters(decoded)])]
    release = next((r for r in records if isinstance(r, Release)), None)
    source_row = {"source": relative, "lang": "ja", "encoding": decoded.encoding,
                  "line_endings": decoded.line_endings, "compressed": int(decoded.compressed)}
    if release is None:
        ctx.problems.extend(p for p in records if isinstance(p, IngestProblem))
        db.table("release_sources").insert({**source_row, "used": 0, "note": "not a Japanese CR"})
        return
    counts = insert_records(ctx, records, search_ja=search_form, cache_as=(relative, file_digest(path)))
    db.table("printed_headings").insert_all(
        ({"release": h.release, "lang": h.lang, "number": h.number, "printed": h.printed,
          "source": h.source, "line": h.line} for h in records if isinstance(h, Heading)),
        replace=True,
    )
    db.table("releases").insert({
        "release": release.release, "lang": "ja", "effective_date": release.effective_date,
        "source": release.source, "completeness": release.completeness,
        "version_label": release.version_label, "encoding": decoded.encoding,
        "line_endings": decoded.line_endings, "sections": counts["sections"],
        "rules": counts["rule"], "numbered_rules": counts["numbered"],
        "subrules": counts["subrule"], "examples": counts["examples"],
        "glossary_entries": counts["glossary"], "warnings": counts["warning"],
        "errors": counts["error"],
    })
    db.table("release_sources").insert({**source_row, "release": release.release, "used": 1,
                                        "same_as_used": 1})
    glossaries[release.release] = [g for g in records if isinstance(g, GlossaryEntry)]
    if db.execute("select 1 from releases where release = ? and lang = 'en'", [release.release]).fetchone():
        fill_rule_alignment(db, release.release, "ja")


def read_japanese_release(path: Path, relative: str) -> list:
    """The records of one Japanese CR file (for ``kb add``'s checks before it copies the file)."""
    decoded = read_source(path, relative)
    return [*parse_cr_ja_text(decoded.text, relative), *filter(None, [lost_characters(decoded)])]


register_language(CRLanguage(
    lang="ja", name="Japanese", step="Japanese CR",
    files=lambda corpus: [CorpusFile(p, p.relative_to(corpus).as_posix()) for p in japanese_cr_files(corpus)],
    read=read_japanese_release, corpus_path=lambda release: f"cr/ja/JPN_CR_{release}.txt",
))


def _check_glossary_copy(ctx: BuildContext, path: Path, glossaries: dict[str, list[GlossaryEntry]]) -> None:
    relative = path.relative_to(ctx.corpus).as_posix()
    try:
        records = list(parse_glossary_ja(path, relative))
    except SourceError as e:
        ctx.source_failed(e)
        return
    entries = [g for g in records if isinstance(g, GlossaryEntry)]
    parse_problems = [p for p in records if isinstance(p, IngestProblem)]
    release = entries[0].release if entries else None
    used = glossaries.get(release or "")
    differences = list(compare_glossaries(used, entries)) if used is not None else []
    ctx.problems.extend(parse_problems)
    ctx.problems.extend(differences)
    if used is None:
        note = f"no Japanese CR of release {release} to compare with"
    elif differences:
        note = f"glossary copy of {used[0].source if used else '?'}: {len(differences)} differences (see ingest_problems)"
    else:
        note = f"glossary copy of {used[0].source if used else '?'}: all {len(entries)} entries identical"
    ctx.db.table("release_sources").insert({
        "source": relative, "release": release, "lang": "ja", "encoding": "utf-8", "line_endings": "LF",
        "compressed": 0, "used": 0, "same_as_used": int(used is not None and not differences), "note": note,
    })


def pair_glossaries(english: list[dict], japanese: list[dict]) -> list[dict]:
    """Pair glossary rows of one release by English term; unpaired rows of either side included.

    A Japanese entry pairs with the English entry whose term has the same
    :func:`~ingest.glossary_ja.english_term_key` (``Counter(v)`` with
    ``Counter``, ``You/Your`` with ``You, Your``): ``paired_by`` is ``term``.
    The other stages are for the Japanese glossary's slips in its English
    terms, each named in ``paired_by`` so they can be listed: ``first name``
    (``Kicker`` with ``Kicker, Kicked``), ``spelling`` (the same
    :func:`~ingest.glossary_ja.loose_term_key`: ``Venture into Dungeon``,
    ``Die``), ``close spelling`` (one unpaired English term within a few
    letters, or the only one it begins: ``Staion Cards``, ``Nonmodal``).

    >>> en = [{"id": 1, "term": "Counter", "definition": "..."}, {"id": 2, "term": "Plane", "definition": "..."}]
    >>> ja = [{"id": 7, "term": "打ち消す", "reading": "うちけす", "term_en": "Counter(v)", "definition": "..."},
    ...       {"id": 8, "term": "カウンター", "reading": "かうんたー", "term_en": "Counter(n)", "definition": "..."}]
    >>> [(p["term_en"], p["term_ja"], p["paired_by"]) for p in pair_glossaries(en, ja)]
    [('Counter', '打ち消す', 'term'), ('Counter', 'カウンター', 'term'), ('Plane', None, None)]
    """
    by_key: dict[str, dict] = {}
    by_first: dict[str, dict] = {}
    by_loose: dict[str, dict] = {}
    for g in english:
        key = english_term_key(g["term"])
        by_key.setdefault(key, g)
        by_first.setdefault(key.split(", ")[0], g)
        by_loose.setdefault(loose_term_key(g["term"]), g)
    matches: list[tuple[dict | None, str | None]] = []
    for j in japanese:
        key = english_term_key(j["term_en"] or "")
        found = [(by_key.get(key), "term"), (by_first.get(key.split(", ")[0]), "first name"),
                 (by_loose.get(loose_term_key(j["term_en"] or "")), "spelling")]
        matches.append(next(((m, how) for m, how in found if m is not None), (None, None)))
    paired_en = {m["id"] for m, _ in matches if m is not None}
    for i, (j, (match, how)) in enumerate(zip(japanese, matches)):
        if match is None:
            loose = loose_term_key(j["term_en"] or "")
            left = {loose_term_key(g["term"]): g for g in english if g["id"] not in paired_en}
            close = difflib.get_close_matches(loose, list(left), n=2, cutoff=0.9)
            starts = [k for k in left if k.startswith(loose) or loose.startswith(k)] if len(loose) >= 6 else []
            candidates = close if len(close) == 1 else (starts if len(starts) == 1 else [])
            if candidates:
                matches[i] = (left[candidates[0]], "close spelling")
                paired_en.add(left[candidates[0]]["id"])
    pairs: list[dict] = []
    for j, (match, how) in zip(japanese, matches):
        pairs.append({
            "term_en": match["term"] if match else None, "term_ja": j["term"], "reading": j["reading"],
            "term_en_printed": j["term_en"], "paired_by": how if match else None,
            "en_id": match["id"] if match else None, "ja_id": j["id"],
            "definition_en": match["definition"] if match else None, "definition_ja": j["definition"],
        })
    for g in english:
        if g["id"] not in paired_en:
            pairs.append({"term_en": g["term"], "term_ja": None, "reading": None, "term_en_printed": None,
                          "paired_by": None, "en_id": g["id"], "ja_id": None,
                          "definition_en": g["definition"], "definition_ja": None})
    return pairs


def fill_glossary_pairs(ctx: BuildContext, releases: list[str] | None = None) -> None:
    """``glossary_pairs`` for every release that has a Japanese glossary (or those of ``releases``)."""
    db = ctx.db
    if releases is None:
        releases = [r[0] for r in db.execute("select distinct release from glossary where lang = 'ja'")]
    for release in releases:
        english = list(db.query("select id, term, definition from glossary where release = ? and lang = 'en'"
                                " order by id", [release]))
        japanese = list(db.query("select id, term, reading, term_en, definition from glossary"
                                 " where release = ? and lang = 'ja' order by id", [release]))
        db.table("glossary_pairs").insert_all(({"release": release, **p} for p in pair_glossaries(english, japanese)),
                                        batch_size=1000)
    if db["glossary_pairs"].exists():
        # Search pairs each glossary hit with its other-language entry by term.
        db["glossary_pairs"].create_index(["release", "term_en"], if_not_exists=True)
        db["glossary_pairs"].create_index(["release", "term_ja"], if_not_exists=True)


_EN_WORD = re.compile(r"[0-9a-z]+(?:['’][a-z]+)?")


def english_key(name: str) -> str:
    """How an English name is matched in a query: lower-case words, punctuation dropped.

    >>> english_key("For Mirrodin!"), english_key("Web-slinging")
    ('for mirrodin', 'web slinging')
    """
    return " ".join(_EN_WORD.findall(name.lower()))


def name_pairs(name_en: str, name_ja: str) -> list[tuple[str, str]]:
    """The (English, Japanese) names a pair of titles or terms gives: the pair itself, then its
    parts where both sides list the same number of names.

    >>> name_pairs("Tap and Untap", "タップする、アンタップする")
    [('Tap and Untap', 'タップする、アンタップする'), ('Tap', 'タップする'), ('Untap', 'アンタップする')]
    >>> name_pairs("Control/Controller", "コントロール、コントローラー")[1:]
    [('Control', 'コントロール'), ('Controller', 'コントローラー')]
    """
    out = [(name_en, name_ja)]
    en_parts = [p for p in re.split(r"\s+and\s+|\s*/\s*|,\s+", re.sub(r"\((?:n|v|\d)\)$", "", name_en)) if p]
    ja_parts = [p for p in re.split(r"[、・]", name_ja) if p]
    if len(en_parts) > 1 and len(en_parts) == len(ja_parts):
        out.extend(zip(en_parts, ja_parts))
    return out


def fill_keyword_names(ctx: BuildContext, releases: list[str] | None = None) -> None:
    """``keyword_names``: English ↔ Japanese names from the 701/702 titles and the glossary.

    Japanese rows of any release count (rules quoted by wiki pages too); a title
    stored as its whole heading (``探す／Search``) gives its Japanese name only.
    """
    db = ctx.db
    sources = [
        ("rule", r["release"], r["number"], r["title_en"], split_title(r["title"])[0])
        for r in db.query("select release, number, title, title_en from rules where lang = 'ja'"
                          " and kind = 'numbered' and parent in ('701', '702') and title_en is not null")
    ] + [
        ("glossary", g["release"], json.loads(g["rule_refs"] or "[]")[0] if json.loads(g["rule_refs"] or "[]") else None,
         g["term_en"] or g["term_en_printed"], g["term_ja"])
        for g in db.query("select p.release, p.term_en, p.term_en_printed, p.term_ja, j.rule_refs"
                          " from glossary_pairs p join glossary j on j.id = p.ja_id")
    ]
    rows, seen = [], set()
    for source, release, number, name_en, name_ja in sources:
        if not name_en or not name_ja or (releases is not None and release not in releases):
            continue
        for en, ja in name_pairs(name_en, name_ja):
            if re.search(r"[\[［]", en + ja):
                continue  # "Partner with [name]": a pattern, not a name
            key_en, key_ja = english_key(en), search_form(ja)
            if not key_en or not key_ja or (release, source, key_en, key_ja) in seen:
                continue
            seen.add((release, source, key_en, key_ja))
            rows.append({"release": release, "source": source, "number": number, "name_en": en, "name_ja": ja,
                         "key_en": key_en, "key_ja": key_ja, "match_ja": "|".join(segment_query(ja))})
    db.table("keyword_names").insert_all(rows, batch_size=1000)
