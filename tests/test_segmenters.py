"""The Chinese and Korean segmenters: the words search compares, and safe under Datasette's threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from kb import chinese, korean

CHINESE_TEXTS = [
    "倾探N是指从你的牌库顶开始放逐牌，直到放逐一张法术力值等于或小于N的非地牌为止。",
    "于此异能结算时，其操控者派出一个塔莫耶夫衍生物。",
    "要搜寻某区域中的牌，须查看该区域中所有的牌，然后找出符合描述的牌。",
] * 20
KOREAN_TEXTS = [
    "어떤 구역에서 카드를 찾는 것은, 그 구역의 모든 카드를 보고 주어진 설명과 일치하는 카드를 찾는 것을 의미합니다.",
    "전투피해단 시작에, 액티브 팀은 어떻게 공격 생물이 자신의 전투 피해를 배분할 것인지 선언합니다.",
] * 20


@pytest.mark.parametrize("module, texts", [(chinese, CHINESE_TEXTS), (korean, KOREAN_TEXTS)])
def test_same_forms_from_many_threads(module, texts):
    expected = [module.search_form(t) for t in texts]
    with ThreadPoolExecutor(8) as pool:
        forms = list(pool.map(module.search_form, texts))
        queries = list(pool.map(module.segment_query, texts))
    assert forms == expected
    assert queries == [module.segment_query(t) for t in texts]


def test_chinese_query_words_are_in_the_text_form():
    form = chinese.search_form(CHINESE_TEXTS[2]).split()
    for phrase in chinese.segment_query("搜寻牌"):
        assert any(" ".join(form[i:i + len(p.split())]) == p
                   for alternative in chinese.phrase_alternatives(phrase) for p in [alternative]
                   for i in range(len(form)))


def test_korean_inflections_fold_to_one_key():
    assert korean.segment_query("찾기") == korean.segment_query("찾는다") == ["찾다"]
    assert "찾다" in korean.search_form("카드를 찾습니다").split()
