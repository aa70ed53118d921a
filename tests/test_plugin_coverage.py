"""The coverage page ``/-/coverage``, the home page's coverage figures and the keyword pages' subrule
statuses, through datasette.client (HTML read with BeautifulSoup)."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

from executable_rules.actions import ACTIONS
from executable_rules.actions.scry import OUT_OF_REACH as SCRY_OUT_OF_REACH
from kb.coverage import coverage


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


@pytest.fixture(scope="module")
def report(kb_db):
    return coverage(kb_db)


@pytest.fixture(scope="module")
def warm(ds, kb_db, built_db):
    """As ``kb serve`` starts: the scenarios, card index and modules are loaded before the first request,
    not inside a page's time limit (the machine may be busy)."""
    from kb.plugin import keyword_page, resolution

    resolution.configure(ds)
    assert resolution.library().error is None
    keyword_page.read_keyword(kb_db.conn, str(built_db), "discover")
    return True


@pytest.fixture(autouse=True)
async def served(ds, warm):
    await ds.invoke_startup()


async def test_the_coverage_page_lists_every_keyword_with_its_module(ds, report):
    response = await ds.client.get("/-/coverage")
    assert response.status_code == 200
    page = soup(response)
    rows = page.select("table.kb-coverage tbody tr")
    assert [r["id"] for r in rows] == [k.number for k in report.keywords]
    scry = page.find("tr", id=report.find("Scry").number)
    assert scry.select_one("code").text == "scry" and "占術を行う" in scry.text
    letters = {a.text: a["class"] for a in scry.select(".kb-subrules a.kb-sub")}
    assert "kb-sub-implemented" in letters["a"] and "kb-sub-out-of-reach" in letters["c"]
    reasons = [p.get_text(" ", strip=True) for p in scry.select(".kb-reason")]
    assert any(SCRY_OUT_OF_REACH["c"] in r for r in reasons)
    links = [a["href"] for a in scry.select(".kb-scenarios a")]
    assert links and all(h.startswith("/-/scenarios/scry-") for h in links)
    # An action without a module is listed too, every subrule missing.
    bare = next((k for k in report.of_kind("keyword action") if not k.module), None)
    if bare:
        row = page.find("tr", id=bare.number)
        assert "kb-no-module" in row["class"]
        assert all("kb-sub-missing" in a["class"] for a in row.select(".kb-subrules a.kb-sub"))


async def test_the_coverage_page_links_examples_to_their_scenarios(ds, report):
    page = soup(await ds.client.get("/-/coverage"))
    search = report.find("Search")
    row = page.find("tr", id=search.number)
    examples = row.select(".kb-examples .kb-ex")
    assert len(examples) == len(search.examples) >= 3
    covered = row.select(".kb-ex-covered a[href^='/-/scenarios/']")
    assert covered
    for a in covered:       # every linked scenario exists and is a page
        assert (await ds.client.get(a["href"])).status_code == 200


async def test_the_coverage_page_shows_the_totals(ds, report):
    page = soup(await ds.client.get("/-/coverage"))
    actions = page.find("tr", id="totals-actions").get_text(" ", strip=True)
    t = report.totals["actions"]
    assert f"{t['with_module']} / {t['all']}" in actions
    assert f"{t['examples_covered']} / {t['examples']}" in actions


async def test_the_coverage_page_json_and_filters(ds, report):
    data = (await ds.client.get("/-/coverage.json")).json()
    assert data["ok"] and data["release"] == report.release
    assert len(data["keywords"]) == len(report.keywords)
    assert data == (await ds.client.get("/-/coverage?_format=json")).json()
    actions = (await ds.client.get("/-/coverage.json?kind=action")).json()["keywords"]
    assert actions and {k["kind"] for k in actions} == {"keyword action"}
    modules = (await ds.client.get("/-/coverage.json?only=modules")).json()["keywords"]
    assert {k["title"] for k in modules} == {m.KEYWORD for m in ACTIONS if m.KIND != "rule"}
    without = (await ds.client.get("/-/coverage.json?only=missing&kind=ability")).json()["keywords"]
    assert without and all(not k["module"] and k["kind"] == "keyword ability" for k in without)
    page = soup(await ds.client.get("/-/coverage?kind=ability&only=modules"))
    assert {r["id"] for r in page.select("table.kb-coverage tbody tr")} == {
        k["number"] for k in modules if k["kind"] == "keyword ability"}


@pytest.mark.parametrize("query, message", [
    ("kind=spell", "kind must be action or ability, not 'spell'"),
    ("only=everything", "only must be modules or missing, not 'everything'"),
    ("page=2", "the coverage page takes kind and only, not page"),
    ("kind=" + "x" * 5000, "kind must be action or ability, not '" + "x" * 40 + "'"),
])
async def test_the_coverage_page_refuses_bad_parameters_with_a_400(ds, query, message):
    response = await ds.client.get(f"/-/coverage?{query}")
    assert response.status_code == 400
    assert soup(response).select_one(".kb-error").text.strip() == message
    data = (await ds.client.get(f"/-/coverage.json?{query}")).json()
    assert data == {"ok": False, "error": message, "status": 400}


async def test_the_home_page_shows_coverage_with_a_link(ds, report):
    page = soup(await ds.client.get("/"))
    section = page.select_one(".kb-home-coverage")
    assert section is not None
    text = section.get_text(" ", strip=True)
    a, b = report.totals["actions"], report.totals["abilities"]
    assert f"{a['with_module']} / {a['all']} keyword actions have a module" in text
    assert f"subrules {a['implemented']} / {a['subrules']} implemented" in text
    assert f"CR examples {a['examples_covered']} / {a['examples']} covered" in text
    assert f"{b['with_module']} / {b['all']} keyword abilities have a module" in text
    assert section.select_one("a[href='/-/coverage']")


# ------------------------------------------------------------------ keyword pages


async def test_a_keyword_page_shows_each_subrule_implemented_or_out_of_reach(ds, report):
    scry = report.find("Scry")
    response = await ds.client.get("/-/keywords/scry")
    assert response.status_code == 200
    page = soup(response)
    status = page.select_one("#coverage")
    assert status is not None
    assert "占術を行う" in page.select_one("h1").text or "占術" in page.select_one("h1").text
    rows = {li["data-subrule"]: li for li in status.select("li[data-subrule]")}
    assert list(rows) == [s.number for s in scry.subrules]
    first = scry.subrules[0].number
    assert "implemented" in rows[first].text and rows[first].select_one("a[href^='/-/scenarios/']")
    out = next(s for s in scry.subrules if s.status == "out of reach")
    assert "out of reach" in rows[out.number].text and out.reason in rows[out.number].text
    assert "executable_rules.actions.scry" in status.text
    data = (await ds.client.get("/-/keywords/scry.json")).json()
    assert [s["status"] for s in data["coverage"]["subrules"]] == [s.status for s in scry.subrules]


async def test_a_keyword_page_without_a_module_says_so(ds, report):
    bare = next((k for k in report.of_kind("keyword ability") if not k.module), None)
    if bare is None:
        pytest.skip("every keyword ability has a module")
    page = soup(await ds.client.get(bare.url))
    status = page.select_one("#coverage")
    assert "No module of the executable rules runs" in status.text
    assert all("missing" in li.text for li in status.select("li[data-subrule]"))


@pytest.mark.parametrize("value", ["", " ", "action ", "ACTION", "²", "\\", "%", "'; drop table rules; --", "ｘ" * 30,
                                   "🂡", "action&kind=ability"])
async def test_no_value_of_kind_or_only_gives_a_500(ds, value):
    from urllib.parse import quote

    for name in ("kind", "only", "_format"):
        response = await ds.client.get(f"/-/coverage?{name}={quote(value)}")
        assert response.status_code in (200, 400), (name, value, response.status_code)
