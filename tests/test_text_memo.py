"""The text memo (kb.load.text_memo) answers what the functions themselves answer, and other code misses."""

from kb.cache import Cache
from kb.load.text_memo import TextMemo
from kb.ruling_links import topics

TEXTS = ["If Glorious Anthem leaves the battlefield, creatures get -1/-1 no longer.",
         "Deathtouch applies to any damage, not just combat damage.", "A ward ability triggers when it becomes the target."]


def test_the_memo_gives_the_functions_answers(tmp_path):
    direct = [(topics.template_rule(t), topics.card_topics(t)) for t in TEXTS]
    targets = [("kb.ruling_links.topics", "template_rule", lambda v: v, lambda v: v),
               ("kb.ruling_links.topics", "card_topics", lambda v: tuple(sorted(v)), frozenset)]
    for round_ in range(2):
        memo = TextMemo(Cache(tmp_path), "t", ("kb.ruling_links.topics",))
        with memo.patched(targets):
            got = [(topics.template_rule(t), topics.card_topics(t)) for t in TEXTS]
        assert got == direct
        assert (memo.used, memo.added) == ((2 * len(TEXTS), 0) if round_ else (0, 0))
    assert topics.template_rule.__module__ == "kb.ruling_links.topics" and not hasattr(topics.template_rule, "__wrapped__") or \
        topics.template_rule.__wrapped__.__name__ == "template_rule"
    other = TextMemo(Cache(tmp_path), "t", ("kb.ruling_links.text",))
    assert other.answers == {}
