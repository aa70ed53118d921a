"""What changed between any two releases: added, removed, changed and moved rules.

Two releases of one language are compared through the lineages
(:mod:`kb.lineage`): a rule of the old release and a rule of the new one are
the same rule when they share a lineage, however many releases lie between
them. So ``diff_releases(db, "20250404", "20250606")`` lists Search's move
from 701.19 to 701.23, and a diff across ten releases lists it once.

Moves are listed apart from wording changes, so that citations can be fixed:
a rule whose number and text both changed is a move with a word diff. Moves
that shift a run of rules by the same amount come out as one block
(``701.15–701.18 → 701.19–701.22``); subrules that only followed their rule
are marked ``with_parent``.

>>> word_diff("Search your library for a card.", "Search your library for two cards.")
[('=', 'Search your library for '), ('-', 'a card'), ('+', 'two cards'), ('=', '.')]
>>> format_word_diff(_)
'Search your library for [-a card-]{+two cards+}.'
"""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass, field

import sqlite_utils

from ingest.rule_refs import parent_number, rule_kind

from .database import UnknownRelease, check_release
from .history import display_title, normalize_text, split_words, word_similarity

# Statuses of a comparison as :func:`diff_releases` groups them.
CHANGE_GROUPS = ("added", "removed", "changed", "moved")


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """A word-level diff: ``(op, text)`` segments with ``op`` one of ``=``, ``-``, ``+``.

    Words are compared in :func:`kb.history.normalize_text` form, so a curly
    quote that became straight is not a change; Japanese is compared
    character by character.

    >>> word_diff("探す／Search", "探す／Search")
    [('=', '探す／Search')]
    """
    a, b = split_words(old), split_words(new)
    key_a = [normalize_text(t) or " " for t in a]
    key_b = [normalize_text(t) or " " for t in b]
    out: list[tuple[str, str]] = []

    def add(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, key_a, key_b, autojunk=False).get_opcodes():
        if tag == "equal":
            add("=", "".join(b[j1:j2]))
            continue
        removed, inserted = "".join(a[i1:i2]), "".join(b[j1:j2])
        if removed and inserted:  # a replacement: the space before both is not part of the change
            space = len(removed) - len(removed.lstrip())
            space = min(space, len(inserted) - len(inserted.lstrip()))
            add("=", inserted[:space])
            removed, inserted = removed[space:], inserted[space:]
        add("-", removed)
        add("+", inserted)
    return out


def format_word_diff(segments: list[tuple[str, str]], context: int | None = None) -> str:
    """Render a word diff as text: ``[-removed-]{+added+}``, as ``git diff --word-diff`` does.

    With ``context``, unchanged stretches keep only that many words next to
    each change (long rules such as the creature-type list stay readable).

    >>> segments = word_diff("one two three four five six seven", "one two three FOUR five six seven")
    >>> format_word_diff(segments, context=1)
    '… three [-four-]{+FOUR+} five …'
    """
    out = []
    last = len(segments) - 1
    for i, (op, text) in enumerate(segments):
        if op == "-":
            out.append(f"[-{text}-]")
        elif op == "+":
            out.append(f"{{+{text}+}}")
        elif context is None:
            out.append(text)
        else:
            words = re.findall(r"\s*\S+", text)
            trailing = text[len("".join(words)):]
            keep_head = context if i > 0 else 0
            keep_tail = context if i < last else 0
            if len(words) <= keep_head + keep_tail:
                out.append(text)
                continue
            head = "".join(words[:keep_head])
            tail = "".join(words[len(words) - keep_tail:]) + trailing if keep_tail else ""
            out.append(head + (" …" if head else "…") + tail)
    return "".join(out)


@dataclass
class RuleChange:
    """One rule in a comparison of two releases."""

    status: str
    old_number: str | None
    new_number: str | None
    kind: str
    old_title: str | None = None
    new_title: str | None = None
    old_text: str | None = None
    new_text: str | None = None
    similarity: float | None = None
    word_diff: list[tuple[str, str]] | None = None
    with_parent: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class MoveBlock:
    """A run of rules under one parent that all moved by the same amount."""

    old_first: str
    old_last: str
    new_first: str
    new_last: str
    shift: int | None
    count: int

    def __str__(self) -> str:
        old = self.old_first if self.count == 1 else f"{self.old_first}–{self.old_last}"
        new = self.new_first if self.count == 1 else f"{self.new_first}–{self.new_last}"
        return f"{old} → {new}" + (f" ({self.shift:+d})" if self.shift is not None else "")


@dataclass
class ReleaseDiff:
    """Everything that differs between ``old_release`` and ``new_release`` (one language)."""

    lang: str
    old_release: str
    new_release: str
    section: str | None
    added: list[RuleChange] = field(default_factory=list)
    removed: list[RuleChange] = field(default_factory=list)
    changed: list[RuleChange] = field(default_factory=list)
    moved: list[RuleChange] = field(default_factory=list)
    move_blocks: list[MoveBlock] = field(default_factory=list)
    unchanged: int = 0
    excerpt: bool = False

    def counts(self) -> dict[str, int]:
        return {name: len(getattr(self, name)) for name in CHANGE_GROUPS} | {"unchanged": self.unchanged}

    def as_dict(self) -> dict:
        return {
            "lang": self.lang, "old_release": self.old_release, "new_release": self.new_release,
            "section": self.section, "excerpt": self.excerpt, "counts": self.counts(),
            "move_blocks": [asdict(b) | {"label": str(b)} for b in self.move_blocks],
            **{name: [c.as_dict() for c in getattr(self, name)] for name in CHANGE_GROUPS},
        }


DIFF_SIDE_SQL = """
select l.lineage_id, r.number, r.kind, r.title, r.title_en, r.text, r.position
from rules r
join rule_lineage l on l.release = r.release and l.lang = r.lang and l.number = r.number
where r.release = :release and r.lang = :lang
order by r.position
"""


def in_section(number: str, section: str | None) -> bool:
    """Whether ``number`` is ``section`` or under it (7, 701, 701.57 or 701.57a).

    >>> [in_section(n, "701") for n in ("701", "701.57a", "702.1", "7")]
    [True, True, False, False]
    >>> in_section("701.57a", "7"), in_section("701.5", "701.57")
    (True, False)
    """
    if not section:
        return True
    if number == section:
        return True
    kind = rule_kind(section)
    if kind == "section":
        return number[0] == section
    if kind == "rule":
        return number.startswith(section + ".")
    if kind == "numbered":
        return rule_kind(number) == "subrule" and number[:-1] == section
    return False


def _completeness(db: sqlite_utils.Database, release: str, lang: str) -> str:
    row = db.execute("select completeness from releases where release = ? and lang = ?", [release, lang]).fetchone()
    return row[0] if row and row[0] else "whole"


def diff_releases(
    db: sqlite_utils.Database,
    old_release: str,
    new_release: str,
    *,
    lang: str = "en",
    section: str | None = None,
    with_diffs: bool = True,
) -> ReleaseDiff:
    """Compare two releases of ``lang``; ``section`` keeps rules under a number (old or new).

    Either release may be an excerpt; then only rules present in both can be
    compared, and nothing counts as removed (or added) because an excerpt
    lacks it. Raises :class:`UnknownRelease` for a release the database lacks.
    """
    for release in (old_release, new_release):
        check_release(db, release, lang)
    if not db["rule_lineage"].exists():
        raise UnknownRelease("the database has no rule history; rebuild it with `kb build`")
    old_excerpt = _completeness(db, old_release, lang) == "excerpt"
    new_excerpt = _completeness(db, new_release, lang) == "excerpt"
    old_rows = {r["lineage_id"]: r for r in db.query(DIFF_SIDE_SQL, {"release": old_release, "lang": lang})}
    new_rows = {r["lineage_id"]: r for r in db.query(DIFF_SIDE_SQL, {"release": new_release, "lang": lang})}
    result = ReleaseDiff(lang, old_release, new_release, section, excerpt=old_excerpt or new_excerpt)
    old_to_new: dict[str, str] = {}
    for lineage_id, o in old_rows.items():
        n = new_rows.get(lineage_id)
        if n is not None:
            old_to_new[o["number"]] = n["number"]
    for lineage_id, o in old_rows.items():
        n = new_rows.get(lineage_id)
        if n is None:
            if not new_excerpt and in_section(o["number"], section):
                result.removed.append(RuleChange("removed", o["number"], None, o["kind"],
                                                 display_title(o["title"], o["title_en"]), None, o["text"]))
            continue
        if not (in_section(o["number"], section) or in_section(n["number"], section)):
            continue
        old_title, new_title = display_title(o["title"], o["title_en"]), display_title(n["title"], n["title_en"])
        same_text = normalize_text(old_title) == normalize_text(new_title) and normalize_text(
            o["text"]) == normalize_text(n["text"])
        if o["number"] == n["number"] and same_text:
            result.unchanged += 1
            continue
        status = ("changed" if not same_text else "same") if o["number"] == n["number"] else (
            "moved" if same_text else "moved_changed")
        change = RuleChange(status, o["number"], n["number"], n["kind"], old_title, new_title,
                            o["text"], n["text"])
        if not same_text:
            old_shown = "\n".join(filter(None, [old_title, o["text"]]))
            new_shown = "\n".join(filter(None, [new_title, n["text"]]))
            change.similarity = round(word_similarity(old_shown, new_shown), 4)
            if with_diffs:
                change.word_diff = word_diff(old_shown, new_shown)
        else:
            change.similarity = 1.0
        if status == "changed":
            result.changed.append(change)
        else:
            change.with_parent = _followed_parent(o["number"], n["number"], old_to_new)
            result.moved.append(change)
    if not old_excerpt:
        matched_new = {n_id for n_id in new_rows if n_id in old_rows}
        for lineage_id, n in new_rows.items():
            if lineage_id not in matched_new and in_section(n["number"], section):
                result.added.append(RuleChange("added", None, n["number"], n["kind"], None,
                                               display_title(n["title"], n["title_en"]), None, n["text"]))
    result.move_blocks = move_blocks(
        [(c.old_number, c.new_number) for c in result.moved if not c.with_parent]
    )
    return result


def _followed_parent(old: str, new: str, old_to_new: dict[str, str]) -> bool:
    """A rule that only followed its parent: same place under the rule its parent moved to.

    >>> _followed_parent("701.19a", "701.23a", {"701.19": "701.23"}), _followed_parent("101.1", "103.1", {"101": "103"})
    (True, True)
    >>> _followed_parent("101.4a", "103.4b", {"101.4": "103.4"})
    False
    """
    kind = rule_kind(old)
    if kind not in ("subrule", "numbered") or rule_kind(new) != kind:
        return False
    old_parent, new_parent = parent_number(old), parent_number(new)
    return old[len(old_parent):] == new[len(new_parent):] and old_to_new.get(old_parent) == new_parent


def _serial(number: str) -> tuple[str, int] | None:
    """(parent, serial) for numbered rules and rules: 701.19 → ('701', 19); 702 → ('7', 2)."""
    kind = rule_kind(number)
    if kind == "numbered":
        head, tail = number.split(".")
        return head, int(tail)
    if kind == "rule":
        return number[0], int(number[1:])
    if kind == "subrule":
        return number[:-1], ord(number[-1])
    return None


def move_blocks(moves: list[tuple[str, str]]) -> list[MoveBlock]:
    """Group moves that shift consecutive rules of one parent by the same amount.

    >>> [str(b) for b in move_blocks([("701.15", "701.19"), ("701.16", "701.20"), ("701.17", "701.21"),
    ...                               ("701.19", "701.23"), ("702.1", "702.3")])]
    ['701.15–701.17 → 701.19–701.21 (+4)', '701.19 → 701.23 (+4)', '702.1 → 702.3 (+2)']
    """
    from ingest.rule_refs import rule_sort_key

    keyed = []
    for old, new in moves:
        a, b = _serial(old), _serial(new)
        if a and b and a[0] == b[0] and rule_kind(old) == rule_kind(new):
            keyed.append((a[0], a[1], b[1] - a[1], old, new))
        else:  # moved to another parent: a block of its own
            keyed.append((old, -1, None, old, new))
    keyed.sort(key=lambda k: (rule_sort_key(k[3]), k[1]))
    blocks: list[MoveBlock] = []
    last = None
    for parent, serial, shift, old, new in keyed:
        if (last and shift is not None and last[0] == parent and last[1] + 1 == serial
                and last[2] == shift and rule_kind(old) != "subrule"):
            block = blocks[-1]
            block.old_last, block.new_last, block.count = old, new, block.count + 1
        else:
            blocks.append(MoveBlock(old, old, new, new, shift, 1))
        last = (parent, serial, shift)
    return blocks
