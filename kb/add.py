"""Add a new Comprehensive Rules release: check the file, put it in the corpus, update the database.

``kb add FILE`` (``--lang ja``, or any language a load module registers,
:mod:`kb.languages`) is what a user runs the day Wizards publishes a new CR:

1. **Check** the file: it is read in any encoding the build reads and parsed
   with its language's parser; a file that is not a CR, that stops before its
   end, or that has far fewer rules than the releases beside it
   (:func:`kb.load.release_checks.far_fewer`) is refused with the reason, and
   nothing is touched. A release the database already has from another file
   is refused too; the same file again is nothing to do.
2. **Copy** it into the corpus under its release id, bytes as they are
   (``cr/en/MagicCompRules_20260925.txt``; ``.txt.gz`` if it is gzip).
3. **Build**: :func:`kb.build.build_database` sees one new CR file and adds it
   to a copy of the database (parse it, match it with the releases beside
   it, extend the lineages, check citations again), renamed over the
   database when done. If that fails the copy is removed from the corpus and
   the database is as it was.
4. **Report**: its counts, what moved, changed, was added and removed against
   the previous release (as ``kb diff``), and the citations that went stale
   with it.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console

from ingest.records import IngestProblem, Release, Rule, SourceError

from .build import BuildSummary, build_database
from .cache import file_digest
from .languages import languages


class RefusedFile(Exception):
    """The file is not added; the message says why (``path: reason``)."""


@dataclass
class CheckedFile:
    """A file that passed the checks: its release and counts."""

    path: Path
    lang: str
    release: str
    counts: dict[str, int]
    warnings: list[IngestProblem]
    already: str | None = None  # the corpus file that gives this release already, when it is the same file


@dataclass
class AddResult:
    """What ``kb add`` did."""

    checked: CheckedFile
    source: str  # the file's path in the corpus
    copied: bool
    build: BuildSummary | None
    previous: str | None = None  # the whole release before it, in its language
    diff: object | None = None  # kb.diff.ReleaseDiff against ``previous``
    new_stale: list[dict] = field(default_factory=list)


def check_file(path: Path, lang: str, db_path: Path, corpus: Path) -> CheckedFile:
    """Check ``path`` as a CR release of ``lang`` against the database; raise :class:`RefusedFile` if it
    can't be added."""
    from .load.release_checks import far_fewer
    from .sqlite import sqlite3

    known = languages()
    if lang not in known:
        raise RefusedFile(f"no CR parser for language {lang!r}; known: {', '.join(known)}")
    language = known[lang]
    try:
        records = list(language.read(path, path.name))
    except SourceError as e:
        raise RefusedFile(f"{path}: {e.message}" + (f" (line {e.line})" if e.line else "")) from None
    errors = [p for p in records if isinstance(p, IngestProblem) and p.severity == "error"]
    release = next((r for r in records if isinstance(r, Release)), None)
    fatal = next((p for p in errors if p.code in ("not-a-cr", "truncated")), None)
    if release is None or fatal is not None:
        problem = fatal or (errors[0] if errors else None)
        where = f"{path}:{problem.line}" if problem and problem.line else str(path)
        raise RefusedFile(f"{where}: {problem.message if problem else 'not a Comprehensive Rules release'}")
    rules = [r for r in records if isinstance(r, Rule)]
    counts = {kind: sum(r.kind == kind for r in rules) for kind in ("rule", "numbered", "subrule")}
    counts["glossary"] = sum(type(r).__name__ == "GlossaryEntry" for r in records)
    counts["examples"] = sum(type(r).__name__ == "Example" for r in records)
    checked = CheckedFile(path, lang, release.release, counts,
                          [p for p in records if isinstance(p, IngestProblem) and p.severity == "warning"])
    if not db_path.exists():
        return checked
    conn = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        others = [tuple(r) for r in conn.execute(
            "select release, lang, source, coalesce(numbered_rules, 0) + coalesce(subrules, 0),"
            " coalesce(glossary_entries, 0) from releases where completeness = 'whole'")]
        existing = conn.execute("select source, completeness from releases where release = ? and lang = ?",
                                [release.release, lang]).fetchone()
    finally:
        conn.close()
    if existing is not None:
        source, completeness = existing
        if completeness == "whole" and (corpus / source).is_file() and file_digest(corpus / source) == file_digest(path):
            checked.already = source
            return checked
        if completeness == "whole":
            raise RefusedFile(f"{path}: release {release.release} ({lang}) is already in the database, from {source};"
                              " to replace it, put the new file in its place in the corpus and run `kb build`")
    reason = far_fewer(release.release, lang, counts["numbered"] + counts["subrule"], counts["glossary"], others)
    if reason:
        raise RefusedFile(f"{path}: release {release.release} ({lang}) looks cut short: {reason}")
    return checked


def _copy_into_corpus(checked: CheckedFile, corpus: Path) -> tuple[str, bool]:
    """Put the file in the corpus where its language reads it; (relative path, whether a file was written)."""
    from .languages import language_of

    language = languages()[checked.lang]
    data = checked.path.read_bytes()
    relative = language.corpus_path(checked.release)
    if data[:2] == b"\x1f\x8b":
        relative += ".gz"
    target = corpus / relative
    if target.exists():
        if target.read_bytes() == data:
            return relative, False
        raise RefusedFile(f"{checked.path}: {target} exists with other content; not overwritten")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    except OSError as e:
        raise RefusedFile(f"cannot copy {checked.path} into the corpus at {target}: {e.strerror}") from None
    if language_of(corpus, relative) != checked.lang and relative.endswith(".gz"):
        # This language reads plain files only: store the text uncompressed.
        target.unlink()
        relative = relative[:-3]
        target = corpus / relative
        target.write_bytes(gzip.decompress(data))
    if language_of(corpus, relative) != checked.lang:
        target.unlink()
        raise RefusedFile(f"{checked.lang} does not read {relative} as one of its files; not copied")
    return relative, True


def _stale(db_path: Path) -> set[tuple]:
    from .sqlite import sqlite3

    if not db_path.exists():
        return set()
    conn = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        if not conn.execute("select 1 from sqlite_master where name = 'stale_citations'").fetchone():
            return set()
        return {tuple(r) for r in conn.execute(
            "select source, line, cited_number, reason, suggested_number, message from stale_citations")}
    finally:
        conn.close()


def add_release(path: Path, *, lang: str, corpus: Path, db_path: Path, cache_dir: Path | None | bool = True,
                show_progress: bool = True, console: Console | None = None, check_only: bool = False) -> AddResult:
    """Check, copy and build; see the module docstring. Raises :class:`RefusedFile` or
    :class:`kb.build.BuildFailed` (then the corpus and the database are as they were)."""
    checked = check_file(path, lang, db_path, corpus)
    if check_only or checked.already:
        return AddResult(checked, checked.already or languages()[lang].corpus_path(checked.release), False, None)
    stale_before = _stale(db_path)
    relative, copied = _copy_into_corpus(checked, corpus)
    try:
        summary = build_database(db_path, corpus, show_progress=show_progress, console=console, cache_dir=cache_dir)
    except BaseException:
        if copied:
            (corpus / relative).unlink(missing_ok=True)
        raise
    result = AddResult(checked, relative, copied, summary)
    result.new_stale = [
        dict(zip(("source", "line", "cited_number", "reason", "suggested_number", "message"), row))
        for row in sorted(_stale(db_path) - stale_before, key=lambda r: (r[0], r[1] or 0))
    ]
    from .database import open_db
    from .diff import diff_releases

    db = open_db(db_path)
    previous = db.execute(
        "select max(release) from releases where lang = ? and completeness = 'whole' and release < ?",
        [lang, checked.release]).fetchone()[0]
    if previous:
        result.previous = previous
        result.diff = diff_releases(db, previous, checked.release, lang=lang)
    return result
