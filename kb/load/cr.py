"""Load every English Comprehensive Rules release into the CR tables, and finish the CR tables.

Each file of ``cr/en/`` and ``cr/en/archive/`` is parsed with
:func:`ingest.cr.parse_cr_text`; its records go to ``releases``, ``sections``,
``rules``, ``examples``, ``glossary``, ``rule_references`` and problems to
``ingest_problems``. Files of ``cr/en/raw/`` (original bytes of releases that
are also stored normalised) are parsed too and compared with the normalised
copy: ``release_sources`` says whether they agree, so a decoding bug shows.

A file is parsed once for all builds: its rows are cached by the file's
content and the parser's code (:mod:`kb.cache`, namespace ``cr-en``). Files
the cache doesn't have are parsed in worker processes when that pays
(:func:`kb.build.useful_processes`, or ``KB_BUILD_WORKERS``); the database is
written by this process only, in file order, so a build gives the same rows
whichever way its files were parsed. A file cut short (no credits at its end)
stops the build with the file's name.

When releases are added (``ctx.mode == "add"``) only the new files are read;
:func:`finish_cr` then indexes just their rows.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import time
from concurrent.futures import Future
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ingest.cr import parse_cr_text, release_from_filename
from ingest.decoding import lost_characters, read_source
from ingest.records import (
    Example,
    GlossaryEntry,
    IngestProblem,
    Release,
    Rule,
    RuleRef,
    Section,
    SourceError,
)

from ..build import BuildContext, IdleCores, NeedsFullBuild, insert_rows, worker_pool
from ..cache import code_version, copy_row_file, file_digest, read_row_file, write_row_file
from ..corpus import CorpusFile, english_cr_files, english_cr_raw_files
from ..history import rules_digest
from ..languages import CRLanguage, register_language

# The modules whose code makes a parsed file's rows: a change in any of them parses again.
PARSER_MODULES = ("ingest.cr", "ingest.numbering", "ingest.rule_refs", "ingest.decoding", "ingest.records",
                  "kb.load.cr", "kb.history")


@dataclass
class ParsedFile:
    """What parsing one file gives besides its rows, as plain values: the rows themselves go to a row
    file (:func:`kb.cache.write_row_file`) that the database copies them from."""

    release: list | None  # [release, lang, effective_date, source, completeness, version_label]
    problems: list[list]  # [source, line, severity, code, message, release, lang]
    info: dict
    signature: str  # a digest of (number, title, text) of every rule, to compare copies
    rules_digest: str  # what history matching sees of the release (kb.history.rules_digest)
    counts: dict  # kinds of rule, and rows by table
    error: list | None = None  # [path, line, message] of a SourceError


def parse_file(path: str, relative: str, out: str, key: str) -> ParsedFile:
    """Parse one English CR file; its rows go to the row file ``out`` (run in a worker process, or here)."""
    try:
        decoded = read_source(path, relative)
    except SourceError as e:
        parsed = ParsedFile(None, [], {}, "", "", {}, [e.path, e.line, e.message])
    else:
        records = list(parse_cr_text(decoded.text, relative, release_from_filename(Path(path).name)))
        records += filter(None, [lost_characters(decoded)])
        rows = record_rows(records, resolve=True)
        release = next((r for r in records if isinstance(r, Release)), None)
        counts = dict(Counter(row[3] for row in rows["rules"]))
        counts.update({table: len(table_rows) for table, table_rows in rows.items()})
        parsed = ParsedFile(
            release=[release.release, release.lang, release.effective_date, release.source, release.completeness,
                     release.version_label] if release else None,
            problems=[list(_problem_row(p)) for p in records if isinstance(p, IngestProblem)],
            info={"encoding": decoded.encoding, "line_endings": decoded.line_endings,
                  "compressed": int(decoded.compressed)},
            signature=_signature(records),
            rules_digest=rules_digest(_rule_texts(rows["rules"])),
            counts=counts,
        )
    write_row_file(Path(out), key, {t: (TABLE_COLUMNS[t], r) for t, r in
                                    (rows.items() if parsed.error is None else [])}, dict(parsed.__dict__))
    return parsed


def _signature(records: list) -> str:
    """A digest of (number, title, text) of every rule: two copies of a release agree when it does."""
    import hashlib

    return hashlib.sha256(repr([(r.number, r.title, r.text) for r in records if isinstance(r, Rule)]).encode()
                          ).hexdigest()


def _rule_texts(rule_rows: list[tuple]):
    """The (number, kind, parent, title, text, position, title_en) of rule rows, as history reads them."""
    for (_release, _lang, number, kind, parent, _section, title, title_en, text, position, *_rest) in rule_rows:
        yield (number, kind, parent or "", title, text or "", position or 0, title_en)


def _problem_row(p: IngestProblem) -> tuple:
    return (p.source, p.line, p.severity, p.code, p.message, p.release, p.lang)


def _problem(row: tuple) -> IngestProblem:
    return IngestProblem(*row)


RULE_COLUMNS = ["release", "lang", "number", "kind", "parent", "section", "title", "title_en", "text",
                "position", "source", "line", "search_ja"]
SECTION_COLUMNS = ["release", "lang", "number", "title", "position", "source", "line"]
EXAMPLE_COLUMNS = ["release", "lang", "rule_number", "seq", "text", "source", "line", "search_ja"]
GLOSSARY_COLUMNS = ["release", "lang", "term", "reading", "term_en", "aliases", "definition", "rule_refs",
                    "obsolete", "source", "line", "search_ja"]
REFERENCE_COLUMNS = ["release", "lang", "from_number", "from_kind", "to_number", "to_kind", "cited", "source", "line",
                     "resolved"]


TABLE_COLUMNS = {
    "rules": RULE_COLUMNS, "sections": SECTION_COLUMNS, "examples": EXAMPLE_COLUMNS,
    "glossary": GLOSSARY_COLUMNS, "rule_references": REFERENCE_COLUMNS,
}


def record_rows(records: list, *, search_ja=None, resolve: bool = False) -> dict[str, list[tuple]]:
    """The rows (tuples in :data:`TABLE_COLUMNS` order) parsed CR records make, by table.

    ``search_ja`` is a function turning Japanese text into its search form; it
    is applied to ``lang == "ja"`` rows only. With ``resolve`` (the records
    are one whole release) a reference's ``resolved`` is set here, from the
    release's own rules and sections; otherwise it is left for
    :func:`finish_cr`. Plain tuples also cross process boundaries five times
    faster than the records.
    """

    def japanese(lang: str, text: str) -> str | None:
        return search_ja(text) if search_ja and lang == "ja" else None

    numbers = {r.number for r in records if isinstance(r, (Rule, Section))} if resolve else set()
    rows: dict[str, list[tuple]] = {table: [] for table in TABLE_COLUMNS}
    for r in records:
        if isinstance(r, Rule):
            rows["rules"].append((
                r.release, r.lang, r.number, r.kind, r.parent, r.number[0], r.title, r.title_en, r.text,
                r.position, r.source, r.line, japanese(r.lang, " ".join(filter(None, [r.title, r.text])))))
        elif isinstance(r, RuleRef):
            rows["rule_references"].append((
                r.release, r.lang, r.from_number, r.from_kind, r.to_number, r.to_kind, r.cited, r.source, r.line,
                int(r.to_number in numbers) if resolve else None))
        elif isinstance(r, Example):
            rows["examples"].append((
                r.release, r.lang, r.rule_number, r.seq, r.text, r.source, r.line, japanese(r.lang, r.text)))
        elif isinstance(r, GlossaryEntry):
            rows["glossary"].append((
                r.release, r.lang, r.term, r.reading, r.term_en, json.dumps(list(r.aliases), ensure_ascii=False),
                r.definition, json.dumps(list(r.rule_refs)), int(r.obsolete), r.source, r.line,
                japanese(r.lang, f"{r.term} {r.definition}")))
        elif isinstance(r, Section):
            rows["sections"].append((r.release, r.lang, r.number, r.title, r.position, r.source, r.line))
    return rows


def insert_record_rows(ctx: BuildContext, rows: dict[str, list[tuple]]) -> Counter:
    """Insert rows from :func:`record_rows`; return counts by kind."""
    for table, table_rows in rows.items():
        if table_rows:
            insert_rows(ctx.db, table, TABLE_COLUMNS[table], table_rows)
    counts: Counter = Counter(row[3] for row in rows["rules"])  # kind
    counts.update(sections=len(rows["sections"]), examples=len(rows["examples"]),
                  glossary=len(rows["glossary"]), references=len(rows["rule_references"]))
    return counts


def insert_records(ctx: BuildContext, records: list, *, search_ja=None, cache_as: tuple[str, ...] | None = None
                   ) -> Counter:
    """Insert parsed CR records (any language) into the CR tables; keep their problems;
    return counts by kind (rule, numbered, subrule, sections, examples, glossary,
    references, warning, error).

    ``cache_as`` (the file's relative path and digest, say) caches the rows:
    making the search form of 6,000 Japanese rows takes seconds.
    """
    if cache_as is not None:
        rows = ctx.cache.memo("cr-rows", _rows_code_version(), cache_as,
                              lambda: record_rows(records, search_ja=search_ja))
    else:
        rows = record_rows(records, search_ja=search_ja)
    counts = insert_record_rows(ctx, rows)
    problems = [p for p in records if isinstance(p, IngestProblem)]
    ctx.problems.extend(problems)
    counts["warning"] = sum(p.severity == "warning" for p in problems)
    counts["error"] = sum(p.severity == "error" for p in problems)
    return counts


def _rows_code_version() -> str:
    """Rows of any language: the parsers, the search form and the dictionary it segments with."""
    from ..cache import digest, package_versions

    versions = package_versions("sudachipy", "sudachidict_core")
    return digest(code_version(*PARSER_MODULES, "ingest.cr_ja", "ingest.glossary_ja", "kb.japanese"), *versions)


# --- the build step -------------------------------------------------------------------


def _parsed_files(ctx: BuildContext, files: list[tuple[CorpusFile, bool]], scratch: Path):
    """Yield ``(file, is_raw, ParsedFile, row file)`` in the order of ``files``: from the cache, or
    parsed here or in workers (into the cache, or ``scratch`` when there is none)."""
    code = code_version(*PARSER_MODULES)
    keys = [ctx.cache.key("cr-en", code, f.relative, file_digest(f.path)) for f, _raw in files]
    outs = [ctx.cache.rows_path("cr-en", key) or scratch / f"{i}.sqlite" for i, key in enumerate(keys)]
    found: dict[int, ParsedFile] = {}
    for i, out in enumerate(outs):
        entry = read_row_file(out, keys[i]) if ctx.cache.enabled else None
        if entry is not None:
            try:
                found[i] = ParsedFile(**entry[0])
            except TypeError:  # another layout under the same key: parse again
                continue
            ctx.cache.hits["cr-en"] += 1
        else:
            ctx.cache.misses["cr-en"] += 1
    missing = [i for i in range(len(files)) if i not in found]
    with contextlib.ExitStack() as stack:
        futures: dict[int, Future] = {}
        if missing:
            # Parse the first file here, timed, to tell whether worker processes would pay.
            first = missing[0]
            t0, idle = time.perf_counter(), IdleCores()
            found[first] = parse_file(str(files[first][0].path), files[first][0].relative, str(outs[first]), keys[first])
            seconds = (time.perf_counter() - t0) * (len(missing) - 1)
            spare = idle()
            workers = ctx.processes_for(seconds, env="KB_BUILD_WORKERS", idle=spare) if len(missing) > 1 else 1
            ctx.notes.append(f"parsed {len(missing)} English files in {workers} process{'es' if workers > 1 else ''}"
                             + (f" ({spare:.1f} idle cores)" if spare is not None else ""))
            if workers > 1:
                pool = stack.enter_context(worker_pool(workers))
                futures = {i: pool.submit(parse_file, str(files[i][0].path), files[i][0].relative, str(outs[i]), keys[i])
                           for i in missing[1:]}
        for i, (f, is_raw) in enumerate(files):
            parsed = found.pop(i, None)
            if parsed is None:
                future = futures.pop(i, None)
                parsed = future.result() if future is not None else parse_file(
                    str(f.path), f.relative, str(outs[i]), keys[i])
            yield f, is_raw, parsed, outs[i]


def load_english_cr(ctx: BuildContext) -> None:
    """The build step: every English release, then the raw copies (in add mode, only the new files)."""
    if ctx.mode == "add":
        new = {a.relative for a in ctx.added if a.lang == "en"}
        files = [(f, False) for f in english_cr_files(ctx.corpus) if f.relative in new]
        if not files:
            return
    else:
        files = english_cr_files(ctx.corpus)
        if not files:
            ctx.source_failed(SourceError(str(ctx.corpus / "cr" / "en"), None,
                                          "no English CR files (MagicCompRules_YYYYMMDD.txt) found"))
            return
        files = [(f, False) for f in files] + [(f, True) for f in english_cr_raw_files(ctx.corpus)]
    signatures: dict[str, tuple[str, str]] = {}
    if ctx.mode == "add":
        signatures = {r[0]: (r[1], "") for r in ctx.db.execute(
            "select release, source from releases where lang = 'en'")}
    with tempfile.TemporaryDirectory(prefix="kb-build-") as scratch, \
            ctx.task("Parsing English CR", len(files)) as advance:
        for f, is_raw, parsed, rows in _parsed_files(ctx, files, Path(scratch)):
            advance(1)
            _load_parsed(ctx, f, is_raw, parsed, rows, signatures)


def _load_parsed(ctx: BuildContext, f: CorpusFile, is_raw: bool, parsed: ParsedFile, rows: Path,
                 signatures: dict[str, tuple[str, str]]) -> None:
    if parsed.error is not None:
        ctx.source_failed(SourceError(*parsed.error))
        return
    problems = [_problem(p) for p in parsed.problems]
    truncated = next((p for p in problems if p.code == "truncated" and p.severity == "error"), None)
    if truncated is not None:
        # Loading half a release would make it the newest release, with half its rules "removed".
        ctx.source_failed(SourceError(f.relative, truncated.line, truncated.message))
        return
    source_row = {"source": f.relative, "lang": "en", **parsed.info}
    if parsed.release is None:
        ctx.problems.extend(problems)
        ctx.db["release_sources"].insert({**source_row, "used": 0, "note": "not a CR release"})
        return
    release, _lang, effective_date, source, completeness, version_label = parsed.release
    source_row["release"] = release
    if is_raw or release in signatures:
        used_source, used_sig = signatures.get(release, (None, None))
        if ctx.mode == "add":
            raise NeedsFullBuild(f"{f.relative} is release {release}, which {used_source} already gives")
        same = used_sig is not None and parsed.signature == used_sig
        ctx.db["release_sources"].insert({
            **source_row, "used": 0, "same_as_used": int(same),
            "note": f"same release as {used_source}; " + ("rules identical" if same else "rules differ"),
        })
        if not same and used_sig is not None:
            ctx.problems.append(IngestProblem(
                f.relative, None, "warning", "copies-differ",
                f"{f.relative} and {used_source} are both release {release} "
                "but their rules differ; the normalised copy is used", release, "en"))
        return
    signatures[release] = (f.relative, parsed.signature)
    copy_row_file(ctx.db.conn, rows, TABLE_COLUMNS)
    counts = Counter(parsed.counts)
    ctx.problems.extend(problems)
    ctx.record_rules_digest("en", release, parsed.rules_digest)
    ctx.db["releases"].insert({
        "release": release, "lang": "en", "effective_date": effective_date,
        "source": source, "completeness": completeness,
        "version_label": version_label, "encoding": parsed.info["encoding"],
        "line_endings": parsed.info["line_endings"], "sections": counts["sections"],
        "rules": counts["rule"], "numbered_rules": counts["numbered"],
        "subrules": counts["subrule"], "examples": counts["examples"],
        "glossary_entries": counts["glossary"],
        "warnings": sum(p.severity == "warning" for p in problems),
        "errors": sum(p.severity == "error" for p in problems),
    })
    ctx.db["release_sources"].insert({**source_row, "used": 1, "same_as_used": 1})


def read_english_release(path: Path, relative: str) -> list:
    """The records of one English CR file (for ``kb add``'s checks before it copies the file)."""
    decoded = read_source(path, relative)
    return [*parse_cr_text(decoded.text, relative, release_from_filename(Path(path).name)),
            *filter(None, [lost_characters(decoded)])]


def _english_corpus_path(release: str) -> str:
    return f"cr/en/MagicCompRules_{release}.txt"


register_language(CRLanguage(
    lang="en", name="English", step="English CR", files=english_cr_files, read=read_english_release,
    corpus_path=_english_corpus_path,
))


# --- finishing the CR tables ------------------------------------------------------------


def finish_cr(ctx: BuildContext) -> None:
    """The "finish CR" step: indexes, resolved references, full-text search, views and
    ``search_current``, once every source's CR rows are in (faster than indexing as we insert).

    A full build indexes everything; when releases are added, only the rows
    the full-text indexes don't have yet (new rows have the highest rowids).
    """
    from .. import schema

    db = ctx.db
    work = len(schema.INDEXES) + 1 + len(schema.FTS_TABLES) + 1
    with ctx.task("Indexing the CR", work) as advance:
        for table, columns in schema.INDEXES:
            db[table].create_index(columns, if_not_exists=True)
            advance(1)
        # A keyword title in any case ("discover"): the canned query "a rule across releases" asks
        # lower(title) = lower(:rule), which an index on the expression answers without a scan.
        db.execute("create index if not exists idx_rules_title_lower on rules (lower(title))")
        # A reference is resolved when its target exists in the same release and language
        # (the English loader has said so already for its own rows).
        db.execute(schema._RESOLVE_REFERENCES + " where resolved is null")
        db.conn.commit()
        advance(1)
        for table, columns in schema.FTS_TABLES.items():
            fts = f"{table}_fts"
            if fts in db.table_names():
                done = db.execute(f"select coalesce(max(id), 0) from [{fts}_docsize]").fetchone()[0]
                cols = ", ".join(f"[{c}]" for c in columns)
                db.execute(f"insert into [{fts}] (rowid, {cols}) select rowid, {cols} from [{table}]"
                           " where rowid > ?", [done])
                db.conn.commit()
            else:
                db[table].enable_fts(columns, fts_version="FTS5", tokenize=schema.FTS_TOKENIZE,
                                     create_triggers=False)
            advance(1)
        for name, sql in schema.VIEWS.items():
            db.create_view(name, sql, replace=True)
        # search_current holds the newest release of each language: made anew each time.
        if ctx.mode == "add":
            db["search_current"].drop(ignore=True)
            for name in ("search_current_fts",):
                db[name].drop(ignore=True)
            schema.create_tables(db, {"search_current": schema.CR_TABLES["search_current"]})
        schema.fill_search_current(db)
        advance(1)
