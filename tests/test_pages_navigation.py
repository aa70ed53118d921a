"""Ways in and no dead ends: rules by title or Japanese name, the contents page and its "go to rule"
box, the home page, the diff page after a bad release, rule numbers linked in canned queries."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from click.testing import CliRunner

from kb.cli import cli


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


@pytest.fixture(scope="module")
def numbers(kb_db):
    from kb.database import newest_release

    newest = newest_release(kb_db)
    discover = kb_db.execute("select number from rules where release = ? and lang = 'en' and title = 'Discover'",
                             [newest]).fetchone()[0]
    first = kb_db.execute("select min(release) from rules where lang = 'en' and title = 'Discover'").fetchone()[0]
    first_number = kb_db.execute("select number from rules where release = ? and lang = 'en' and title = 'Discover'",
                                 [first]).fetchone()[0]
    return {"newest": newest, "discover": discover, "first": first, "first_number": first_number}


@pytest.mark.parametrize("name", ["Discover", "discover", "%E7%99%BA%E8%A6%8B"])   # 発見
async def test_rule_page_by_title_or_japanese_name_redirects_to_the_number(ds, name, numbers):
    response = await ds.client.get(f"/-/rules/{name}")
    assert response.status_code == 302
    assert response.headers["location"] == f"/-/rules/{numbers['discover']}"


async def test_rule_page_by_name_keeps_the_release_and_json(ds):
    response = await ds.client.get("/-/rules/Search.json?release=20090711")
    assert response.status_code == 302 and response.headers["location"] == "/-/rules/701.14.json?release=20090711"


async def test_a_keyword_missing_from_an_old_release_says_when_it_first_appeared(ds, numbers):
    response = await ds.client.get("/-/rules/Discover?release=20200124")
    assert response.status_code == 404
    message = soup(response).select_one(".kb-error").text
    assert message == (f"'Discover' is not in release 20200124 (en): it first appeared in {numbers['first']} "
                       f"as {numbers['first_number']}")


@pytest.mark.parametrize("name, hint", [("xyz", None), ("Discovr", "did you mean 'Discover'?")])
async def test_an_unknown_rule_name_is_our_404_not_database_not_found(ds, name, hint):
    response = await ds.client.get(f"/-/rules/{name}")
    assert response.status_code == 404
    assert "Database not found" not in response.text
    message = soup(response).select_one(".kb-error").text
    assert message.startswith(f"'{name}' is neither a rule number")
    if hint:
        assert message.endswith(hint)


def test_kb_rule_takes_a_japanese_name(built_db, numbers):
    result = CliRunner().invoke(cli, ["rule", "発見", "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{numbers['discover']}. Discover")
    result = CliRunner().invoke(cli, ["rule", "Discover", "--release", "20200124", "--db", str(built_db)])
    assert result.exit_code == 1 and "it first appeared in" in result.output


async def test_contents_page_lists_every_section_and_goes_to_a_rule(ds, numbers):
    page = soup(await ds.client.get("/-/rules"))
    sections = [h.text.split(".")[0] for h in page.select(".kb-contents-section h2")]
    assert sections == [str(n) for n in range(1, 10)]
    assert page.select_one('a[href="/-/rules/701?release=' + numbers["newest"] + '"]') is not None
    form = page.select_one("form.kb-goto")
    assert form["action"] == "/-/rules" and form.select_one("input[name=number]")
    response = await ds.client.get("/-/rules?number=701.57a")
    assert response.status_code == 302 and response.headers["location"] == "/-/rules/701.57a"
    data = (await ds.client.get("/-/rules.json?release=20260116")).json()
    assert data["release"] == "20260116" and data["release_ja"] == "20260116"
    assert {"number": "701", "title": "Keyword Actions", "title_ja": "キーワード処理"} in data["sections"][6]["rules"]


async def test_home_page_has_a_go_to_box_a_legend_and_no_repeated_names(ds):
    page = soup(await ds.client.get("/"))
    assert page.select_one("form.kb-goto input[name=number]") is not None
    assert "▶" in page.select_one(".kb-legend").text
    for item in page.select(".kb-table-list li"):
        small = item.select_one("small")
        assert small is None or small.text.lower() != item.select_one("a").text.lower()


async def test_diff_page_keeps_its_release_pickers_after_a_bad_release(ds):
    response = await ds.client.get("/-/diff?old=2020&new=20260116")
    assert response.status_code == 400
    page = soup(response)
    assert page.select_one(".kb-error").text.startswith("old must be a release as YYYYMMDD")
    assert len(page.select("select[name=old] option")) > 100
    response = await ds.client.get("/-/diff?old=20200101&new=20260116")
    assert response.status_code == 400 and len(soup(response).select("select[name=new] option")) > 100


async def test_diff_page_move_blocks_link_their_rules(ds):
    page = soup(await ds.client.get("/-/diff?old=20250404&new=20250606&section=701"))
    first = page.select_one(".kb-move-blocks li")
    assert [a["href"] for a in first.select("a")] == [
        "/-/rules/701.4?release=20250404", "/-/rules/701.9?release=20250404",
        "/-/rules/701.5?release=20250606", "/-/rules/701.10?release=20250606"]


async def test_canned_query_links_rule_numbers(ds, db_name):
    page = soup(await ds.client.get(f"/{db_name}/rule_across_releases?rule=Search"))
    links = [a["href"] for a in page.select("td a[href^='/-/rules/']")]
    assert "/-/rules/701.14?release=20090711" in links


def test_rules_table_facets_and_sort_use_covering_indexes(kb_db):
    # The /kb/rules page facets every release at once: without these indexes its facets timed out.
    for column in ("kind", "section"):
        plan = " ".join(r[3] for r in kb_db.execute(
            f"explain query plan select {column} as value, count(*) as count from (select * from rules)"
            f" where {column} is not null group by {column} order by count desc, value limit 31"))
        assert f"COVERING INDEX idx_rules_{column}" in plan
    plan = " ".join(r[3] for r in kb_db.execute("explain query plan select * from rules order by position limit 51"))
    assert "idx_rules_position" in plan
