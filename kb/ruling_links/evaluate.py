"""Measure the ruling links against the hand-labelled rulings (``data/ruling_labels.toml``).

Each label names a ruling (a wiki page's title and text, or a card, date and
text), the subrules it applies (``rules``) and others it touches (``also``), as
numbered in the labels' release; they are compared with links through the rule
lineage, so a later renumbering leaves the labels right. Every stored copy of a
labelled ruling (the same wiki ruling in several files of a page) is counted.

- **precision**: links to a labelled rule (``rules`` or ``also``) / all links;
- **recall**: labelled ``rules`` linked / all labelled ``rules``;
- **linked**: rulings with at least one link / rulings.

A label with no ``rules`` says the ruling applies no rule of the CR (only its card's own wording,
``note = "none applies: …"``): it is not counted among the rulings to link; a link it gets is wrong
unless to one of its ``also`` (counted in precision), and is counted in ``none_linked``.

:func:`stored_links` reads what the build stored; :func:`live_links` runs a
:class:`~kb.ruling_links.Linker` over the labelled rulings only (for tuning).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

LABELS = Path(__file__).resolve().parents[2] / "data" / "ruling_labels.toml"


@dataclass
class Label:
    kind: str  # wiki, card
    key: tuple
    rules: list[str]
    also: list[str]
    split: str
    note: str
    draw: int | None = None  # the seed of the random draw it came from, if any


@dataclass
class Score:
    rulings: int = 0
    linked: int = 0
    links: int = 0
    correct_links: int = 0
    required: int = 0
    found: int = 0
    missing: list = field(default_factory=list)  # labels with no stored ruling
    wrong: list = field(default_factory=list)  # (label, linked numbers) with a wrong link
    unlinked: list = field(default_factory=list)
    none: int = 0  # rulings labelled as applying no rule (not in ``rulings``)
    none_linked: int = 0  # ... of them linked all the same

    @property
    def precision(self) -> float:
        return self.correct_links / self.links if self.links else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.required if self.required else 1.0

    @property
    def linked_share(self) -> float:
        return self.linked / self.rulings if self.rulings else 0.0

    def line(self) -> str:
        none = f"  (+{self.none} applying no rule, {self.none_linked} linked)" if self.none else ""
        return (f"{self.rulings:4d} rulings  linked {self.linked_share:6.1%}  precision {self.precision:6.1%}"
                f" ({self.correct_links}/{self.links})  recall {self.recall:6.1%} ({self.found}/{self.required})" + none)


def load_labels(path: Path = LABELS) -> tuple[str, list[Label]]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    labels = [Label("wiki", (w["page"], w["text"]), w["rules"], w.get("also", []), w["split"], w.get("note", ""))
              for w in data.get("wiki", [])]
    labels += [Label("card", (c["card"], c["date"], c["text"]), c["rules"], c.get("also", []), c["split"],
                     c.get("note", ""), c.get("draw")) for c in data.get("card", [])]
    return data["release"], labels


def ruling_ids(conn, label: Label) -> list[int]:
    if label.kind == "wiki":
        return [r[0] for r in conn.execute("select id from rulings where page_title = ? and text = ? order by id",
                                           label.key)]
    return [r[0] for r in conn.execute("select id from card_rulings where card = ? and date = ? and text = ?"
                                       " order by id", label.key)]


def stored_links(conn, kind: str, ruling_id: int) -> list[tuple[int, str]]:
    """(lineage, newest number) of each stored link of a ruling."""
    table, column = ("ruling_rules", "ruling_id") if kind == "wiki" else ("card_ruling_rules", "card_ruling_id")
    return [(lid, n) for lid, n in conn.execute(
        f"select lineage_id, number from [{table}] where {column} = ? and role = 'newest' order by id", [ruling_id])]


def evaluate(conn, labels: list[Label], release: str, links_of) -> dict[tuple[str, str], Score]:
    """Scores by (kind, split), and ("all", split); ``links_of(kind, ruling_id)`` gives the links."""
    lineage = dict(conn.execute("select number, lineage_id from rule_lineage where lang = 'en' and release = ?",
                                [release]).fetchall())
    scores: dict[tuple[str, str], Score] = {}
    for label in labels:
        required = {lineage[n] for n in label.rules if n in lineage}
        accepted = required | {lineage[n] for n in label.also if n in lineage}
        targets = [scores.setdefault((label.kind, label.split), Score()), scores.setdefault(("all", label.split), Score())]
        ids = ruling_ids(conn, label)
        if not ids:
            for s in targets:
                s.missing.append(label)
            continue
        for ruling_id in ids:
            links = links_of(label.kind, ruling_id)
            predicted = {lid for lid, _ in links}
            for s in targets:
                s.links += len(predicted)
                if not label.rules:  # applies no rule: only its links count (in precision)
                    s.none += 1
                    s.none_linked += bool(predicted)
                    s.correct_links += len(predicted & accepted)
                    if predicted - accepted:
                        s.wrong.append((label, [n for lid, n in links if lid not in accepted]))
                    continue
                s.rulings += 1
                s.linked += bool(predicted)
                s.correct_links += len(predicted & accepted)
                s.required += len(required)
                s.found += len(predicted & required)
                if predicted - accepted:
                    s.wrong.append((label, [n for lid, n in links if lid not in accepted]))
                if not predicted:
                    s.unlinked.append(label)
    return scores


def live_links(conn, linker, kinds=("wiki", "card")):
    """A ``links_of`` that runs ``linker`` on the rulings as the build step would."""
    from kb.load.ruling_links import card_rulings, inherit_parent_links, wiki_rulings

    items: dict[tuple[str, int], object] = {}
    wiki_links: dict[int, list] = {}
    if "wiki" in kinds:
        wiki = wiki_rulings(_Db(conn))
        for item in wiki:
            items[("wiki", item["id"])] = item["ruling"]
        # as the build decides them: a nested ruling linked to nothing takes its parent's links
        for item, decision in zip(wiki, inherit_parent_links(wiki, [linker.link(i["ruling"]) for i in wiki])):
            wiki_links[item["id"]] = [(link.lineage_id, link.number) for link in decision.links]
    if "card" in kinds:
        for item in card_rulings(_Db(conn), linker.index):
            items[("card", item["id"])] = item["ruling"]
    cache: dict = {}

    def links_of(kind: str, ruling_id: int):
        if kind == "wiki" and ruling_id in wiki_links:
            return wiki_links[ruling_id]
        ruling = items.get((kind, ruling_id))
        if ruling is None:
            return []
        if ruling not in cache:
            cache[ruling] = [(link.lineage_id, link.number) for link in linker.link(ruling).links]
        return cache[ruling]

    return links_of


class _Db:
    """The little of sqlite_utils.Database that the build step's readers use, over a connection."""

    def __init__(self, conn):
        self.conn = conn

    def execute(self, sql, params=()):
        return self.conn.execute(sql, params)

    def table_names(self):
        return [r[0] for r in self.conn.execute("select name from sqlite_master where type = 'table'")]
