"""Build step: what search needs besides the FTS index, so that the database is self-contained.

- ``search_aliases``: the player words of ``data/aliases.toml`` (bounce, サーチ,
  ETB, …) with the CR's words in both languages (Japanese ones in search form);
- ``search_words`` and ``search_words_vocab``: the words of ``search_current``
  unstemmed, in a contentless FTS5 index, and its ``fts5vocab`` (term, doc):
  the vocabulary typos are corrected against (:mod:`kb.search.typos`);
- ``search_titles``: titled rules and glossary terms by the words of their title;
- ``search_rules_fts``: the English and Japanese CR rows alone in an FTS5 index of their own,
  which the answers' bm25 rankings read (:mod:`kb.search.lexical`);
- ``search_vectors`` (sqlite-vec ``vec0``) and ``search_vector_meta``: the
  sentence vectors of the CR rows of ``search_current`` that the vector cache
  already has (:mod:`kb.search.dense`). Nothing is embedded here unless
  ``KB_EMBED=1``: the build stays fast, and ``kb serve`` embeds the rest in the
  background.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

from ..build import BuildContext

ALIASES = Path(__file__).resolve().parents[2] / "data" / "aliases.toml"


def load_aliases(path: Path = ALIASES) -> list[dict]:
    """The ``[[alias]]`` entries of ``path``, checked; raises ValueError naming the entry."""
    with open(path, "rb") as f:
        entries = tomllib.load(f).get("alias", [])
    for i, entry in enumerate(entries, 1):
        if not entry.get("words") or "source" not in entry:
            raise ValueError(f"{path}: alias {i} needs words and a source")
    return entries


def load_search_index(ctx: BuildContext) -> None:
    db = ctx.db
    if "search_current" not in db.table_names():
        return
    _aliases(ctx)
    _vocabulary(db)
    _rules_index(db)
    _titles(db)
    _vectors(db)


def _aliases(ctx: BuildContext) -> None:
    from ..japanese import search_form

    def form(phrase: str) -> str:
        return search_form(phrase.replace(" ", ""))

    rows = [{"id": i, "words": json.dumps(e["words"], ensure_ascii=False),
             "en": json.dumps(e.get("en", []), ensure_ascii=False),
             "ja": json.dumps([form(p) for p in e.get("ja", [])], ensure_ascii=False),
             "not_senses": json.dumps(e.get("not", []), ensure_ascii=False),
             "with_words": json.dumps(e.get("with", []), ensure_ascii=False), "source": e["source"]}
            for i, e in enumerate(load_aliases(), 1)]
    ctx.db["search_aliases"].insert_all(rows, pk="id", replace=True, alter=True)


def _titles(db) -> None:
    """``search_titles``: each titled rule and glossary term of the default search by the words of
    its title as a query reads them (English stems, Japanese search form), for exact title matches."""
    from ..japanese import search_form
    from ..search.fts import english_key, english_stems

    rows = []
    for lang, release, number, title, kind in db.execute(
            "select lang, release, number, title, kind from search_current where kind in ('rule', 'glossary')"
            " and title is not null and number is not null order by kind = 'glossary', id"):
        words = " ".join(english_stems(english_key(title))) if lang == "en" else search_form(title)
        rows.append({"lang": lang, "words": words, "release": release, "number": number, "kind": kind})
    # A glossary term that only points to another ("Range of Influence: See Limited Range of
    # Influence.", 影響範囲: 影響範囲限定参照。) stands for that term's rule.
    numbers = {(r["lang"], r["release"], t): r["number"] for r, t in zip(rows, _titled(db)) if r["kind"] == "glossary"}
    for lang, release, title, text in db.execute(
            "select lang, release, title, text from search_current where kind = 'glossary' and title is not null"
            " and number is null order by id"):
        target = _redirect(text or "", lang)
        number = numbers.get((lang, release, target)) if target else None
        if number:
            words = " ".join(english_stems(english_key(title))) if lang == "en" else search_form(title)
            rows.append({"lang": lang, "words": words, "release": release, "number": number, "kind": "glossary"})
    db["search_titles"].drop(ignore=True)
    db["search_titles"].insert_all(rows, batch_size=2000)
    db["search_titles"].create_index(["lang", "words"])


def _titled(db) -> list[str]:
    """The titles of :func:`_titles`' first rows, in the same order."""
    return [t for t, in db.execute(
        "select title from search_current where kind in ('rule', 'glossary') and title is not null"
        " and number is not null order by kind = 'glossary', id")]


_SEE = {"en": re.compile(r"See ([^.]{1,80})\."), "ja": re.compile(r"([^。、]{1,40}?)\s*参照。")}


def _redirect(text: str, lang: str) -> str | None:
    """The term a glossary entry only points to, if that is all it says.

    >>> _redirect("See Limited Range of Influence.", "en"), _redirect("影響範囲限定参照。", "ja")
    ('Limited Range of Influence', '影響範囲限定')
    >>> _redirect("A term that meant “put into its owner’s graveyard.” See rule 701.8.", "en") is None
    True
    """
    pattern = _SEE.get(lang)
    m = pattern.fullmatch(text.strip()) if pattern else None
    return m.group(1).strip() if m else None


RULES_FTS = "search_rules_fts"


def _rules_index(db) -> None:
    """``search_rules_fts``: the English and Japanese CR rows of ``search_current`` (rules,
    examples, glossary) in an FTS5 index of their own, over the same text (external content).
    Answers rank these rows only; in the index of every row their words' lists run through ten
    times as many rows of cards and card rulings, which made each ranking three to five times
    slower, and the rarity of a word is the rarity among rules."""
    db.execute(f"drop table if exists {RULES_FTS}")
    db.execute(f"create virtual table {RULES_FTS} using fts5(search_text, content='search_current',"
               " content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')")
    db.execute(f"insert into {RULES_FTS} (rowid, search_text) select id, search_text from search_current"
               " where kind in ('rule', 'example', 'glossary') and lang in ('en', 'ja')")
    db.execute(f"insert into {RULES_FTS} ({RULES_FTS}) values ('optimize')")
    db.conn.commit()


def _vocabulary(db) -> None:
    db.execute("drop table if exists search_words_vocab")
    db.execute("drop table if exists search_words")
    db.execute("create virtual table search_words using fts5(search_text, content='',"
               " tokenize='unicode61 remove_diacritics 2')")
    db.execute("insert into search_words (rowid, search_text) select id, search_text from search_current")
    db.execute("create virtual table search_words_vocab using fts5vocab(search_words, 'row')")
    db.conn.commit()


def _vectors(db) -> None:
    try:
        import sqlite_vec
    except ImportError:
        return
    from ..search import dense

    model = dense.embedder()
    name = model.name if model else (os.environ.get("KB_EMBEDDER") or dense.DEFAULT)
    if name not in dense.EMBEDDERS:
        return
    conn = db.conn
    try:
        conn.enable_load_extension(True)
        sqlite_vec.load(conn)
        conn.enable_load_extension(False)
    except (AttributeError, Exception):  # noqa: BLE001 - SQLite without extension loading
        return
    if os.environ.get("KB_EMBED") == "1" and model is not None:
        dense.fill_cache(conn, model)
    rows = dense.rows_to_embed(conn)
    cache = dense.VectorCache(name)
    found = cache.get_many(dense.text_hash(name, text) for _, _, text in rows)
    dim = dense.EMBEDDERS[name].dim
    db.execute("drop table if exists search_vectors")
    db.execute(f"create virtual table search_vectors using vec0(embedding float[{dim}])")
    # All or nothing: a database holds the vectors of every rule or of none (while the cache is
    # still being filled, the server takes the rest from the cache), so two builds of the same
    # corpus are the same database.
    complete = all(dense.text_hash(name, t) in found for _, _, t in rows)
    with conn:
        conn.executemany("insert into search_vectors (rowid, embedding) values (?, ?)",
                         [(rowid, found[dense.text_hash(name, text)]) for rowid, _, text in rows] if complete else [])
    db["search_vector_meta"].insert_all(
        [{"key": "model", "value": name}, {"key": "rows", "value": str(len(rows))},
         {"key": "embedded", "value": str(len(rows) if complete else 0)}],
        pk="key", replace=True)
