"""kb diff and kb trace: any two releases, moves apart from wording, word diffs; the CLI and the diff page."""

from __future__ import annotations

import json
import types

import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.diff import diff_releases, format_word_diff, move_blocks, word_diff

from test_history import history_db_path


@pytest.fixture(scope="module")
def db_path(tmp_path_factory, corpus):
    return history_db_path(tmp_path_factory, corpus)


@pytest.fixture(scope="module")
def history_db(db_path):
    from kb.database import open_db

    return open_db(db_path)


def run(db_path, *args):
    return CliRunner().invoke(cli, [*args, "--db", str(db_path)])


def test_consecutive_diff_lists_search_as_a_move_in_a_block(history_db):
    result = diff_releases(history_db, "20250404", "20250606", section="701")
    moves = {c.old_number: c.new_number for c in result.moved}
    assert moves["701.19"] == "701.23" and moves["701.55"] == "701.57"
    assert "701.13–701.20 → 701.17–701.24 (+4)" in [str(b) for b in result.move_blocks]
    assert not result.removed
    assert [c.new_number for c in result.added if c.kind == "numbered"] == ["701.11"]  # Triple
    followers = [c for c in result.moved if c.with_parent]
    assert ("701.19a", "701.23a") in [(c.old_number, c.new_number) for c in followers]


def test_diff_across_many_releases_goes_through_the_lineages(history_db):
    result = diff_releases(history_db, "20231013", "20260417", section="701")
    moves = {c.old_number: c.new_number for c in result.moved}
    assert moves["701.19"] == "701.23"
    assert "701.57" in [c.new_number for c in result.added]  # Discover arrived in between


def test_changed_rule_has_a_word_diff(history_db):
    result = diff_releases(history_db, "20260116", "20260227")
    [ninjutsu] = [c for c in result.changed if c.new_number == "702.49c"]
    assert ("+", "with the ninjutsu ability enters") in ninjutsu.word_diff
    assert result.counts()["removed"] == 0


def test_moved_and_reworded_rule_shows_the_new_cross_reference(history_db):
    result = diff_releases(history_db, "20250404", "20250606", section="701.57")
    [c] = [c for c in result.moved if c.old_number == "701.55c"]
    assert c.status == "moved_changed" and ("+", "701.57a") in c.word_diff


def test_japanese_excerpt_diff_compares_only_what_both_have(history_db):
    result = diff_releases(history_db, "20260116", "20260807", lang="ja")
    assert result.excerpt and not result.removed and not result.added
    # 701.55 and a–d, 701.40 and a–h: the wiki's quotes are the 20260116 text (spacing aside).
    assert result.counts()["unchanged"] == 14 and not result.changed


def test_unknown_release_names_nearby_ones(history_db):
    from kb.database import UnknownRelease

    with pytest.raises(UnknownRelease, match=r"^no release '20250405' in en; releases are YYYYMMDD dates"):
        diff_releases(history_db, "20250405", "20250606")


def test_word_diff_round_trips_both_texts():
    old, new = "Search your library for a card, then shuffle.", "Search your library for up to two cards, then shuffle."
    segments = word_diff(old, new)
    assert "".join(t for op, t in segments if op != "+") == old
    assert "".join(t for op, t in segments if op != "-") == new
    assert format_word_diff(segments) == "Search your library for [-a card-]{+up to two cards+}, then shuffle."


def test_word_diff_in_japanese_is_by_character():
    assert format_word_diff(word_diff("カードを探す。", "カード1枚を探す。")) == "カード{+1枚+}を探す。"


def test_move_blocks_keep_moves_to_other_parents_apart():
    assert [str(b) for b in move_blocks([("502.9", "702.19"), ("701.2", "701.3"), ("701.3", "701.4")])] == [
        "502.9 → 702.19", "701.2–701.3 → 701.3–701.4 (+1)"]


# --- the CLI ----------------------------------------------------------------------------

def test_cli_diff_prints_moves_first(db_path):
    result = run(db_path, "diff", "20250404", "20250606", "--section", "701")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("20250404 → 20250606 (en, section 701): 259 moved, 0 changed, 4 added, 0 removed")
    assert "  701.13–701.20 → 701.17–701.24 (+4)  Mill, Play, Regenerate, Reveal, Sacrifice, Scry, Search, Shuffle" in lines


def test_cli_diff_json(db_path):
    result = run(db_path, "diff", "20260116", "20260227", "--json")
    data = json.loads(result.output)
    assert data["counts"]["changed"] == 6 and data["changed"][0]["word_diff"]


def test_cli_diff_bad_release_is_a_sentence(db_path):
    result = run(db_path, "diff", "2025", "20250606")
    assert result.exit_code == 2
    assert "'2025' is not a release id; use the effective date as YYYYMMDD, e.g. 20250606" in result.output
    result = run(db_path, "diff", "19990101", "20250606")
    assert result.exit_code == 1
    assert result.output.startswith("Error: no release '19990101' in en; releases are YYYYMMDD dates")


def test_cli_trace_text_and_json(db_path):
    result = run(db_path, "trace", "701.57a")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "701.57a (20260417 en): first in 20231117 as 701.55a; now 701.57a"
    assert "20250606–20260417 en 701.57a  moved from 701.55a" in result.output
    data = json.loads(run(db_path, "trace", "Discover", "--json").output)
    assert data["number"] == "701.57" and data["steps"][0]["number"] == "701.55"


def test_cli_trace_unknown_rule(db_path):
    result = run(db_path, "trace", "701.99")
    assert result.exit_code == 1
    assert result.output.startswith("Error: no rule 701.99 in release 20260417 (en); numbers move between releases")


# --- the diff page ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def diff_ds(db_path):
    """Datasette over the slice database with the diff page's routes (registered here until the plugin does)."""
    from datasette import hookimpl
    from datasette.app import Datasette
    from datasette.plugins import pm

    import kb.plugin
    from kb.plugin import diff_page

    routes = types.ModuleType("kb_test_diff_routes")
    routes.register_routes = hookimpl(lambda: diff_page.ROUTES)
    registered = diff_page.ROUTES[0] in kb.plugin.register_routes()
    if not registered:
        pm.register(routes, name="test-diff-routes")
    yield Datasette(immutables=[str(db_path)])
    if not registered:
        pm.unregister(name="test-diff-routes")


async def test_diff_page_lists_moves(diff_ds):
    from bs4 import BeautifulSoup

    response = await diff_ds.client.get("/-/diff?old=20250404&new=20250606&section=701")
    assert response.status_code == 200
    soup = BeautifulSoup(response.text, "html.parser")
    blocks = [li.get_text() for li in soup.select("ul.kb-move-blocks li")]
    assert "701.13–701.20 → 701.17–701.24 (+4)" in blocks
    cells = [[td.get_text(strip=True) for td in tr.select("td")] for tr in soup.select("table.kb-moves tr")]
    assert ["701.19", "701.23", "Search", "same"] in cells


async def test_diff_page_json_and_bad_parameters(diff_ds):
    response = await diff_ds.client.get("/-/diff.json?old=20260116&new=20260227")
    assert response.status_code == 200 and response.json()["counts"]["changed"] == 6
    response = await diff_ds.client.get("/-/diff.json?old=2026&new=20260227")
    assert response.status_code == 400
    assert response.json()["error"] == "old must be a release as YYYYMMDD (e.g. 20250404), not '2026'"
    response = await diff_ds.client.get("/-/diff?old=20260116&new=20260227&lang=fr")
    assert response.status_code == 400 and "lang must be en or ja, not &#39;fr&#39;" in response.text
