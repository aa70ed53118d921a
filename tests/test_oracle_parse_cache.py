"""The persistent cache of parsed Oracle lines: an entry reads back as the parse it stores (tree included), a
changed grammar never reads an old entry, a corrupt or half-written store is a miss, concurrent writers are safe,
and ``--no-cache`` keeps nothing."""

from __future__ import annotations

import dataclasses
import multiprocessing
import shutil
import sqlite3

import pytest
from lark import Token, Tree

from executable_rules.oracle import parse_cache, parser
from executable_rules.oracle.parse_cache import LineCache, decode_ability, encode_ability

LINES = [
    ("Serra Angel", "Flying, vigilance"),
    ("Merfolk Branchwalker", "When Merfolk Branchwalker enters the battlefield, it explores."),
    ("Prodigal Sorcerer", "{T}: Prodigal Sorcerer deals 1 damage to any target."),
    ("Doom Blade", "Destroy target nonblack creature."),
    ("Golgari Grave-Troll", "Dredge 6"),
    ("Nonsense", "Blorp the flibber."),
    ("Charm", "Choose one —"),
    ("Charm", "• Target player draws a card."),
]


def _same_tree(a, b) -> bool:
    """Equal, and of the same classes and token types all the way down (Tree.__eq__ alone compares strings)."""
    if isinstance(a, Tree):
        return (isinstance(b, Tree) and _same_tree(a.data, b.data) and len(a.children) == len(b.children)
                and all(_same_tree(x, y) for x, y in zip(a.children, b.children)))
    if isinstance(a, Token):
        return (isinstance(b, Token) and a.type == b.type and str(a) == str(b)
                and (a.start_pos, a.line, a.column, a.end_pos) == (b.start_pos, b.line, b.column, b.end_pos))
    return a == b and type(a) is type(b)


@pytest.fixture
def store(tmp_path, monkeypatch):
    """parse_line's store in a temporary directory (restored afterwards)."""
    parse_cache.configure(tmp_path)
    yield tmp_path
    parse_cache.configure(True)


def test_an_entry_reads_back_as_the_parse_it_stores(tmp_path):
    cache = LineCache(tmp_path / "lines.sqlite", "v")
    for name, line in LINES:
        parse_cache.configure(None)
        fresh = parser.parse_line(line, name, 4)
        parse_cache.configure(True)
        assert decode_ability(encode_ability(fresh), 4) == fresh
        cache.put(fresh.text, fresh)
        again = cache.get(fresh.text, 7)
        assert again == dataclasses.replace(fresh, line=7)
        assert _same_tree(again.tree, fresh.tree), line
    assert cache.hits == len(LINES)
    kinds = {parser.parse_line(line, name).kind for name, line in LINES}
    assert {"keyword", "triggered", "activated", "spell", "unparsed", "modal", "bullet"} <= kinds


def test_parse_line_fills_the_store_and_reads_it_back(store):
    first = [parser.parse_line(line, name, i) for i, (name, line) in enumerate(LINES, 1)]
    cache = parse_cache.current()
    assert cache is not None and cache.path.parent == store / "oracle-parse"
    assert cache.misses == len(LINES) and cache.hits == 0
    with sqlite3.connect(cache.path) as conn:
        assert conn.execute("select count(*) from line").fetchone()[0] == len(LINES)
    parse_cache.configure(store)   # a new process: nothing in memory
    second = [parser.parse_line(line, name, i) for i, (name, line) in enumerate(LINES, 1)]
    assert parse_cache.current().hits == len(LINES)
    assert second == first
    assert all(_same_tree(a.tree, b.tree) for a, b in zip(first, second))


def test_no_cache_keeps_nothing(tmp_path, monkeypatch):
    parse_cache.configure(None)
    try:
        assert parse_cache.current() is None
        assert parser.parse_line("Flying", "Serra Angel").keywords == (("Flying", ""),)
    finally:
        parse_cache.configure(True)
    monkeypatch.setenv("KB_CACHE", "off")
    monkeypatch.delenv("KB_CACHE_DIR", raising=False)
    assert parse_cache.default_root() is None
    monkeypatch.setenv("KB_CACHE_DIR", str(tmp_path))
    assert parse_cache.default_root() == tmp_path


def test_a_changed_grammar_never_reads_an_old_entry(tmp_path, monkeypatch, store):
    old = parser.parse_line("Flying", "Serra Angel")
    old_version = parse_cache.parser_version()
    old_path = parse_cache.current().path
    # The same code beside a grammar one character longer.
    copy = tmp_path / "oracle"
    copy.mkdir()
    for name in ("oracle.lark", "parser.py", "keywords.py"):
        shutil.copy(parse_cache._HERE / name, copy / name)
    with open(copy / "oracle.lark", "a", encoding="utf-8") as f:
        f.write("\n")
    monkeypatch.setattr(parse_cache, "_HERE", copy)
    parse_cache.parser_version.cache_clear()
    try:
        assert parse_cache.parser_version() != old_version
        parse_cache.configure(store)
        new = parse_cache.current()
        assert new.path != old_path and new.get(old.text, 1) is None
        # A store of the old version put where the new one is looked for is not read either.
        parse_cache.configure(store)
        for suffix in ("", "-wal", "-shm"):
            new.path.with_name(new.path.name + suffix).unlink(missing_ok=True)
        shutil.copy(old_path, new.path)
        with sqlite3.connect(new.path) as conn:
            assert conn.execute("select count(*) from line where text = ?", [old.text]).fetchone()[0] == 1
        assert parse_cache.current().get(old.text, 1) is None
        assert parse_cache.current()._broken
        assert parser.parse_line("Flying", "Serra Angel") == old   # parsed, not read
    finally:
        parse_cache.parser_version.cache_clear()


def test_a_corrupt_store_is_set_aside_and_a_bad_entry_is_a_miss(store):
    parser.parse_line("Flying", "Serra Angel")
    path = parse_cache.current().path
    parse_cache.configure(store)
    # A bad entry: bytes that are not what the checksum says, and bytes that don't decode.
    with sqlite3.connect(path) as conn:
        conn.execute("update line set value = ? where text = 'flying'", [b"\x00garbage"])
        conn.execute("insert into line values ('blorp.', ?, ?)",
                     [b"\x00garbage", parse_cache._check(b"\x00garbage")])
    assert parse_cache.current().get("flying", 1) is None
    assert parse_cache.current().get("blorp.", 1) is None
    assert parser.parse_line("Flying", "Serra Angel").keywords == (("Flying", ""),)
    # A store cut short or overwritten: set aside, a new one made, the parse still right.
    parse_cache.configure(store)
    for suffix in ("-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 100)
    assert parser.parse_line("Flying", "Serra Angel").keywords == (("Flying", ""),)
    assert list(path.parent.glob("*.corrupt-*"))
    parse_cache.configure(store)
    assert parse_cache.current().get("flying", 1) is not None


def _writer(path, version, abilities, rounds):
    cache = LineCache(path, version)
    for _ in range(rounds):
        for ability in abilities:
            cache.put(ability.text, ability)
            found = cache.get(ability.text, 1)
            assert found is None or found == dataclasses.replace(ability, line=1)


def test_concurrent_writers_leave_every_entry_whole(tmp_path):
    parse_cache.configure(None)
    try:
        abilities = [parser.parse_line(line, name) for name, line in LINES]
    finally:
        parse_cache.configure(True)
    path = tmp_path / "shared.sqlite"
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_writer, args=(path, "v", abilities[i::2] + abilities, 20)) for i in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(120)
    assert [w.exitcode for w in workers] == [0, 0, 0]
    cache = LineCache(path, "v")
    for ability in abilities:
        found = cache.get(ability.text, 1)
        assert found == dataclasses.replace(ability, line=1) and _same_tree(found.tree, ability.tree)
