"""End to end in a real browser: search from the search page and from the table search box."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_search_page_finds_discover(page, live_server, artifacts):
    page.goto(f"{live_server}/-/search")
    page.fill("input[name=q]", "discover")
    page.select_option("select[name=lang]", "en")
    page.click("input[type=submit]")
    page.wait_for_selector("ol.kb-hits li")
    first = page.locator("ol.kb-hits li a").first
    assert first.inner_text().startswith("701.57")
    page.screenshot(path=str(artifacts / "search-discover.png"), full_page=True)
    first.click()
    page.wait_for_selector("h1")
    assert "Discover" in page.inner_text("h1")


def test_rules_table_search_box(page, live_server, db_name):
    page.goto(f"{live_server}/{db_name}/rules?release=20260116")
    page.fill("input[name=_search]", "villainous choice")
    page.press("input[name=_search]", "Enter")
    page.wait_for_selector("table.rows-and-columns")
    numbers = page.locator("td.col-number").all_inner_texts()
    assert "701.55a" in numbers
