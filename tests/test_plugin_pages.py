"""The rule, keyword, home and search pages, through datasette.client (HTML read with BeautifulSoup)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


# --- the rule page -----------------------------------------------------------------------------

async def test_rule_page_puts_both_languages_side_by_side(ds):
    page = await ds.client.get("/-/rules/701.57?release=20260116")
    assert page.status_code == 200
    html = soup(page)
    rows = html.select(".kb-rows .kb-row[id]")
    assert [r["id"] for r in rows] == ["701.57", "701.57a", "701.57b", "701.57c"]
    first = html.find(id="701.57a")
    assert first.select_one(".kb-en").get_text(" ", strip=True).startswith("701.57a “Discover N” means")
    assert "発見N" in first.select_one(".kb-ja").get_text()
    assert first.select_one(".kb-ja")["lang"] == "ja"
    # A subrule's anchor is a link to itself.
    assert first.select_one(".kb-en a.kb-anchor")["href"] == "#701.57a"
    # Rule numbers in the text are links to rule pages of the same release.
    cited = html.find(id="701.57b").select_one(".kb-en .kb-rule-text a[href^='/-/rules/']")
    assert cited["href"] == "/-/rules/701.57a?release=20260116"


async def test_rule_page_newest_release_takes_the_newest_japanese_before_it(ds):
    data = (await ds.client.get("/-/rules/701.57.json")).json()
    newest_en = data["releases"]["en"]
    assert data["release"] == newest_en and data["lang"] == "en"
    assert data["releases"]["ja"] <= newest_en
    if data["releases"]["ja"] != newest_en:
        assert data["note"] == (f"Japanese from release {data['releases']['ja']}, the newest Japanese release "
                                f"before {newest_en}")
    assert data["title"] == {"en": "Discover", "ja": "発見を行う"}
    assert all(row["en"] and row["ja"] for row in data["rows"])


async def test_rule_page_in_one_language_only(ds):
    # English removed 805.10g; the Japanese text of the same release still has it.
    removed = (await ds.client.get("/-/rules/805.10g.json?release=20260116")).json()
    assert removed["lang"] == "ja" and removed["rows"][0]["en"] is None and removed["rows"][0]["ja"]
    # No Japanese CR is as old as 2009: no translation is paired across so many releases.
    old = (await ds.client.get("/-/rules/701.14.json?release=20090711")).json()
    assert old["releases"]["ja"] is None and all(row["ja"] is None for row in old["rows"])
    assert old["note"].startswith("No whole Japanese release on or before 20090711; the first is ")
    page = soup(await ds.client.get("/-/rules/701.14?release=20090711"))
    assert page.select_one(".kb-row[id='701.14a'] .kb-ja .kb-absent")


async def test_big_rule_pages_list_their_numbered_rules(ds):
    data = (await ds.client.get("/-/rules/702.json")).json()
    assert data["contents"]["rows"] > 150 and data["contents"]["depth"] == 2
    assert all(row["depth"] <= 2 for row in data["rows"])
    page = soup(await ds.client.get("/-/rules/702"))
    dredge = page.find(id="702.52").select_one(".kb-en a.kb-anchor")
    assert dredge["href"] == f"/-/rules/702.52?release={data['release']}"


async def test_rule_page_json_by_suffix_and_by_format(ds):
    by_suffix = (await ds.client.get("/-/rules/701.57.json?release=20260116")).json()
    by_format = (await ds.client.get("/-/rules/701.57?release=20260116&_format=json")).json()
    assert by_suffix == by_format
    assert set(by_suffix) >= {"rows", "cites", "cited_by", "rulings", "card_rulings", "cards", "history",
                              "scenarios", "en", "ja", "missing"}


async def test_rule_page_cites_and_cited_by_are_links(ds):
    data = (await ds.client.get("/-/rules/701.19.json?release=20260116")).json()  # Regenerate
    assert {"120.6", "302.7", "506.4", "614.8", "701.8c"} <= {r["number"] for r in data["cited_by"]}
    assert {"Damage", "Destroy"} <= {r["title"] for r in data["cited_by"]}  # a subrule shows its rule's title
    page = soup(await ds.client.get("/-/rules/701.19?release=20260116"))
    links = [a["href"] for a in page.select("#references a")]
    assert "/-/rules/614.8?release=20260116" in links
    assert all(h.startswith("/-/rules/") and h.endswith("?release=20260116") for h in links)
    inside = (await ds.client.get("/-/rules/701.57.json?release=20260116")).json()
    assert inside["cites"] == [], "701.57b citing 701.57a is inside the rule: not listed"


async def test_rule_page_rulings_cards_and_scenarios(ds, db_name):
    data = (await ds.client.get("/-/rules/701.57.json")).json()
    texts = [r["text"] for r in data["rulings"]]
    assert any(t.startswith("分割カードが追放された場合") for t in texts)
    cards = {c["name_en"] for c in data["cards"]}
    assert {"Hit the Mother Lode", "Bramble Familiar"} <= cards
    ids = {s["id"] for s in data["scenarios"]}
    assert {"discover-701.57a-cast-first-fit", "discover-701.57a-cast-or-hand-never-neither"} <= ids
    page = soup(await ds.client.get("/-/rules/701.57"))
    form = page.select_one("#scenario-discover-701\\.57a-cast-first-fit form.kb-run-form")
    assert form["method"] == "get" and form["action"] == "/-/scenarios/discover-701.57a-cast-first-fit"
    assert form.select_one("button").text.startswith("Run")
    # Card names in rulings link to card rows.
    card_links = {a.text: a["href"] for a in page.select("#rulings a.kb-card")}
    # Card names link to the card pages (/-/cards/<name>).
    assert card_links["Bramble Familiar"] == "/-/cards/Bramble%20Familiar"
    assert page.select_one("#cards a.kb-card")["href"].startswith("/-/cards/")


async def test_rule_page_draws_some_card_rulings_and_counts_the_rest(ds):
    from kb.plugin.rule_page import MAX_CARD_RULINGS_SHOWN

    # 613 (layers) and 608 (resolving) have hundreds of card rulings linked: the page draws the first
    # ones and says how many more the JSON has.
    for number in ("613", "608", "603", "702.19"):
        data = (await ds.client.get(f"/-/rules/{number}.json")).json()
        if len(data["card_rulings"]) > MAX_CARD_RULINGS_SHOWN:
            break
    else:
        pytest.skip("no rule of this database has that many card rulings")
    page = soup(await ds.client.get(f"/-/rules/{number}"))
    items = page.select("#rulings ul.kb-card-rulings > li")
    assert len(items) == MAX_CARD_RULINGS_SHOWN
    assert items[0].select_one("a.kb-card").text == data["card_rulings"][0]["card"]
    more = len(data["card_rulings"]) - MAX_CARD_RULINGS_SHOWN
    note = next(p for p in page.select("#rulings p") if "more in the" in p.text)
    assert note.text.startswith(f"… {more} more in the JSON")
    assert note.select_one("a")["href"].endswith(".json")


async def test_rule_page_of_an_old_number_has_the_scenarios_of_today(ds):
    # Discover was 701.55 in 20231117; its scenarios cite today's 701.57.
    data = (await ds.client.get("/-/rules/701.55.json?release=20231117")).json()
    assert data["title"]["en"] == "Discover"
    assert "discover-701.57a-cast-first-fit" in {s["id"] for s in data["scenarios"]}


async def test_rule_page_history_lists_every_number(ds):
    data = (await ds.client.get("/-/rules/701.57.json")).json()
    english = [(h["number"], h["first_release"]) for h in data["history"] if h["lang"] == "en"]
    assert ("701.55", "20231117") in english
    assert any(n == "701.57" for n, _ in english)
    page = soup(await ds.client.get("/-/rules/701.57"))
    assert page.select_one("#history a[href='/-/rules/701.55?release=20231117']")


async def test_rule_page_language_switch_links_keep_the_release(ds):
    page = soup(await ds.client.get("/-/rules/701.57?release=20260116&show=ja"))
    switch = {a["data-show"]: a["href"] for a in page.select(".kb-lang-switch a")}
    assert switch["en"] == "/-/rules/701.57?release=20260116&show=en"
    assert "kb-show-ja" in page.select_one(".kb-bilingual")["class"]
    assert page.select_one(".kb-lang-switch a.current")["data-show"] == "ja"


@pytest.mark.parametrize("query, status, message", [
    pytest.param("show=fr", 400, "show must be both, en, ja, zh or ko, not 'fr'", id="show"),
    pytest.param("release=2026", 400, "release must be a date as YYYYMMDD, not '2026'", id="release-form"),
    pytest.param("release=20260101", 400, "no release '20260101'", id="release-unknown"),
])
async def test_rule_page_validates_parameters(ds, query, status, message):
    response = await ds.client.get(f"/-/rules/701.57.json?{query}")
    assert response.status_code == status
    assert response.json()["ok"] is False and response.json()["error"].startswith(message)
    page = await ds.client.get(f"/-/rules/701.57?{query}")
    assert page.status_code == status and "Traceback" not in page.text
    assert soup(page).select_one(".kb-error").text.startswith(message)


@pytest.mark.parametrize("path", [
    "/-/rules/805.10?release=20260116", "/-/rules/805.10?release=20260116&lang=ja&with=en",
    "/-/rules/805.10?release=20260116&with=zh", "/-/rules/805.10", "/-/rules/701.57?release=20260116",
    "/-/rules/701", "/-/rules/100.2?release=20211119&with=ko", "/-/keywords/discover",
    "/-/keywords/discover?show=zh",
])
async def test_no_page_has_two_elements_with_one_id(ds, path):
    from collections import Counter

    page = await ds.client.get(path)
    assert page.status_code == 200
    ids = Counter(e["id"] for e in soup(page).select("[id]"))
    assert ids and [i for i, n in ids.items() if n > 1] == []


async def test_an_unpaired_row_has_its_own_anchor(ds):
    # The Japanese 805.10f (damage assignment order, removed in English 20241108) pairs with no
    # English rule; the English 805.10f is translated by the Japanese 805.10g.
    html = soup(await ds.client.get("/-/rules/805.10?release=20260116"))
    english = html.select_one("[id='805.10f']")
    alone = html.select_one("[id='ja-805.10f']")
    assert english.select_one(".kb-en .kb-anchor").text == "805.10f"
    assert english.select_one(".kb-ja .kb-anchor").text == "805.10g"
    assert alone.select_one(".kb-en .kb-absent") and alone.select_one(".kb-ja .kb-anchor")["href"] == "#ja-805.10f"


async def test_rule_page_missing_rule_says_where_it_was(ds):
    response = await ds.client.get("/-/rules/701.57.json?release=20231117")
    assert response.status_code == 404
    assert response.json()["error"] == ("no rule 701.57 in release 20231117 (en); the rule numbered 701.57 today "
                                        "was 701.55 in that release: /-/rules/701.55?release=20231117")
    assert (await ds.client.get("/-/rules/799.99")).status_code == 404


# --- the keyword page --------------------------------------------------------------------------

async def test_keyword_page_by_english_and_japanese_name(ds):
    english = (await ds.client.get("/-/keywords/discover.json")).json()
    japanese = (await ds.client.get("/-/keywords/%E7%99%BA%E8%A6%8B.json")).json()  # 発見
    by_format = (await ds.client.get("/-/keywords/Discover?_format=json")).json()
    for data in (english, japanese, by_format):
        assert data["title"] == "Discover" and data["name_ja"] == "発見"
    assert english["rule"] == japanese["rule"]
    assert english["current"]["en"]["number"] == "701.57"
    assert english["current"]["ja"]["number"] == "701.57"
    assert [n["number"] for n in english["numbers"]] == ["701.55", "701.57"]


async def test_keyword_page_shows_everything(ds, db_name):
    data = (await ds.client.get("/-/keywords/discover.json")).json()
    assert data["glossary"]["en"]["definition"].startswith("A keyword ability that may allow a player")
    assert data["glossary"]["ja"]["term"] == "発見"
    assert len(data["rulings"]) >= 13
    assert {"Hit the Mother Lode", "Curator of Sun's Creation"} <= {c["name_en"] for c in data["cards"]}
    from kb.plugin import resolution

    discover = {s.id for s in resolution.library().scenarios.values() if s.keyword == "Discover"}
    assert discover <= {s["id"] for s in data["scenarios"]}
    assert data["form"] == "/-/run/discover"
    page = soup(await ds.client.get("/-/keywords/discover"))
    assert page.select_one("h1 [lang=ja]").text == "発見"
    assert len(page.select("#scenarios li.kb-scenario form.kb-run-form")) == len(data["scenarios"])
    assert len(page.select("#definition .kb-row[id]")) == 4
    assert page.select_one("a[href='/-/run/discover']")


async def test_keyword_page_unknown_name(ds):
    response = await ds.client.get("/-/keywords/discovr.json")
    assert response.status_code == 404
    assert response.json()["error"] == "no keyword 'discovr' in the rules 701 and 702 of any release; did you mean 'Discover'?"
    page = await ds.client.get("/-/keywords/discovr")
    assert page.status_code == 404 and "did you mean 'Discover'?" in soup(page).select_one(".kb-error").text
    bad = await ds.client.get("/-/keywords/discover.json?show=de")
    assert bad.status_code == 400 and bad.json()["error"] == "show must be both, en, ja, zh or ko, not 'de'"


async def test_keyword_page_in_chinese_and_korean(ds, kb_db):
    chinese = await ds.client.get("/-/keywords/%E5%80%BE%E6%8E%A2.json")  # 倾探
    assert chinese.status_code == 200
    data = chinese.json()
    assert data["title"] == "Discover" and data["translations"]["zh"]["name"] == "倾探"
    newest_zh = kb_db.execute("select max(release) from releases where lang = 'zh' and completeness = 'whole'").fetchone()[0]
    assert (data["translations"]["zh"]["release"], data["translations"]["zh"]["number"]) == (newest_zh, "701.57")
    assert "“倾探”" in data["translations"]["zh"]["glossary"]["definition"]
    # The Korean CR (20211119) predates Discover: said, not left blank.
    assert data["translations"]["ko"] is None and "Korean" in data["translations"]["ko_note"]
    korean = (await ds.client.get("/-/keywords/%ED%83%90%ED%97%98.json")).json()  # 탐험
    assert korean["title"] == "Explore" and korean["translations"]["ko"]["number"] == "701.40"  # Explore in 2021
    page = soup(await ds.client.get("/-/keywords/discover"))
    assert page.select_one("h1 [lang=zh]").text == "倾探"
    assert "倾探" in page.select_one("#definition .kb-translations .kb-zh").text
    # show=zh shows the Chinese rule beside the English, as the rule page does.
    page = soup(await ds.client.get("/-/keywords/discover?show=zh"))
    assert page.select_one(".kb-bilingual.kb-show-zh")
    rows = page.select("#definition .kb-row[id]")
    assert len(rows) == 4 and all([c["lang"] for c in row.select(".kb-cell")] == ["en", "zh"] for row in rows)
    assert "倾探" in rows[0].select_one(".kb-zh").text
    page = soup(await ds.client.get("/-/keywords/explore?show=ko"))
    assert "탐험" in page.select_one("#definition .kb-row[id] .kb-ko").text
    assert (await ds.client.get("/-/keywords/discover?with=ko")).status_code == 200
    assert (await ds.client.get("/-/keywords/discover.json?release=20231117")).status_code == 400


async def test_keyword_list(ds):
    data = (await ds.client.get("/-/keywords.json")).json()
    by_title = {k["title"]: k for k in data["keywords"]}
    assert by_title["Discover"]["name_ja"] == "発見" and by_title["Discover"]["number"] == "701.57"
    assert by_title["Dredge"]["kind"] == "keyword ability"
    assert by_title["Discover"]["has_scenarios"]


# --- home, navigation, search ------------------------------------------------------------------

async def test_home_page_has_one_search_box_and_the_keyword_actions(ds, db_name):
    page = soup(await ds.client.get("/"))
    boxes = page.select(".content form[action='/-/search'] input[name=q]")
    assert len(boxes) == 1
    grid = page.select_one(".kb-keyword-grid")
    discover = grid.select_one("a[href='/-/keywords/discover']")
    assert "Discover" in discover.text and "発見" in discover.text
    assert "Search" in grid.text and "701.57" in grid.text
    # The way into Datasette: the database page (every table, queries, SQL) and the main tables.
    assert page.select_one(f".kb-home-tables a[href='/{db_name}']")
    tables = [a["href"] for a in page.select(".kb-table-list a")]
    assert tables[:3] == [f"/{db_name}/rules", f"/{db_name}/examples", f"/{db_name}/glossary"]


async def test_datasette_index_json_stays_available(ds, db_name):
    response = await ds.client.get("/.json")
    assert response.status_code == 200 and db_name in response.json()


@pytest.mark.parametrize("path", ["/-/rules/701.57", "/-/keywords/discover", "/-/scenarios", "/-/run/discover",
                                  "/{db}/rules", "/{db}", "/{db}/cards/1", "/-/search?q=discover", "/-/diff"])
async def test_every_page_has_the_search_box(ds, db_name, path):
    page = await ds.client.get(path.format(db=db_name))
    assert page.status_code == 200
    html = soup(page)
    # One box to search with: the header's, or the search page's own.
    boxes = html.select("form[action='/-/search'] input[name=q]")
    assert len(boxes) == 1
    assert html.select_one("link[href='/-/static-plugins/mtg-rules-kb/kb.css']")


async def test_table_views_facets_and_sql_stay_available(ds, db_name):
    response = await ds.client.get(f"/{db_name}/cards.json?_facet=layout&_size=1")
    assert response.status_code == 200 and "layout" in response.json()["facet_results"]
    sql = await ds.client.get(f"/{db_name}.json?sql=select+count(*)+as+n+from+rulings&_shape=array")
    assert sql.status_code == 200 and sql.json()[0]["n"] > 0


async def test_search_finds_rulings_and_cards(ds, db_name):
    data = (await ds.client.get("/-/search.json?q=Bramble+Familiar")).json()
    cards = [h for h in data["others"] if h["kind"] == "card"]
    assert cards and cards[0]["title"] == "Bramble Familiar"
    assert cards[0]["url"].startswith(f"/{db_name}/cards/")
    assert any(h["kind"] == "ruling" for h in data["others"])
    japanese = (await ds.client.get("/-/search.json?q=%E6%9C%A8%E8%8B%BA%E3%81%AE%E4%BD%BF%E3%81%84%E9%AD%94")).json()
    assert any(h["kind"] == "card" and h["title"] == "木苺の使い魔" for h in japanese["others"])
    # Rules stay first: a common word's card rulings are listed beside them.
    search = (await ds.client.get("/-/search.json?q=search&lang=en")).json()
    assert search["hits"][0]["kind"] in ("rule", "example", "glossary")
    keyword = (await ds.client.get("/-/search.json?q=%E7%99%BA%E8%A6%8B")).json()["keyword"]  # 発見
    assert keyword == {"title": "Discover", "number": "701.57", "url": "/-/keywords/discover"}
    page = soup(await ds.client.get("/-/search?q=Bramble+Familiar"))
    assert page.select_one(".kb-other-hits a")["href"].startswith(f"/{db_name}/cards/")


# --- links in Datasette's own tables -----------------------------------------------------------

async def test_card_names_in_cells_link_to_card_rows(ds, db_name):
    page = soup(await ds.client.get(f"/{db_name}/card_rulings?card=Aven+Mindcensor&_size=1"))
    link = page.select_one("td.col-card a.kb-card")
    assert link.text == "Aven Mindcensor" and link["href"] == "/-/cards/Aven%20Mindcensor"
    rulings = soup(await ds.client.get(f"/{db_name}/rulings?_search=%E6%9C%A8%E8%8B%BA&_size=5"))
    names = {a.text for a in rulings.select("td.col-text a.kb-card")}
    assert {"木苺の使い魔", "Bramble Familiar"} <= names


async def test_card_links_escape_cell_text(ds, db_name):
    import inspect

    from kb.plugin.links import render_cell_links

    await ds.client.get("/")  # the card index is read once; before that the hook answers with an awaitable
    html = render_cell_links({"id": 1}, "<i>Shock</i> and rule 701.57a", "text", "rulings", db_name, ds)
    if inspect.isawaitable(html):
        html = await html
    assert "&lt;i&gt;" in str(html) and "<i>" not in str(html)
    assert 'class="kb-card"' in str(html) and 'href="/-/rules/701.57a"' in str(html)


# --- a database without the wiki, card and history tables -------------------------------------

@pytest.fixture(scope="module")
def cr_only_ds(bilingual_db):
    """Datasette over release 20260116 in both languages and nothing else (no wiki, cards, history)."""
    from datasette.app import Datasette

    from kb.metadata import metadata_for

    return Datasette(immutables=[str(bilingual_db)], metadata=metadata_for(bilingual_db.stem))


async def test_pages_work_without_the_other_tables(cr_only_ds):
    data = (await cr_only_ds.client.get("/-/rules/701.57.json")).json()
    assert data["release"] == "20260116" and data["releases"] == {"en": "20260116", "ja": "20260116"}
    assert {"rule_lineage", "rulings", "cards"} <= set(data["missing"])
    assert data["rulings"] == data["cards"] == data["history"] == []
    assert data["scenarios"], "scenarios come from the served database that has the scenario tables"
    page = soup(await cr_only_ds.client.get("/-/rules/701.57"))
    assert "no rule history" in page.select_one("#history").text
    keyword = (await cr_only_ds.client.get("/-/keywords/%E7%99%BA%E8%A6%8B.json")).json()
    assert keyword["title"] == "Discover" and keyword["wiki"] is None
    for path in ("/", "/-/keywords", "/-/keywords/discover", "/-/search?q=discover", "/bilingual/rules"):
        assert (await cr_only_ds.client.get(path)).status_code == 200, path


# --- pages drawn synchronously (kb.plugin.fragments.render_page) -------------------------------

@pytest.mark.parametrize("path", ["/-/rules/701.57", "/-/rules/702.19?show=ja", "/-/rules/702",
                                  "/-/rules/613", "/-/keywords/discover", "/-/keywords/%E7%99%BA%E8%A6%8B?show=en"])
async def test_pages_drawn_synchronously_are_the_pages_datasette_draws(ds, path, monkeypatch):
    from kb.plugin import fragments, keyword_page, rule_page

    fast = await ds.client.get(path)
    assert fast.status_code == 200
    calls = []

    async def datasette_draws(datasette, template_name, context, request):
        calls.append(template_name)
        return await datasette.render_template(template_name, context, request=request)

    monkeypatch.setattr(fragments, "render_page", datasette_draws)
    fresh = rule_page.HtmlCache()   # drawn again, not read from memory
    monkeypatch.setattr(rule_page, "HTML", fresh)
    monkeypatch.setattr(keyword_page, "HTML", fresh)
    slow = await ds.client.get(path)
    assert calls, "the page must be drawn through fragments.render_page"
    assert fast.text == slow.text


def test_a_page_whose_blocks_cannot_be_told_apart_is_refused(ds):
    from kb.plugin import fragments

    with pytest.raises(ValueError, match="parts drawn"):
        fragments.page_blocks(ds, "kb_error.html", {"title": "x", "message": "a\x00b", "status": 400})
