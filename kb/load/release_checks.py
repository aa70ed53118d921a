"""Build step "check releases": a release whose file was cut short stops the build.

A file cut in half still parses: the newest English CR cut in half gave a
release of 1,727 rules that became "the newest release", half the rules
"removed". Two signs give a cut file away, and either stops the build (or,
with ``--keep-going``, is an error in ``ingest_problems``):

1. its parser found it stops before its end (``truncated``: the English CR
   ends with its glossary and credits, the Japanese with its credits and the
   date it takes effect);
2. it has far fewer numbered rules and subrules (or glossary entries) than
   its neighbours: the whole releases of its language just before and after
   it, and the same release in other languages (a translation). Releases
   grow slowly: between neighbours the count has never fallen by more than
   2 % (20090711 renumbered everything and kept its count), so a release
   under :data:`LEAST_SHARE` of every neighbour is cut short.

An HTML page saved where a CR file goes (a download that got the web page or
an error page) also stops the build, as does a translation's file that is not
a CR (saved as Windows-1252, its text is all ``?``): an English text that is
not a CR (the 1999 Rulings Summary) is kept as an error in ``ingest_problems``,
but these are releases lost, not documents of another kind.

The same check runs in ``kb add`` before a file is copied into the corpus
(:func:`far_fewer`).
"""

from __future__ import annotations

import re
from pathlib import Path

from ingest.records import IngestProblem, SourceError

from ..build import BuildContext

LEAST_SHARE = 0.8

_COUNTS_SQL = """
select release, lang, source, coalesce(numbered_rules, 0) + coalesce(subrules, 0), coalesce(glossary_entries, 0)
from releases where completeness = 'whole'
"""


def far_fewer(release: str, lang: str, items: int, glossary: int,
              others: list[tuple[str, str, str, int, int]]) -> str | None:
    """Why release ``release`` (``lang``) with ``items`` numbered rules and subrules and ``glossary``
    entries looks cut short beside ``others`` (rows of ``(release, lang, source, items, glossary)``),
    or None.

    >>> others = [("20260116", "en", "a", 3270, 725), ("20260417", "en", "b", 3290, 727)]
    >>> far_fewer("20260925", "en", 1727, 0, others)
    'it has 1727 numbered rules and subrules, far fewer than 3290 in 20260417 (en)'
    >>> far_fewer("20260925", "en", 3300, 729, others) is None
    True
    """
    same_lang = sorted((r for r in others if r[1] == lang and r[0] != release), key=lambda r: r[0])
    before = [r for r in same_lang if r[0] < release][-1:]
    after = [r for r in same_lang if r[0] > release][:1]
    translations = [r for r in others if r[0] == release and r[1] != lang]
    neighbours = before + after + translations
    if not neighbours:
        return None
    least = min(neighbours, key=lambda r: r[3])
    if items < LEAST_SHARE * least[3]:
        return (f"it has {items} numbered rules and subrules, far fewer than {least[3]} "
                f"in {least[0]} ({least[1]})")
    with_glossary = [r for r in before + after if r[4]]
    if glossary and with_glossary:
        least = min(with_glossary, key=lambda r: r[4])
        if glossary < LEAST_SHARE * least[4]:
            return f"its glossary has {glossary} entries, far fewer than {least[4]} in {least[0]} ({least[1]})"
    return None


def check_releases(ctx: BuildContext) -> None:
    """The build step; see the module docstring."""
    for p in list(ctx.problems):
        if p.severity == "error" and p.code == "truncated":
            _failed(ctx, SourceError(p.source, p.line, p.message))
        elif p.severity == "error" and p.code == "not-a-cr" and p.source and is_html(ctx.corpus / p.source):
            _failed(ctx, SourceError(p.source, 1, "an HTML page where a Comprehensive Rules text goes (a download "
                                                  "that saved the web page); not loaded"))
        elif p.severity == "error" and p.code == "not-a-cr" and p.lang not in (None, "en"):
            # Every file of a translation's folder is a release of it (only the English archive keeps
            # another document): one that does not parse, say saved as Windows-1252, is a release lost.
            _failed(ctx, SourceError(p.source, p.line, f"{p.message}; every file here is a release, and a "
                                                       "release lost stops the build"))
    rows = [tuple(r) for r in ctx.db.execute(_COUNTS_SQL)]
    added = {a.relative for a in ctx.added}
    for release, lang, source, items, glossary in rows:
        if ctx.mode == "add" and source not in added:
            continue  # the releases already in the database passed this check when they came
        reason = far_fewer(release, lang, items, glossary, rows)
        if reason:
            _failed(ctx, SourceError(source, None, f"release {release} ({lang}) looks cut short: {reason}; "
                                                   "a truncated release is not loaded"))


_HTML_START = re.compile(rb"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)\b", re.IGNORECASE | re.DOTALL)


def is_html(path: Path) -> bool:
    """The file starts as an HTML document does (in UTF-8, or UTF-16: its zero bytes dropped)."""
    try:
        with open(path, "rb") as f:
            head = f.read(2048)
    except OSError:
        return False
    return bool(_HTML_START.match(head.lstrip(b"\xef\xbb\xbf\xff\xfe").replace(b"\x00", b"")))


def _failed(ctx: BuildContext, error: SourceError) -> None:
    if not ctx.keep_going:
        ctx.source_failed(error)
    elif not any(p.code == "truncated" and p.source == error.path for p in ctx.problems):
        ctx.problems.append(IngestProblem(error.path, error.line, "error", "truncated", error.message))


def translation_on_add(lang: str):
    """What a translation's step (Chinese, Korean) does when releases are added: nothing, unless
    the new release is its own (its loader reads every file: a full build adds it) or the English
    text of a release it has (aligned anew)."""
    from ..build import NeedsFullBuild

    def on_add(ctx: BuildContext) -> None:
        mine = {r[0] for r in ctx.db.execute("select release from releases where lang = ?", [lang])}
        for added in ctx.added:
            if added.lang == lang:
                raise NeedsFullBuild(f"the {lang} step loads its releases all at once: a full build adds "
                                     f"{added.relative}")
            if added.lang == "en":
                release = ctx.db.execute("select release from release_sources where source = ?",
                                         [added.relative]).fetchone()
                if release and release[0] in mine:
                    raise NeedsFullBuild(f"{added.relative} is the English text of a {lang} release: aligned anew")

    return on_add


def ruling_links_on_add(ctx: BuildContext) -> None:
    """The ruling links when releases are added: made anew (they point at the newest numbers), with
    the columns they fill on ``rulings`` and ``card_rulings`` emptied first, as a full build has them."""
    from .ruling_links import load_ruling_links

    ctx.db.execute("delete from ingest_problems where step = ?", [ctx.step])
    for table in ("rulings", "card_rulings"):
        if table in ctx.db.table_names() and "linked_rules" in ctx.db[table].columns_dict:
            ctx.db.execute(f"update [{table}] set linked_rules = null, link_how = null")
    ctx.db.conn.commit()
    load_ruling_links(ctx)
