"""The card page in a real browser: a misspelt name lands on the card, a keyword leads to its rule."""

from __future__ import annotations

from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser


def test_misspelt_card_then_keyword_to_its_rule(page, live_server, artifacts):
    page.goto(f"{live_server}/-/cards/{quote('Delver of Secret')}")
    assert page.locator("h1").inner_text().startswith("Delver of Secrets")
    assert "did you mean" in page.locator(".kb-note").inner_text()
    assert "昆虫变体" in page.content() and "秘密を掘り下げる者" in page.content()
    page.screenshot(path=str(artifacts / "card_page.png"), full_page=True)
    page.locator("a.kb-keyword", has_text="Flying").first.click()
    page.wait_for_load_state()
    assert "/-/rules/702.9" in page.url
    assert "Flying" in page.locator("h1").inner_text()


def test_card_by_chinese_name(page, live_server):
    page.goto(f"{live_server}/-/cards/{quote('闪电击')}")
    assert page.locator("h1").inner_text().startswith("Lightning Bolt")
    assert page.locator("#printings tr").count() > 10
