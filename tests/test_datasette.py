"""The Datasette side of the foundation, through datasette.client."""

from __future__ import annotations

from bs4 import BeautifulSoup


async def test_plugin_is_registered(ds):
    response = await ds.client.get("/-/plugins.json")
    names = {p["name"] for p in response.json()}
    assert "mtg-rules-kb" in names


async def test_table_search_box_uses_fts(ds, db_name):
    response = await ds.client.get(f"/{db_name}/rules.json?_search=discover&release=20260116&_shape=array")
    assert response.status_code == 200
    numbers = {row["number"] for row in response.json()}
    assert {"701.57", "701.57a", "701.57b"} <= numbers
    page = await ds.client.get(f"/{db_name}/rules?_search=discover")
    assert 'name="_search"' in page.text  # the search box is there


async def test_table_facets_and_metadata(ds, db_name):
    # Facets are bounded by Datasette's time limit (wall clock): on a machine busy with other work one may
    # time out, and Datasette then says so in facets_timed_out. What is checked is that they are there.
    for _attempt in range(3):
        data = (await ds.client.get(f"/{db_name}/rules.json?_size=0")).json()
        if not data.get("facets_timed_out"):
            break
    assert {"release", "lang", "kind", "section"} <= set(data["facet_results"]), data.get("facets_timed_out")
    page = await ds.client.get(f"/{db_name}/rules")
    assert "Rules (701), numbered rules (701.23) and subrules" in page.text


async def test_canned_query_keyword_actions_newest(ds, db_name):
    response = await ds.client.get(f"/{db_name}/keyword_actions_newest.json?_shape=array")
    rows = response.json()
    by_title = {r["title"]: r["number"] for r in rows}
    assert by_title["Search"] == "701.23" and by_title["Discover"] == "701.57"


async def test_canned_query_rule_across_releases(ds, db_name):
    response = await ds.client.get(f"/{db_name}/rule_across_releases.json?rule=Discover&_shape=array")
    rows = response.json()
    assert rows[0]["release"] == "20231117" and rows[0]["number"] == "701.55"
    assert rows[-1]["number"] == "701.57"


async def test_rule_numbers_in_text_cells_are_links(ds, db_name):
    page = await ds.client.get(f"/{db_name}/rules?number=701.57b&release=20260116&lang=en")
    soup = BeautifulSoup(page.text, "html.parser")
    cell = soup.select_one("td.col-text")
    link = cell.find("a")
    assert link.text == "701.57a" and link["href"] == "/-/rules/701.57a?release=20260116"
    assert cell.text.startswith("A player has “discovered” after the process described in 701.57a")


async def test_links_escape_cell_text(ds, db_name):
    # Text cells are escaped before links go in: no markup from the database reaches the page.
    from kb.plugin.links import render_rule_links

    html = render_rule_links({"release": "20260116"}, "<b>see rule 701.23a</b>", "text", "rules", ds)
    assert str(html) == '&lt;b&gt;see rule <a href="/-/rules/701.23a?release=20260116">701.23a</a>&lt;/b&gt;'


async def test_rule_page_and_json(ds):
    page = await ds.client.get("/-/rules/701.57?release=20260116")
    assert page.status_code == 200 and "Discover" in page.text
    data = (await ds.client.get("/-/rules/701.57.json?release=20260116")).json()
    assert [r["number"] for r in data["en"]] == ["701.57", "701.57a", "701.57b", "701.57c"]
    bad = await ds.client.get("/-/rules/701.57?release=2026")
    assert bad.status_code == 400
    missing = await ds.client.get("/-/rules/799.99")
    assert missing.status_code == 404


async def test_search_page_validates_every_parameter(ds):
    for query, message in [
        ("q=x&lang=fr", "lang must be en, ja or any, not 'fr'"),
        ("q=x&release=2026", "release must be a date as YYYYMMDD, not '2026'"),
        ("q=x&section=7a", "section must be a rule number such as 7, 701 or 701.57, not '7a'"),
        ("q=x&limit=1000", "limit must be a whole number from 1 to 100, not '1000'"),
        ("q=" + "x" * 501, "q is 501 characters long; at most 500 are accepted"),
        ("q=x&release=20260101", "no release '20260101'"),
    ]:
        response = await ds.client.get(f"/-/search.json?{query}")
        assert response.status_code == 400, query
        assert message in response.json()["error"]
        page = await ds.client.get(f"/-/search?{query}")
        assert page.status_code == 400 and "Traceback" not in page.text


async def test_search_page_hits_link_to_rule_pages(ds):
    data = (await ds.client.get("/-/search.json?q=discover&lang=en")).json()
    assert data["ok"] and data["hits"][0]["number"].startswith("701.57")
    page = await ds.client.get("/-/search?q=discover&lang=en")
    soup = BeautifulSoup(page.text, "html.parser")
    first = soup.select_one("ol.kb-hits li a")
    assert first["href"].startswith("/-/rules/701.57")
    assert soup.select_one("ol.kb-hits mark").text.lower().startswith("discover")
