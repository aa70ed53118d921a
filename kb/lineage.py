"""Lineages: a rule followed through every release, from its first appearance to today's number.

The matches of consecutive releases (:mod:`kb.history`) chain into
lineages: one ``lineage_id`` for Search whether it is 701.14 (2009), 701.19
(2020) or 701.23 (2025). A Japanese rule joins the lineage of the English
rule with the same number in the same release (the Japanese CR is a
translation with the same numbering), so one lineage holds both languages;
an excerpt (a wiki page quoting a release) joins through its match with a
whole release of its language.

A lineage never holds two numbers of one release and language. Should an
excerpt or a translation link join two lineages that would (a wiki page
quoting a rule under a number the release gives to another rule), the link
is left out and reported, instead of merging two rules into one history.

:func:`trace_rule` reads one lineage back: the rule's number, title and text
in every release where it exists, oldest first, with what changed each time.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Iterable, NamedTuple, Sequence

import sqlite_utils

from .database import RuleNotFound, check_release, newest_release

Node = tuple[str, str, str]  # (lang, release, number)


class Link(NamedTuple):
    """``new`` succeeds ``old`` (a match), or ``new`` translates ``old`` (``status='translation'``).

    A named tuple rather than a dataclass: a build makes some 275,000 of them.
    """

    old: Node
    new: Node
    status: str
    similarity: float | None = None


class _Sets:
    """Union-find over chains that refuses to join two chains holding two numbers of one (lang, release).

    ``members`` gives each chain's numbers as ``(lang, release) → number``.
    """

    def __init__(self, members: dict[int, dict[tuple[str, str], str]]):
        self.parent: dict[int, int] = {}
        self.members = members

    def find(self, key: int) -> int:
        parent = self.parent
        root = key
        while root in parent:
            root = parent[root]
        while key in parent and parent[key] != root:
            parent[key], key = root, parent[key]
        return root

    def union(self, a: int, b: int) -> bool:
        """Join the sets of ``a`` and ``b``; False (and nothing joined) when they clash."""
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return True
        ma, mb = self.members[ra], self.members[rb]
        if len(ma) < len(mb):
            ra, rb, ma, mb = rb, ra, mb, ma
        if any(ma.get(key, number) != number for key, number in mb.items()):
            return False
        ma.update(mb)
        del self.members[rb]
        self.parent[rb] = ra
        return True


@dataclass
class LineageResult:
    """Lineage id of every node, the link into each node, and the links left out."""

    lineage_of: dict[Node, int]
    previous: dict[Node, Link]
    conflicts: list[str] = field(default_factory=list)


@dataclass
class Chains:
    """:func:`chain_nodes`' answer, by node index: lineage id, predecessor (-1: none) and its link."""

    lineage: list[int]
    previous: list[int]
    status: list[str | None]
    similarity: list[float | None]
    conflicts: list[str]


def chain_nodes(nodes: Sequence[Node], links: Iterable[tuple[int, int, str, float | None]]) -> Chains:
    """Chain links between node indices into lineages; ``nodes`` in order of first appearance.

    ``nodes`` must be sorted by release, then English before other
    languages, then language, then document order; ``links`` are
    ``(old index, new index, status, similarity)``, trunk matches first. See
    :func:`build_lineages`, which takes nodes and links by name.
    """
    count = len(nodes)
    previous = [-1] * count
    status: list[str | None] = [None] * count
    similarity: list[float | None] = [None] * count
    extra: list[tuple[int, int, str, float | None]] = []
    for link in links:
        old, new, link_status, link_similarity = link
        if link_status != "translation" and previous[new] < 0 and nodes[old][1] < nodes[new][1]:
            previous[new], status[new], similarity[new] = old, link_status, link_similarity
        else:
            extra.append(link)
    # One pass in order of first appearance: a node continues its predecessor's chain.
    chain = [0] * count
    for i in range(count):
        before = previous[i]
        chain[i] = chain[before] if before >= 0 else i + 1
    conflicts: list[str] = []
    members: dict[int, dict[tuple[str, str], str]] = defaultdict(dict)
    if extra:
        touched = {chain[old] for old, _new, _s, _sim in extra} | {chain[new] for _old, new, _s, _sim in extra}
        for i, node in enumerate(nodes):
            if chain[i] in touched:
                members[chain[i]][(node[0], node[1])] = node[2]
    sets = _Sets(members)
    for old, new, link_status, link_similarity in extra:
        if not sets.union(chain[old], chain[new]):
            conflicts.append(f"{' '.join(nodes[old])} → {' '.join(nodes[new])} would put two numbers of one "
                             "release in one lineage")
            continue
        if link_status != "translation" and previous[new] < 0:
            previous[new], status[new], similarity[new] = old, link_status, link_similarity
    # Lineage ids by first appearance; only chains a union touched need their root looked up.
    roots = {c: sets.find(c) for c in sets.parent}
    ids: dict[int, int] = {}
    lineage = []
    for c in chain:
        root = roots.get(c, c)
        found = ids.get(root)
        if found is None:
            found = ids[root] = len(ids) + 1
        lineage.append(found)
    return Chains(lineage, previous, status, similarity, conflicts)


def build_lineages(nodes: Iterable[tuple[Node, int]], links: Iterable[Link]) -> LineageResult:
    """Chain ``links`` into lineages over ``nodes`` (each ``(node, position)``).

    The first link into a node is its predecessor (give trunk matches first,
    then excerpts, then translations); with one predecessor per node the
    matches form chains, numbered in one pass over the nodes in release
    order. Any further link joins two chains, unless they hold two numbers of
    one release and language: such a link is left out and reported. Lineage
    ids are numbered by first appearance (oldest release first, then
    language, then document order), so they are the same from build to build.

    >>> nodes = [(("en", "1", "701.19"), 1), (("en", "2", "701.23"), 2), (("en", "2", "701.19"), 1)]
    >>> links = [Link(("en", "1", "701.19"), ("en", "2", "701.23"), "moved")]
    >>> result = build_lineages(nodes, links)
    >>> sorted(result.lineage_of.items())
    [(('en', '1', '701.19'), 1), (('en', '2', '701.19'), 2), (('en', '2', '701.23'), 1)]
    """
    positions = dict(nodes)
    order = sorted(positions, key=lambda n: (n[1], n[0] != "en", n[0], positions[n]))
    index = {node: i for i, node in enumerate(order)}
    by_index = [(index[link.old], index[link.new], link.status, link.similarity)
                for link in links if link.old in index and link.new in index]
    chains = chain_nodes(order, by_index)
    lineage_of = {node: chains.lineage[i] for i, node in enumerate(order)}
    previous = {
        node: Link(order[chains.previous[i]], node, chains.status[i] or "", chains.similarity[i])
        for i, node in enumerate(order) if chains.previous[i] >= 0
    }
    return LineageResult(lineage_of, previous, chains.conflicts)


# --- reading lineages back ---------------------------------------------------------

LINEAGE_OF_SQL = """
select lineage_id from rule_lineage where lang = :lang and release = :release and number = :number
"""

TRACE_SQL = """
select l.lineage_id, l.lang, l.release, l.number, l.kind, l.previous_release, l.previous_number,
       l.status, l.similarity, r.title, r.title_en, r.text, rel.completeness
from rule_lineage l
join rules r on r.release = l.release and r.lang = l.lang and r.number = l.number
join releases rel on rel.release = l.release and rel.lang = l.lang
where l.lineage_id = :lineage_id and (:lang is null or l.lang = :lang)
order by l.release, l.lang
"""


@dataclass
class TraceStep:
    """The rule in one release: its number, title and text, and how it came from the step before.

    ``status`` is ``first`` for its first appearance in that language, else
    one of ``same``, ``changed``, ``moved``, ``moved_changed``;
    ``word_diff`` (for ``changed`` and ``moved_changed``) is a list of
    ``(op, text)`` segments, ``op`` being ``=``, ``-`` or ``+``.
    """

    release: str
    lang: str
    number: str
    kind: str
    title: str | None
    text: str
    status: str
    previous_release: str | None
    previous_number: str | None
    similarity: float | None
    completeness: str = "whole"
    word_diff: list[tuple[str, str]] | None = None

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class RuleTrace:
    """A rule's history: every release where it exists, oldest first."""

    lineage_id: int
    number: str
    release: str
    lang: str
    steps: list[TraceStep]

    @property
    def newest_number(self) -> str | None:
        """The number in the newest whole release of the traced language, if it is still there."""
        whole = [s for s in self.steps if s.completeness == "whole" and s.lang == self.lang]
        return whole[-1].number if whole else None

    @property
    def first(self) -> TraceStep:
        return self.steps[0]

    def runs(self) -> list[dict]:
        """The steps with each run of unchanged releases folded into one entry.

        Each entry has ``first_release``, ``last_release`` and ``releases``
        (how many) beside the fields of the step that starts the run: what a
        history section on a rule page shows.
        """
        out: list[dict] = []
        for step in self.steps:
            last = out[-1] if out else None
            if (last and step.status == "same" and last["lang"] == step.lang
                    and last["number"] == step.number and last["completeness"] == step.completeness):
                last["last_release"] = step.release
                last["releases"] += 1
                continue
            out.append({"first_release": step.release, "last_release": step.release, "releases": 1,
                        **step.as_dict()})
        return out

    def as_dict(self) -> dict:
        return {
            "lineage_id": self.lineage_id, "number": self.number, "release": self.release,
            "lang": self.lang, "newest_number": self.newest_number,
            "steps": [s.as_dict() for s in self.steps],
        }


def lineage_id_of(db: sqlite_utils.Database, number: str, release: str, lang: str) -> int | None:
    """The lineage of rule ``number`` of ``release`` (``lang``), or None."""
    row = db.execute(LINEAGE_OF_SQL, {"lang": lang, "release": release, "number": number}).fetchone()
    return row[0] if row else None


def trace_rule(
    db: sqlite_utils.Database,
    number: str,
    *,
    release: str | None = None,
    lang: str = "en",
    langs: str | None = "same",
) -> RuleTrace:
    """The history of rule ``number`` of ``release`` (default: the newest release of ``lang``).

    ``langs`` says which languages to show: ``"same"`` (only ``lang``,
    the default) or ``None`` (every language of the lineage).
    Raises :class:`RuleNotFound` when the release has no such rule, and
    :class:`UnknownRelease` for a release the database does not have.
    """
    from .diff import word_diff
    from .history import display_title

    release = check_release(db, release, lang) if release else newest_release(db, lang)
    wanted = number.strip().rstrip(".")
    lineage_id = lineage_id_of(db, wanted, release, lang)
    if lineage_id is None:
        raise RuleNotFound(
            f"no rule {wanted} in release {release} ({lang}); numbers move between releases — "
            f"try `kb trace {wanted} --release YYYYMMDD` with the release the number comes from"
        )
    rows = list(db.query(TRACE_SQL, {"lineage_id": lineage_id, "lang": lang if langs == "same" else None}))
    text_of = {(r["lang"], r["release"], r["number"]): (display_title(r["title"], r["title_en"]), r["text"])
               for r in rows}
    steps: list[TraceStep] = []
    for r in rows:
        status = r["status"] or "first"
        diff = None
        if status in ("changed", "moved_changed") and r["previous_release"]:
            before = text_of.get((r["lang"], r["previous_release"], r["previous_number"]))
            if before is None:
                before_row = db.execute(
                    "select title, title_en, text from rules where lang = ? and release = ? and number = ?",
                    [r["lang"], r["previous_release"], r["previous_number"]],
                ).fetchone()
                before = (display_title(before_row[0], before_row[1]), before_row[2]) if before_row else (None, "")
            diff = word_diff(_shown(*before), _shown(*text_of[(r["lang"], r["release"], r["number"])]))
        steps.append(TraceStep(
            r["release"], r["lang"], r["number"], r["kind"], display_title(r["title"], r["title_en"]),
            r["text"] or "", status,
            r["previous_release"], r["previous_number"], r["similarity"], r["completeness"], diff,
        ))
    return RuleTrace(lineage_id, wanted, release, lang, steps)


def _shown(title: str | None, text: str | None) -> str:
    return "\n".join(part for part in (title, text) if part)


def newest_numbers(db: sqlite_utils.Database, lang: str = "en") -> dict[int, str]:
    """Lineage id → its number in the newest whole release of ``lang``."""
    release = newest_release(db, lang)
    return {
        r[0]: r[1]
        for r in db.execute(
            "select lineage_id, number from rule_lineage where lang = ? and release = ?", [lang, release]
        )
    }
