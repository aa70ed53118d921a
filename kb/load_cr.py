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

import json
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Iterable

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

from .build import BuildContext
from .corpus import english_cr_files, english_cr_raw_files


def _parse_file(path: str, relative: str) -> tuple[list, dict, SourceError | None]:
    """Parse one file in a worker: records, what the decoder found, or the error."""
    try:
        decoded = read_source(path, relative)
        from ingest.cr import parse_cr_text, release_from_filename

        records = list(parse_cr_text(decoded.text, relative, release_from_filename(Path(path).name)))
        info = {
            "encoding": decoded.encoding,
            "line_endings": decoded.line_endings,
            "compressed": int(decoded.compressed),
        }
        return records, info, None
    except SourceError as e:
        return [], {}, e


def rule_rows(records: Iterable) -> list[dict]:
    """Rows of the ``rules`` table from parsed records."""
    return [
        {
            "release": r.release, "lang": r.lang, "number": r.number, "kind": r.kind,
            "parent": r.parent, "section": r.number[0], "title": r.title, "title_en": r.title_en,
            "text": r.text, "position": r.position, "source": r.source, "line": r.line,
        }
        for r in records
        if isinstance(r, Rule)
    ]


def insert_records(ctx: BuildContext, records: list, *, search_ja=None) -> Counter:
    """Insert parsed CR records (any language) into the CR tables; return counts by kind.

    ``search_ja`` is a function turning Japanese text into its search form; it
    is applied to ``lang == "ja"`` rows only.
    """
    db = ctx.db
    counts: Counter = Counter()
    rules = rule_rows(records)
    if search_ja:
        for row in rules:
            if row["lang"] == "ja":
                row["search_ja"] = search_ja(" ".join(filter(None, [row["title"], row["text"]])))
    db["rules"].insert_all(rules, batch_size=2000)
    for row in rules:
        counts[row["kind"]] += 1
    sections = [r for r in records if isinstance(r, Section)]
    db["sections"].insert_all(
        ({"release": s.release, "lang": s.lang, "number": s.number, "title": s.title,
          "position": s.position, "source": s.source, "line": s.line} for s in sections),
        batch_size=100,
    )
    counts["sections"] = len(sections)
    examples = [
        {"release": e.release, "lang": e.lang, "rule_number": e.rule_number, "seq": e.seq,
         "text": e.text, "source": e.source, "line": e.line,
         "search_ja": search_ja(e.text) if search_ja and e.lang == "ja" else None}
        for e in records if isinstance(e, Example)
    ]
    db["examples"].insert_all(examples, batch_size=1000)
    counts["examples"] = len(examples)
    glossary = [
        {"release": g.release, "lang": g.lang, "term": g.term, "reading": g.reading,
         "term_en": g.term_en, "aliases": json.dumps(list(g.aliases), ensure_ascii=False),
         "definition": g.definition, "rule_refs": json.dumps(list(g.rule_refs)),
         "obsolete": int(g.obsolete), "source": g.source, "line": g.line,
         "search_ja": search_ja(f"{g.term} {g.definition}") if search_ja and g.lang == "ja" else None}
        for g in records if isinstance(g, GlossaryEntry)
    ]
    db["glossary"].insert_all(glossary, batch_size=1000)
    counts["glossary"] = len(glossary)
    refs = [
        {"release": r.release, "lang": r.lang, "from_number": r.from_number,
         "from_kind": r.from_kind, "to_number": r.to_number, "to_kind": r.to_kind,
         "cited": r.cited, "source": r.source, "line": r.line}
        for r in records if isinstance(r, RuleRef)
    ]
    db["rule_references"].insert_all(refs, batch_size=2000)
    counts["references"] = len(refs)
    problems = [p for p in records if isinstance(p, IngestProblem)]
    ctx.problems.extend(problems)
    counts["warning"] = sum(p.severity == "warning" for p in problems)
    counts["error"] = sum(p.severity == "error" for p in problems)
    return counts


def _signature(records: list) -> list[tuple]:
    return [(r.number, r.title, r.text) for r in records if isinstance(r, Rule)]


def load_english_cr(ctx: BuildContext) -> None:
    """The build step: every English release, then the raw copies, then link references."""
    files = english_cr_files(ctx.corpus)
    raw_files = english_cr_raw_files(ctx.corpus)
    if not files:
        ctx.source_failed(SourceError(str(ctx.corpus / "cr" / "en"), None,
                                      "no English CR files (MagicCompRules_YYYYMMDD.txt) found"))
        return
    signatures: dict[str, tuple[str, list]] = {}
    workers = min(os.cpu_count() or 1, 4)
    all_files = [(f, False) for f in files] + [(f, True) for f in raw_files]
    with ctx.task("Parsing English CR", len(all_files)) as advance, ProcessPoolExecutor(workers) as pool:
        futures = [
            (f, is_raw, pool.submit(_parse_file, str(f.path), f.relative)) for f, is_raw in all_files
        ]
        for f, is_raw, future in futures:
            records, info, error = future.result()
            advance(1)
            if error is not None:
                ctx.source_failed(error)
                continue
            release = next((r for r in records if isinstance(r, Release)), None)
            source_row = {"source": f.relative, "lang": "en", **info}
            if release is None:
                ctx.problems.extend(p for p in records if isinstance(p, IngestProblem))
                ctx.db["release_sources"].insert({**source_row, "used": 0, "note": "not a CR release"})
                continue
            source_row["release"] = release.release
            if is_raw or release.release in signatures:
                used_source, used_sig = signatures.get(release.release, (None, None))
                same = used_sig is not None and _signature(records) == used_sig
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
            signatures[release.release] = (f.relative, _signature(records))
            counts = insert_records(ctx, records)
            ctx.db["releases"].insert({
                "release": release.release, "lang": "en", "effective_date": release.effective_date,
                "source": release.source, "completeness": release.completeness,
                "version_label": release.version_label, "encoding": info["encoding"],
                "line_endings": info["line_endings"], "sections": counts["sections"],
                "rules": counts["rule"], "numbered_rules": counts["numbered"],
                "subrules": counts["subrule"], "examples": counts["examples"],
                "glossary_entries": counts["glossary"], "warnings": counts["warning"],
                "errors": counts["error"],
            })
            ctx.db["release_sources"].insert({**source_row, "used": 1, "same_as_used": 1})
