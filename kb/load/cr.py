"""Load every English Comprehensive Rules release into the CR tables.

Each file of ``cr/en/`` and ``cr/en/archive/`` is parsed with
:func:`ingest.cr.parse_cr`; its records go to ``releases``, ``sections``,
``rules``, ``examples``, ``glossary``, ``rule_references`` and problems to
``ingest_problems``. Files of ``cr/en/raw/`` (original bytes of releases that
are also stored normalised) are parsed too and compared with the normalised
copy: ``release_sources`` says whether they agree, so a decoding bug shows.

Parsing runs in a pool of processes (one per core); the database is written
by this process only.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ingest.cr import parse_cr_text, release_from_filename
from ingest.decoding import read_source
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

from ..build import BuildContext, insert_rows
from ..corpus import english_cr_files, english_cr_raw_files


@dataclass
class ParsedFile:
    """What a worker sends back for one file: rows to insert, never the records themselves."""

    release: Release | None
    rows: dict[str, list[tuple]]
    problems: list[IngestProblem]
    info: dict
    signature: str  # a digest of (number, title, text) of every rule, to compare copies
    error: SourceError | None = None


def _parse_file(path: str, relative: str) -> ParsedFile:
    """Parse one file in a worker process."""
    try:
        decoded = read_source(path, relative)
    except SourceError as e:
        return ParsedFile(None, {}, [], {}, "", e)
    records = list(parse_cr_text(decoded.text, relative, release_from_filename(Path(path).name)))
    digest = hashlib.sha256()
    for r in records:
        if isinstance(r, Rule):
            digest.update(f"{r.number}\x00{r.title}\x00{r.text}\x01".encode())
    return ParsedFile(
        release=next((r for r in records if isinstance(r, Release)), None),
        rows=record_rows(records),
        problems=[p for p in records if isinstance(p, IngestProblem)],
        info={"encoding": decoded.encoding, "line_endings": decoded.line_endings,
              "compressed": int(decoded.compressed)},
        signature=digest.hexdigest(),
    )


RULE_COLUMNS = ["release", "lang", "number", "kind", "parent", "section", "title", "title_en", "text",
                "position", "source", "line", "search_ja"]
SECTION_COLUMNS = ["release", "lang", "number", "title", "position", "source", "line"]
EXAMPLE_COLUMNS = ["release", "lang", "rule_number", "seq", "text", "source", "line", "search_ja"]
GLOSSARY_COLUMNS = ["release", "lang", "term", "reading", "term_en", "aliases", "definition", "rule_refs",
                    "obsolete", "source", "line", "search_ja"]
REFERENCE_COLUMNS = ["release", "lang", "from_number", "from_kind", "to_number", "to_kind", "cited", "source", "line"]


TABLE_COLUMNS = {
    "rules": RULE_COLUMNS, "sections": SECTION_COLUMNS, "examples": EXAMPLE_COLUMNS,
    "glossary": GLOSSARY_COLUMNS, "rule_references": REFERENCE_COLUMNS,
}


def record_rows(records: list, *, search_ja=None) -> dict[str, list[tuple]]:
    """The rows (tuples in :data:`TABLE_COLUMNS` order) parsed CR records make, by table.

    ``search_ja`` is a function turning Japanese text into its search form; it
    is applied to ``lang == "ja"`` rows only. Plain tuples also cross process
    boundaries five times faster than the records.
    """

    def japanese(lang: str, text: str) -> str | None:
        return search_ja(text) if search_ja and lang == "ja" else None

    rows: dict[str, list[tuple]] = {table: [] for table in TABLE_COLUMNS}
    for r in records:
        if isinstance(r, Rule):
            rows["rules"].append((
                r.release, r.lang, r.number, r.kind, r.parent, r.number[0], r.title, r.title_en, r.text,
                r.position, r.source, r.line, japanese(r.lang, " ".join(filter(None, [r.title, r.text])))))
        elif isinstance(r, RuleRef):
            rows["rule_references"].append((
                r.release, r.lang, r.from_number, r.from_kind, r.to_number, r.to_kind, r.cited, r.source, r.line))
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


def insert_records(ctx: BuildContext, records: list, *, search_ja=None) -> Counter:
    """Insert parsed CR records (any language) into the CR tables; keep their problems;
    return counts by kind (rule, numbered, subrule, sections, examples, glossary,
    references, warning, error)."""
    counts = insert_record_rows(ctx, record_rows(records, search_ja=search_ja))
    problems = [p for p in records if isinstance(p, IngestProblem)]
    ctx.problems.extend(problems)
    counts["warning"] = sum(p.severity == "warning" for p in problems)
    counts["error"] = sum(p.severity == "error" for p in problems)
    return counts


def load_english_cr(ctx: BuildContext) -> None:
    """The build step: every English release, then the raw copies, then link references."""
    files = english_cr_files(ctx.corpus)
    raw_files = english_cr_raw_files(ctx.corpus)
    if not files:
        ctx.source_failed(SourceError(str(ctx.corpus / "cr" / "en"), None,
                                      "no English CR files (MagicCompRules_YYYYMMDD.txt) found"))
        return
    signatures: dict[str, tuple[str, str]] = {}
    workers = min(os.cpu_count() or 1, 4)
    all_files = [(f, False) for f in files] + [(f, True) for f in raw_files]
    with ctx.task("Parsing English CR", len(all_files)) as advance, ProcessPoolExecutor(workers) as pool:
        futures = [
            (f, is_raw, pool.submit(_parse_file, str(f.path), f.relative)) for f, is_raw in all_files
        ]
        for f, is_raw, future in futures:
            parsed = future.result()
            advance(1)
            if parsed.error is not None:
                ctx.source_failed(parsed.error)
                continue
            release = parsed.release
            source_row = {"source": f.relative, "lang": "en", **parsed.info}
            if release is None:
                ctx.problems.extend(parsed.problems)
                ctx.db["release_sources"].insert({**source_row, "used": 0, "note": "not a CR release"})
                continue
            source_row["release"] = release.release
            if is_raw or release.release in signatures:
                used_source, used_sig = signatures.get(release.release, (None, None))
                same = used_sig is not None and parsed.signature == used_sig
                ctx.db["release_sources"].insert({
                    **source_row, "used": 0, "same_as_used": int(same),
                    "note": f"same release as {used_source}; "
                    + ("rules identical" if same else "rules differ"),
                })
                if not same and used_sig is not None:
                    ctx.problems.append(IngestProblem(
                        f.relative, None, "warning", "copies-differ",
                        f"{f.relative} and {used_source} are both release {release.release} "
                        "but their rules differ; the normalised copy is used", release.release, "en"))
                continue
            signatures[release.release] = (f.relative, parsed.signature)
            counts = insert_record_rows(ctx, parsed.rows)
            ctx.problems.extend(parsed.problems)
            ctx.db["releases"].insert({
                "release": release.release, "lang": "en", "effective_date": release.effective_date,
                "source": release.source, "completeness": release.completeness,
                "version_label": release.version_label, "encoding": parsed.info["encoding"],
                "line_endings": parsed.info["line_endings"], "sections": counts["sections"],
                "rules": counts["rule"], "numbered_rules": counts["numbered"],
                "subrules": counts["subrule"], "examples": counts["examples"],
                "glossary_entries": counts["glossary"],
                "warnings": sum(p.severity == "warning" for p in parsed.problems),
                "errors": sum(p.severity == "error" for p in parsed.problems),
            })
            ctx.db["release_sources"].insert({**source_row, "used": 1, "same_as_used": 1})
