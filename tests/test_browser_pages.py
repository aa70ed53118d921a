"""End to end in a real browser: keyword and rule pages, running scenarios, the discover form.

Screenshots for a reviewer go to test-artifacts/ (git-ignored): the rule page, a keyword page after a
scenario ran in it, an explored resolution, a form run and a bad form.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser


def test_keyword_page_switch_language_and_run_a_scenario(page, live_server, artifacts):
    page.goto(f"{live_server}/-/keywords/{quote('発見')}")
    assert page.inner_text("h1 [lang=en]") == "Discover"
    english = page.locator("#definition .kb-row[id='701.57a'] .kb-en")
    japanese = page.locator("#definition .kb-row[id='701.57a'] .kb-ja")
    assert english.is_visible() and japanese.is_visible()

    page.click(".kb-lang-switch a[data-show=ja]")
    assert japanese.is_visible() and not english.is_visible()
    assert "show=ja" in page.url  # the address says so, for sharing
    page.click(".kb-lang-switch a[data-show=en]")
    assert english.is_visible() and not japanese.is_visible()
    page.click(".kb-lang-switch a[data-show=both]")
    assert english.is_visible() and japanese.is_visible()

    item = page.locator("#scenario-discover-701\\.57a-cast-first-fit")
    item.locator("button.kb-run-button").click()
    verdict = item.locator(".kb-run-result .kb-verdict")
    verdict.wait_for()
    assert verdict.inner_text().startswith("PASS")
    assert "/-/keywords/" in page.url  # ran in place, without leaving the page
    steps = item.locator(".kb-run-result ol.kb-steps > li")
    assert steps.count() == 8
    assert "cast Shock" in steps.nth(3).inner_text()
    item.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "keyword-discover-after-run.png"), full_page=True)


def test_rule_page_screenshot(page, live_server, artifacts):
    page.goto(f"{live_server}/-/rules/701.57")
    assert page.inner_text("h1 .kb-en") == "Discover"
    assert page.inner_text("h1 .kb-ja") == "発見を行う"
    assert page.locator(".kb-rows .kb-row[id]").count() == 4
    page.screenshot(path=str(artifacts / "rule-701.57.png"), full_page=True)
    # A subrule's anchor highlights its row.
    page.click(".kb-row[id='701.57c'] .kb-en a.kb-anchor")
    assert page.url.endswith("#701.57c")


def test_explored_resolution(page, live_server, artifacts):
    page.goto(f"{live_server}/-/scenarios/discover-701.57a-cast-or-hand-never-neither")
    assert page.inner_text(".kb-verdict").startswith("PASS")
    leaves = page.locator("ul.kb-tree > li")
    assert leaves.count() == 2
    for i in range(2):
        leaves.nth(i).locator("details.kb-outcome summary").click()
    # Both stay open (Datasette's own script would close the first when the second is opened).
    assert all(leaves.nth(i).locator("details.kb-outcome").get_attribute("open") is not None for i in range(2))
    assert "Grizzly Bears" in leaves.nth(1).locator("details.kb-outcome").inner_text()
    page.screenshot(path=str(artifacts / "resolution-discover-every-choice.png"), full_page=True)


def test_run_discover_on_my_library(page, live_server, artifacts):
    page.goto(f"{live_server}/-/run/discover")
    page.fill("input[name=n]", "3")
    page.fill("textarea[name=library]", "Forest\nDarksteel Colossus\nショック\nIsland")
    page.fill("textarea[name=opponent]", "Grizzly Bears")
    page.check("input[name=mode][value=explore]")
    page.click("form.kb-run button[type=submit]")
    page.wait_for_selector(".kb-resolution")
    assert page.locator("details.kb-outcome").count() == 4
    assert "cast Shock: 3; put Shock into hand: 1" in page.inner_text(".kb-resolution")
    page.screenshot(path=str(artifacts / "run-discover-form.png"), full_page=True)


def test_bad_form_shows_the_error(page, live_server, artifacts):
    page.goto(f"{live_server}/-/run/discover")
    page.fill("input[name=n]", "3")
    page.fill("textarea[name=library]", "Forest\nLightnig Bolt")
    with page.expect_response(lambda r: "/-/run/discover?" in r.url) as answer:
        page.click("form.kb-run button[type=submit]")
    assert answer.value.status == 400
    error = page.locator(".kb-error")
    assert error.inner_text() == 'library line 2: unknown card "Lightnig Bolt"; did you mean "Lightning Bolt"?'
    assert "Traceback" not in page.content()
    # The form keeps what was typed, to correct it.
    assert page.input_value("textarea[name=library]") == "Forest\nLightnig Bolt"
    page.screenshot(path=str(artifacts / "run-discover-bad-form.png"), full_page=True)


def test_pages_work_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{live_server}/-/rules/701.57")
        page.click(".kb-lang-switch a[data-show=ja]")
        page.wait_for_url("**show=ja**")
        assert not page.locator(".kb-row[id='701.57a'] .kb-en").is_visible()
        page.locator("#scenario-discover-701\\.57a-cast-first-fit button.kb-run-button").click()
        page.wait_for_url("**/-/scenarios/discover-701.57a-cast-first-fit*")
        assert page.inner_text(".kb-verdict").startswith("PASS")
    finally:
        context.close()


def test_search_from_any_page(page, live_server, db_name):
    page.goto(f"{live_server}/{db_name}/cards")
    page.fill(".kb-nav-search input[name=q]", "木苺の使い魔")
    page.press(".kb-nav-search input[name=q]", "Enter")
    page.wait_for_selector(".kb-other-hits li")
    page.locator(".kb-other-hits a", has_text="木苺の使い魔").first.click()
    page.wait_for_url(f"**/{db_name}/cards/*")
    assert "Bramble Familiar" in page.content()


def test_board_view_steps_through_a_resolution(page, live_server, artifacts):
    """The board shows the zones before the first step; next / previous (and the arrow keys) walk it."""
    page.goto(f"{live_server}/-/scenarios/search-701.23b-splinter-howling-mine")
    board = page.locator("[data-kb-board]")
    frames = board.locator(".kb-board-frame")
    total = frames.count()
    assert total > 3
    visible = board.locator(".kb-board-frame:not([hidden])")
    assert visible.count() == 1 and visible.get_attribute("data-frame") == "0"
    assert "Howling Mine" in visible.inner_text() and "吠えたける鉱山" in visible.inner_text()
    board.locator("[data-kb-board-go=next]").click()
    assert visible.get_attribute("data-frame") == "1"
    assert board.locator("[data-kb-board-at]").inner_text() == "1"
    board.focus()
    page.keyboard.press("End")
    assert visible.get_attribute("data-frame") == str(total - 1)
    last = visible.inner_text()
    page.keyboard.press("ArrowLeft")
    assert visible.get_attribute("data-frame") == str(total - 2)
    page.keyboard.press("Home")
    assert visible.get_attribute("data-frame") == "0"
    page.keyboard.press("End")
    assert visible.inner_text() == last  # the last frame is the state after the last step
    # Every outcome of the explored tree says what sets it apart, even where two options read alike.
    summaries = page.locator("details.kb-outcome > summary").all_inner_texts()
    assert len(summaries) == len(set(summaries)) == 4
    board.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "board-splinter.png"), full_page=False)
