"""The held-out half of :mod:`tests.test_broken_build`: other files of each kind, never looked at while
the build's handling of broken files was fixed (round 9), checked the same way.

The Japanese CR, its glossary copy and the Korean CR have one file each in the corpus: they are in the
tuned half only.
"""

from __future__ import annotations

import pytest
from test_broken_build import (
    cases,
    check_damaged,
    make_tree,
    reading_only,  # noqa: F401  (a fixture this module's tree uses)
    table_rows,
)

from kb.build import build_database
from kb.cache import default_cache_dir

FROZEN = [
    ("cr-en-2025", "cr/en/MagicCompRules_20250207.txt"),
    ("cr-zh-2023", "cr/zh/MagicCompRules_zh-Hans_20231117.txt"),
    ("seed-003", "seeds/003_4e220451db1f8278.txt"),
    ("wiki-ja-diff-with-render", "wiki/ja/護法__diff-2021-wikitext-with-render__excerpt.txt"),
    ("wiki-ja-rendered-oldrev", "wiki/ja/宝物__rendered-oldrev__excerpt.txt"),
    ("wiki-en-fandom", "wiki/en/Scry__fandom-rendered__excerpt.txt"),
    ("wiki-en-diff-with-render", "wiki/en/Dredge__diff-2014-wikitext-with-render__excerpt.txt"),
    ("oracle-xml-keywords", "cards/oracle_xml/keyword_cards_oracle_en.xml.txt"),
    ("oracle-set-lea", "cards/oracle_sets/MtgOracle_LEA.txt"),
    ("forge-adventure", "cards/forge/bramble_familiar_fetch_quest.txt"),
    ("forge-discover", "cards/forge/hit_the_mother_lode.txt"),
]


@pytest.fixture(scope="module")
def tree(tmp_path_factory, corpus, reading_only):  # noqa: F811
    root = make_tree(tmp_path_factory.mktemp("frozen") / "corpus", corpus, english=["MagicCompRules_20250207.txt"],
                     oracle_sets=["MtgOracle_LEA.txt"])
    db = root.parent / "good.db"
    build_database(db, root, show_progress=False, cache_dir=default_cache_dir())
    return root, db


@pytest.fixture(scope="module")
def good_rows(tree):
    return table_rows(tree[1])


@pytest.mark.parametrize("kind,relative,damage", cases(FROZEN))
def test_a_held_out_damaged_file_fails_the_build_by_name_or_is_read_right_or_warned_of(
        tree, good_rows, corpus, tmp_path, kind, relative, damage):
    check_damaged(tree, good_rows, corpus, tmp_path, relative, damage)
