"""``kb build``, ``kb add`` and ``kb cache``: make the database, add a release to it, manage the cache."""

from __future__ import annotations

import textwrap
from pathlib import Path

import click

from ..build import BuildFailed, BuildSummary, build_database
from ..cache import Cache, default_cache_dir
from ..database import db_path
from ..options import corpus_option, db_option, echo_json, json_option, resolve_corpus


def cache_options(fn):
    """``--no-cache`` and ``--cache-dir DIR`` (or ``KB_CACHE_DIR``)."""
    fn = click.option("--cache-dir", type=click.Path(file_okay=False), default=None,
                      help="Where parsed releases and matches are cached [default: $KB_CACHE_DIR, "
                           "else ~/.cache/mtg-rules-kb].")(fn)
    return click.option("--no-cache", is_flag=True,
                        help="Neither read nor write the cache (parse and match everything).")(fn)


def _cache_dir(no_cache: bool, cache_dir: str | None):
    return False if no_cache else (Path(cache_dir) if cache_dir else True)


def _report(summary: BuildSummary, where: Path) -> None:
    if summary.mode == "unchanged":
        click.echo(f"{summary.path} is up to date with {where} (nothing changed since the last build; "
                   f"checked in {summary.seconds:.1f}s; `kb build --full` rebuilds it anyway).")
    elif summary.mode == "copied":
        click.echo(f"Built {summary.path} in {summary.seconds:.1f}s from {where}: {summary.reason} "
                   "(`kb build --full` runs every step).")
    else:
        counts = ", ".join(f"{n} {t}" for t, n in summary.counts.items() if n)
        what = ("Added " + ", ".join(f.relative for f in summary.added) + " to") if summary.mode == "add" else "Built"
        click.echo(f"{what} {summary.path} in {summary.seconds:.1f}s from {where}: {counts}.")
        if summary.mode == "full" and summary.reason:
            click.echo(f"(a full build: {summary.reason})", err=True)
        if summary.cache:
            click.echo(f"(cache hits: {summary.cache})", err=True)
    for note in summary.notes:
        click.echo(f"({note})", err=True)
    if summary.warnings or summary.errors:
        click.echo(
            f"{summary.warnings} warnings and {summary.errors} errors kept in the ingest_problems table "
            "(see: kb problems).", err=True
        )


@click.command()
@corpus_option
@db_option
@click.option("--keep-going", is_flag=True,
              help="Record unreadable source files as ingest problems instead of failing.")
@click.option("--full", is_flag=True, help="Rebuild everything, even when nothing changed.")
@cache_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def build(corpus, db, keep_going, full, no_cache, cache_dir, quiet):
    """Build the database from the corpus (all CR releases), atomically.

    When the database exists and only new CR files appeared in the corpus,
    they are added to it; when nothing changed, nothing is done. Parsed
    releases and release matches are cached by content outside the database.
    The database is written to a temporary file and renamed over --db only
    when the build succeeds; a failed build leaves the previous database
    untouched.

    Example:

        kb build --corpus ../shared/corpus --db kb.db
    """
    where = resolve_corpus(corpus)
    target = db_path(db)
    try:
        summary = build_database(target, where, show_progress=not quiet, keep_going=keep_going, full=full,
                                 cache_dir=_cache_dir(no_cache, cache_dir))
    except BuildFailed as e:
        raise click.ClickException(f"build failed: {e} (previous database at {target} left as it was)") from None
    _report(summary, where)


def _validate_lang(ctx, param, value):
    from ..languages import languages

    known = languages()
    if value not in known:
        raise click.BadParameter(f"{value!r} is not a CR language the build reads; use one of {', '.join(known)}")
    return value


@click.command("add")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--lang", default="en", show_default=True, callback=_validate_lang,
              help="The language of the CR file (en, ja, and any language a load step registers).")
@click.option("--check", "check_only", is_flag=True, help="Only check the file: copy nothing, change nothing.")
@corpus_option
@db_option
@cache_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@json_option
def add(file, lang, check_only, corpus, db, no_cache, cache_dir, quiet, as_json):
    """Add a new CR release: check FILE, copy it into the corpus, update the database.

    FILE is a CR text in any encoding the build reads (UTF-8, UTF-16,
    Windows-1252, gzip). A file that is not a CR, stops before its end, or has
    far fewer rules than the releases beside it is refused with the reason;
    then nothing changes. Otherwise it is copied into the corpus under its
    release id and added to the database, and the summary says what changed
    against the previous release and which citations went stale with it.

    Example:

        kb add --check ../shared/corpus/cr/en/MagicCompRules_20260925.txt
    """
    from ..add import RefusedFile, add_release

    where = resolve_corpus(corpus)
    target = db_path(db)
    try:
        result = add_release(file, lang=lang, corpus=where, db_path=target, cache_dir=_cache_dir(no_cache, cache_dir),
                             show_progress=not quiet and not as_json, check_only=check_only)
    except RefusedFile as e:
        raise click.ClickException(f"not added: {e}") from None
    except BuildFailed as e:
        raise click.ClickException(f"build failed: {e} (the corpus and {target} are as they were)") from None
    checked = result.checked
    counts = checked.counts
    if as_json:
        echo_json({
            "release": checked.release, "lang": checked.lang, "source": result.source, "copied": result.copied,
            "checked_only": check_only, "already": checked.already, "counts": counts,
            "warnings": [str(w) for w in checked.warnings],
            "build": {"mode": result.build.mode, "seconds": round(result.build.seconds, 2),
                      "cache": result.build.cache} if result.build else None,
            "previous": result.previous, "diff": result.diff.as_dict() if result.diff else None,
            "new_stale_citations": result.new_stale,
        })
        return
    described = (f"release {checked.release} ({checked.lang}): {counts['rule']} rules, {counts['numbered']} numbered "
                 f"rules, {counts['subrule']} subrules, {counts['examples']} examples, {counts['glossary']} glossary "
                 f"entries, {len(checked.warnings)} warnings")
    if checked.already:
        click.echo(f"{file} is already in the database as {checked.already}, {described}; nothing to do.")
        return
    if check_only:
        click.echo(f"{file} can be added as {result.source}: {described}.")
        return
    build = result.build
    how = {"add": "added to", "full": "rebuilt", "unchanged": "already in"}.get(build.mode, build.mode)
    click.echo(f"Added {result.source}, {described}; {build.path} {how} in {build.seconds:.1f}s.")
    if build.mode == "full" and build.reason:
        click.echo(f"(a full build: {build.reason})", err=True)
    if result.diff is not None:
        c = result.diff.counts()
        click.echo(f"Against {result.previous}: {c['moved']} moved, {c['changed']} changed, {c['added']} added, "
                   f"{c['removed']} removed, {c['unchanged']} unchanged "
                   f"(`kb diff {result.previous} {checked.release}` shows them).")
        for block in result.diff.move_blocks[:10]:
            click.echo(f"  moved {block}")
    if result.new_stale:
        click.echo(f"{len(result.new_stale)} citations went stale with it (`kb stale` lists them all):")
        for s in result.new_stale[:20]:
            click.echo("  " + textwrap.shorten(f"{s['source']}:{s['line']}: {s['message']}", 150, placeholder=" …"))
    else:
        click.echo("No citation went stale with it.")


@click.group()
def cache():
    """The build cache: parsed releases and release matches, by content.

    Example:

        kb cache info
    """


@cache.command("info")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="[default: $KB_CACHE_DIR, "
              "else ~/.cache/mtg-rules-kb]")
@json_option
def cache_info(cache_dir, as_json):
    """Where the cache is and what it holds, by kind.

    Example:

        kb cache info
    """
    root = Path(cache_dir) if cache_dir else default_cache_dir()
    entries = Cache(root).entries()
    by_kind: dict[str, list[int]] = {}
    for path, size, _used in entries:
        kind = path.parent.name if path.parent.parent == root else path.parent.parent.name  # oracle-parse/<v>.sqlite
        by_kind.setdefault(kind, []).append(size)
    if as_json:
        echo_json({"path": str(root), "kinds": {k: {"entries": len(v), "bytes": sum(v)} for k, v in by_kind.items()}})
        return
    click.echo(f"{root}: {len(entries)} entries, {sum(s for _, s, _ in entries) / 1e6:.1f} MB")
    for kind, sizes in sorted(by_kind.items()):
        click.echo(f"  {kind:<10} {len(sizes):>5} entries {sum(sizes) / 1e6:>8.1f} MB")


@cache.command("clear")
@click.option("--cache-dir", type=click.Path(file_okay=False), default=None, help="[default: $KB_CACHE_DIR, "
              "else ~/.cache/mtg-rules-kb]")
def cache_clear(cache_dir):
    """Remove every cache entry (the next build parses and matches everything again).

    Example:

        kb cache clear
    """
    root = Path(cache_dir) if cache_dir else default_cache_dir()
    click.echo(f"Removed {Cache(root).clear()} entries from {root}.")
