"""The text memo (kb.load.text_memo) answers what the functions themselves answer, and other code misses."""

from kb.cache import Cache
from kb.load.ruling_links import _remembering_functions
from kb.load.text_memo import TextMemo
from kb.ruling_links import topics
from kb.ruling_links.functions import TextFunctions

TEXTS = ["If Glorious Anthem leaves the battlefield, creatures get -1/-1 no longer.",
         "Deathtouch applies to any damage, not just combat damage.", "A ward ability triggers when it becomes the target."]


def _answers(functions: TextFunctions) -> list:
    return [(functions.template_rule(t), functions.card_topics(t), functions.ruling_topics(t), functions.english_terms(t))
            for t in TEXTS]


def test_the_memo_gives_the_functions_answers(tmp_path):
    before = (topics.template_rule, topics.card_topics, topics.ruling_topics)
    direct = _answers(TextFunctions())
    for round_ in range(2):
        memo = TextMemo(Cache(tmp_path), "t", ("kb.ruling_links.topics",))
        assert _answers(_remembering_functions(memo)) == direct
        # the second build reads every answer the first stored (four functions, each text once)
        assert (memo.used, memo.added) == ((4 * len(TEXTS), 0) if round_ else (0, 4 * len(TEXTS)))
        memo.store()
    # the functions themselves are left as they are: nothing is patched
    assert (topics.template_rule, topics.card_topics, topics.ruling_topics) == before
    assert TextFunctions().template_rule is topics.template_rule
    other = TextMemo(Cache(tmp_path), "t", ("kb.ruling_links.text",))
    assert other.answers == {}
