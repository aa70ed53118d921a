"""The ruling linker on the built database: floors against the hand-labelled rulings, evidence, lineage, display.

The floors are the quality measured when the linker was last tuned (bench/bench_ruling_links.py
prints the figures, round 7 on 349 labels: tune half precision 96.4 %, wiki linked 75.6 %, card
linked 82.3 %, recall 66.8 %; frozen half 92.7 %, 72.0 %, 50.4 %, 40.6 %; round 7's held-out draw alone
88.0 % precise, 55.6 % linked; round 8 added a held-out draw of 72, 13 applying no rule, measured before
any change at 80.0 % precise and 47.5 % linked, which took the frozen half to 89.3 % precise and 49.5 %
linked), a few points under, each half its own, so
that a change making the links worse fails here. The linker puts precision before coverage (no
link rather than a wrong one), and the issue's targets (precision 90 %, 90 % of wiki and 80 % of
card rulings linked) are not reached by the lexical linker yet: ``test_issue_targets`` is an
expected failure that will pass (and so fail as strict) the day they are.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from click.testing import CliRunner

from kb.cli import cli
from kb.ruling_links import Linker, Ruling, RuleIndex
from kb.ruling_links.evaluate import LABELS, evaluate, load_labels, stored_links

HOWS = {"cited", "template", "keyword+similarity", "topic+similarity", "similarity", "parent"}
FLOORS = {
    "tune": {"precision": 0.93, "wiki linked": 0.72, "card linked": 0.79, "recall": 0.64},
    "frozen": {"precision": 0.87, "wiki linked": 0.68, "card linked": 0.47, "recall": 0.35},
}
# round 7's held-out draw (seed 20261205, all frozen) alone: 25 links, 22 right; 25 of 45 rulings linked
# round 8's (seed 20261202, all frozen, 59 applying a rule): 30 links, 24 right; 28 of 59 linked
# round 9's (seed 20261206, all frozen, 32 applying a rule): 18 links, 15 right; 17 of 32 linked
DRAW_FLOORS = {20261205: {"precision": 0.84, "card linked": 0.51}, 20261202: {"precision": 0.76, "card linked": 0.44},
               20261206: {"precision": 0.80, "card linked": 0.50}}


@pytest.fixture(scope="module")
def scores(kb_db):
    release, labels = load_labels()
    return evaluate(kb_db.conn, labels, release, lambda kind, rid: stored_links(kb_db.conn, kind, rid))


def test_labels_are_many_and_name_real_rules(kb_db):
    release, labels = load_labels()
    assert sum(l.kind == "wiki" for l in labels) >= 50 and sum(l.kind == "card" for l in labels) >= 285
    assert sum(l.draw == 20261205 for l in labels) >= 40 and sum(l.draw == 20261202 for l in labels) >= 60
    assert {l.split for l in labels} == {"tune", "frozen"}
    assert sum(l.split == "frozen" for l in labels) >= len(labels) // 4
    numbers = {n for (n,) in kb_db.execute("select number from rules where lang = 'en' and release = ?", [release])}
    assert [n for l in labels for n in l.rules + l.also if n not in numbers] == []
    # a label with no rules says so: the ruling applies only its card's own wording
    assert all(l.rules or l.note.startswith("none applies") for l in labels)


def test_every_labelled_ruling_is_in_the_database(scores):
    missing = [l.key for s in scores.values() for l in s.missing]
    assert missing == []


@pytest.mark.parametrize("split", ["tune", "frozen"])
def test_quality_floors(scores, split):
    everything, wiki, card = scores[("all", split)], scores[("wiki", split)], scores[("card", split)]
    floors = FLOORS[split]
    assert everything.precision >= floors["precision"], everything.line()
    assert everything.recall >= floors["recall"], everything.line()
    assert wiki.linked_share >= floors["wiki linked"], wiki.line()
    assert card.linked_share >= floors["card linked"], card.line()


@pytest.mark.parametrize("seed", sorted(DRAW_FLOORS))
def test_quality_floors_of_a_held_out_draw(kb_db, seed):
    release, labels = load_labels()
    drawn = [l for l in labels if l.draw == seed]
    assert {l.split for l in drawn} == {"frozen"}  # held out whole
    card = evaluate(kb_db.conn, drawn, release, lambda kind, rid: stored_links(kb_db.conn, kind, rid))[("card", "frozen")]
    assert card.precision >= DRAW_FLOORS[seed]["precision"], card.line()
    assert card.linked_share >= DRAW_FLOORS[seed]["card linked"], card.line()


def test_the_round_7_draw_is_made_again_by_its_seed(kb_db):
    """The labelled rulings of draw 20261205 are rulings bench/draw_ruling_labels.py draws with that seed (58
    drawn, 13 of them left out as applying only their card's own wording), spread over 58 keyword strata."""
    import importlib.util
    from pathlib import Path

    path = Path(LABELS).parents[1] / "bench" / "draw_ruling_labels.py"
    spec = importlib.util.spec_from_file_location("draw_ruling_labels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    drawn = module.draw(kb_db.conn, 20261205, 58, redraw=20261205)
    assert len({stratum for stratum, *_ in drawn}) == 58
    _, labels = load_labels()
    labelled = {l.key for l in labels if l.draw == 20261205}
    assert len(labelled) == 45 and labelled <= {(card, day, text) for _, card, day, text in drawn}


@pytest.mark.xfail(strict=True, reason="issue 13's targets are not met by the lexical linker (see the README)")
def test_issue_targets(scores):
    merged = [scores[("all", s)] for s in ("tune", "frozen")]
    links = sum(s.links for s in merged)
    precision = sum(s.correct_links for s in merged) / links
    wiki = sum(scores[("wiki", s)].linked for s in ("tune", "frozen")) / sum(scores[("wiki", s)].rulings for s in ("tune", "frozen"))
    card = sum(scores[("card", s)].linked for s in ("tune", "frozen")) / sum(scores[("card", s)].rulings for s in ("tune", "frozen"))
    assert precision >= 0.90 and wiki >= 0.90 and card >= 0.80


def test_a_cited_number_is_read_in_its_release_and_followed_to_today(kb_db):
    index = RuleIndex(kb_db.conn, *_newest(kb_db))
    linker = Linker(index)
    # In 20240202 Discover was 701.55; today 701.55 is Face a Villainous Choice.
    decision = linker.link(Ruling("See rule 701.55c.", "en", cite_in=(("en", "20240202"),)))
    assert [(link.number, link.how, link.cited) for link in decision.links][:1] == [("701.57c", "cited", "701.55c")]
    decision = linker.link(Ruling("See rule 999.99z.", "en"))
    assert decision.unresolved == ["999.99z"]


def test_the_page_keyword_narrows_the_candidates(kb_db):
    index = RuleIndex(kb_db.conn, *_newest(kb_db))
    linker = Linker(index)
    text = "効果によってプレイヤーがゲームの外部からカードを探す場合、そのプレイヤーはゲームの外部にあり自分が所有していて該当するカードを選ぶことができる。"
    from kb.japanese import search_form

    decision = linker.link(Ruling(text, "ja", search_form(text), ("Search",)))
    assert [(link.number, link.how) for link in decision.links] == [("701.23j", "keyword+similarity")]


def test_a_card_ruling_about_other_text_gets_no_keyword_link(kb_db):
    """A card's keyword does not pull in its definition for a ruling that shares nothing with the
    keyword's rules (the card's other text, a general rule): no link rather than a wrong one."""
    index = RuleIndex(kb_db.conn, *_newest(kb_db))
    linker = Linker(index)
    ruling = Ruling("This card is put directly into your hand. It is not drawn.", "en", None, ("Search",),
                    definition_fallback=False)
    decision = linker.link(ruling)
    assert not [link for link in decision.links if link.number.startswith("701.23")]
    # on the keyword's own wiki page the same kind of ruling applies the definition
    wiki = Ruling("Search: look at all the cards and find a card that matches the description.", "en", None,
                  ("Search",))
    assert [link.number for link in linker.link(wiki).links] == ["701.23a"]


def test_a_card_ruling_in_a_rules_template_is_linked_to_that_rule(kb_db):
    """Gatherer's templated wordings name their rule outright, ahead of the card's keyword."""
    linker = Linker(RuleIndex(kb_db.conn, *_newest(kb_db)))
    text = ("Some spells that instruct you to surveil require targets. If all of those targets become illegal,"
            " the spell doesn't resolve and you won't surveil.")
    decision = linker.link(Ruling(text, "en", None, ("Surveil",), use_topics=True))
    assert [(link.number, link.how) for link in decision.links] == [("608.2b", "template")]
    # a wiki ruling in the same wording (a keyword page's, no card topics) applies the same rule
    assert [(link.number, link.how) for link in linker.link(Ruling(text, "en", None, ("Surveil",))).links] == [
        ("608.2b", "template")]


def test_round_7_templates_tell_apart_what_a_source_leaving_early_does():
    """"If [it] leaves the battlefield before its ability resolves": nothing exiled "until" it leaves (610.3b),
    the last known information used (608.2h), the ability still working without its source (113.7a);
    and the APNAP choices made as a spell resolves (101.4). Corpus rulings, not labelled ones."""
    from kb.ruling_links.topics import template_rule

    cases = {
        "If Journey to Oblivion leaves the battlefield before its triggered ability resolves, the target permanent"
        " won't be exiled.": "610.3b",
        "If Syr Faren leaves the battlefield before its triggered ability resolves, use its power as it last existed"
        " on the battlefield to determine the value of X.": "608.2h",
        "If Sunflare Shaman leaves the battlefield before its ability resolves, it will still deal damage to the"
        " target.": "113.7a",
        "As Taste of Death resolves, first the player whose turn it is chooses three creatures they control, then"
        " each other player in turn order does the same.": "101.4",
        "If you cast a spell \"without paying its mana cost,\" you can't pay any alternative costs.": "118.9a",
        "If Vantress Gargoyle attacks a planeswalker, the controller of that planeswalker is the defending player.": "508.5",
        "When Slashing Tiger becomes blocked, the ability will trigger just once no matter how many creatures are"
        " blocking it.": "603.2c",
    }
    assert {text: template_rule(text) for text in cases} == cases
    # another object leaving, or a control change that never starts, is not 113.7a
    assert template_rule("If a Dragon entering the battlefield causes Dragon Tempest's second ability to trigger but"
                         " leaves the battlefield before that ability resolves, that Dragon still deals damage.") != "113.7a"
    assert template_rule("If Opportunistic Dragon leaves the battlefield before its triggered ability resolves, your"
                         " opponent keeps control of their Human or artifact, it still has its abilities.") != "113.7a"


def test_renamed_terms_meet_the_rule_in_todays_words():
    from kb.ruling_links.text import english_terms

    old = english_terms("The converted mana cost of the card that comes into play")
    new = english_terms("The mana value of the card that enters")
    assert old == new
    assert english_terms("it is put into its owner's graveyard from the battlefield") == english_terms("it dies")


def test_a_card_with_several_keywords_is_narrowed_to_those_its_ruling_names(kb_db):
    linker = Linker(RuleIndex(kb_db.conn, *_newest(kb_db)))
    both = linker.link(Ruling("After the search is complete, the entire library is shuffled.", "en", None,
                              ("Search", "Shuffle"), use_topics=True))
    # "search" names Search only: its subrules alone are the candidates, so Shuffle's can't be linked
    assert not [link for link in both.links if link.number.startswith("701.24")]
    # a card with no keyword: the keyword its ruling names narrows it (madness, 702.35)
    amalgam = linker.link(Ruling("A card cast using its madness ability is cast from exile, not from your graveyard.",
                                 "en", None, (), use_topics=True))
    assert [link.number[:6] for link in amalgam.links] == ["702.35"]


def test_a_japanese_ruling_in_a_rules_wording_is_linked_to_that_rule_not_the_keyword(kb_db):
    """On a keyword's page (占術, a page the corpus does not have), a ruling about targets or the order of
    a spell's instructions applies 608.2b / 608.2c, not the keyword's short subrule 701.22b."""
    from kb.japanese import search_form

    linker = Linker(RuleIndex(kb_db.conn, *_newest(kb_db)))
    cases = {"占術を持つ呪文の対象がすべて不正な対象になっていた場合、その呪文は解決されず、占術は行われない。": "608.2b",
             "呪文や能力は、書かれている順序に従って解決する。占術が文章の途中にあれば、その段階で占術を行う。": "608.2c"}
    for text, number in cases.items():
        decision = linker.link(Ruling(text, "ja", search_form(text), ("Scry",), subjects=("Scry",)))
        assert [(link.number, link.how) for link in decision.links] == [(number, "template")], text
    # a ruling about the keyword itself still gets the keyword's rule
    text = "占術0を行う場合、占術を行ったことにはならず、占術を行ったときに誘発する能力は誘発しない。"
    zero = linker.link(Ruling(text, "ja", search_form(text), ("Scry",), subjects=("Scry",)))
    assert [link.number for link in zero.links] == ["701.22b"]


def test_a_card_ruling_naming_a_topic_of_its_card_finds_that_rule(kb_db):
    """The card's text (face-down, a token) and the ruling's words narrow the candidates to a few
    general rules; the most similar of them is linked."""
    from kb.ruling_links.topics import card_topics

    linker = Linker(RuleIndex(kb_db.conn, *_newest(kb_db)))
    card = card_topics("Morph {2}{U}\nWhen this creature is turned face up, draw a card.")
    assert "face-down" in card and "triggered" in card
    text = "A face-down permanent is a 2/2 creature with no text, no name, no subtypes, and no mana cost."
    decision = linker.link(Ruling(text, "en", None, (), card_topics=card, use_topics=True))
    # 708.2a says it of every face-down permanent, 702.37a of a morph: either is the rule applied
    assert [link.how for link in decision.links] == ["topic+similarity"]
    assert decision.links[0].number in {"708.2a", "702.37a"}
    # the same words on a card with nothing face-down name no topic of the card's: asked more of
    assert "face-down" not in card_topics("Flying")
    # a ruling that names no topic and no keyword stays unlinked
    assert linker.link(Ruling("This is a rather nice card.", "en", None, (), card_topics=card,
                              use_topics=True)).links == []


def test_a_page_about_no_keyword_is_narrowed_by_its_subject(kb_db):
    """宝物/Treasure is no keyword: the few rules that name Treasure are its candidates."""
    from kb.japanese import search_form

    linker = Linker(RuleIndex(kb_db.conn, *_newest(kb_db)))
    text = "効果が「宝物・トークンを生成する」場合、無色の宝物・アーティファクト・トークンを生成する。"
    decision = linker.link(Ruling(text, "ja", search_form(text), ("Treasure",), subjects=("Treasure",)))
    assert [link.number for link in decision.links] == ["111.10a"]


def test_the_best_subrule_of_the_keyword_not_its_neighbour(kb_db):
    index = RuleIndex(kb_db.conn, *_newest(kb_db))
    linker = Linker(index)
    text = ("If a player is searching a hidden zone for cards with a stated quality, they don't have to"
            " find those cards even if they're there.")
    assert [link.number for link in linker.link(Ruling(text, "en", None, ("Search",))).links] == ["701.23b"]


def test_links_have_a_newest_row_and_a_written_row_through_the_lineage(kb_db):
    newest = _newest(kb_db)[0]
    rows = kb_db.execute(
        "select n.number, w.release, w.number from card_ruling_rules n join card_ruling_rules w"
        " on w.card_ruling_id = n.card_ruling_id and w.lineage_id = n.lineage_id and w.role = 'written'"
        " where n.role = 'newest' and n.release = ? and w.number != n.number", [newest]).fetchall()
    # a ruling written when Search or Explore had another number shows on today's number
    assert rows, "no link written for an older number of its rule"
    for number, release, old in rows[:50]:
        lineage = kb_db.execute("select count(distinct lineage_id) from rule_lineage where lang = 'en' and"
                                " ((release = ? and number = ?) or (release = ? and number = ?))",
                                [newest, number, release, old]).fetchone()[0]
        assert lineage == 1


def test_unlinked_rulings_are_listed_as_problems(kb_db):
    unlinked = kb_db.execute("select count(*) from card_rulings where linked_rules is null").fetchone()[0]
    unlinked += kb_db.execute("select count(*) from rulings where linked_rules is null and text != ''").fetchone()[0]
    problems = kb_db.execute("select count(*) from ingest_problems where code = 'ruling-not-linked'").fetchone()[0]
    assert unlinked == problems > 0
    message = kb_db.execute("select message from ingest_problems where code = 'ruling-not-linked' limit 1").fetchone()[0]
    assert "is linked to no rule" in message


def test_linked_rules_column_agrees_with_the_link_table(kb_db):
    for ruling_id, linked in kb_db.execute("select id, linked_rules from rulings where linked_rules is not null"):
        stored = [n for (n,) in kb_db.execute("select number from ruling_rules where ruling_id = ? and role = 'newest'"
                                              " order by id", [ruling_id])]
        assert json.loads(linked) == list(dict.fromkeys(stored))


def test_kb_rulings_lists_wiki_and_card_rulings_with_how(built_db):
    result = CliRunner().invoke(cli, ["rulings", "Discover", "--json", "--db", str(built_db)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["number"] == "701.57" and data["total"] >= 5
    wiki = [r for r in data["rulings"] if r["kind"] == "wiki"]
    assert any(r["page_title"] == "発見" for r in wiki)
    assert all(link["how"] in HOWS for r in data["rulings"] for link in r["links"])
    text = CliRunner().invoke(cli, ["rulings", "701.57a", "--db", str(built_db)])
    assert text.exit_code == 0 and "rulings linked to 701.57a" in text.output
    bad = CliRunner().invoke(cli, ["rulings", "Notakeyword", "--db", str(built_db)])
    assert bad.exit_code == 1 and "neither a rule number" in bad.output


async def test_rule_page_lists_rulings_with_how_they_were_linked(ds):
    data = (await ds.client.get("/-/rules/701.57.json")).json()
    linked = [r for r in data["rulings"] if r.get("linked_number")]
    assert linked and all(r["how"] in HOWS for r in linked)
    assert any(r["page_title"] == "発見" for r in linked)
    page = await ds.client.get("/-/rules/701.57")
    assert page.status_code == 200 and "keyword+similarity" in page.text


async def test_datasette_facets_rulings_by_rule(ds, db_name):
    for table in ("rulings", "card_rulings"):
        data = (await ds.client.get(f"/{db_name}/{table}.json?_size=0")).json()
        assert "linked_rules" in data["facet_results"], table
        values = {v["value"] for v in data["facet_results"]["linked_rules"]["results"]}
        assert values and all(v[:3].isdigit() for v in values)


def test_labels_file_is_valid_toml():
    data = tomllib.loads(LABELS.read_text(encoding="utf-8"))
    assert data["release"].isdigit()


def _newest(kb_db) -> tuple[str, str]:
    en = kb_db.execute("select max(release) from releases where lang = 'en' and completeness = 'whole'").fetchone()[0]
    ja = kb_db.execute("select max(release) from releases where lang = 'ja' and completeness = 'whole'").fetchone()[0]
    return en, ja


def test_many_at_once_decides_as_one_at_a_time(kb_db):
    from kb.load.ruling_links import card_rulings, wiki_rulings

    index = RuleIndex(kb_db.conn, *_newest(kb_db))
    linker = Linker(index)
    items = [i["ruling"] for i in card_rulings(kb_db, index)][:300] + [i["ruling"] for i in wiki_rulings(kb_db)]
    many = [[(link.number, link.how, link.score) for link in d.links] for d in linker.link_many(items, batch=128)]
    one = [[(link.number, link.how, link.score) for link in linker.link(r).links] for r in items]
    assert many == one and any(many)


async def test_a_ruling_row_links_back_to_its_rules(ds, db_name, kb_db):
    ruling_id, linked = kb_db.execute("select id, linked_rules from rulings where linked_rules is not null"
                                      " order by id limit 1").fetchone()
    number = json.loads(linked)[0]
    page = await ds.client.get(f"/{db_name}/rulings/{ruling_id}")
    assert page.status_code == 200 and f'/-/rules/{number}"' in page.text


def test_a_keyword_page_ruling_nearer_another_subrule_does_not_get_the_definition(kb_db):
    """探す's ruling about public and hidden zones is nearer 701.23b than the definition 701.23a
    without 701.23b standing out: no link rather than the keyword's definition (round 4 linked
    701.23a, wrong); a ruling the definition is as near as any subrule still gets it."""
    from kb.japanese import search_form
    from kb.ruling_links import linker as linker_module

    index = RuleIndex(kb_db.conn, *_newest(kb_db))
    linker = Linker(index)
    text = "このルールが適用されるか否かは「その領域が公開領域か非公開領域か」で判断するのであって、「そのカードが公開されているどうか」で判断するのではない。"
    decision = linker.link(Ruling(text, "ja", search_form(text), ("Search",)))
    assert "701.23a" not in [link.number for link in decision.links]
    assert linker_module.PAGE_DEFINITION_SHARE > 0
    wiki = Ruling("Search: look at all the cards and find a card that matches the description.", "en", None,
                  ("Search",))
    assert [link.number for link in linker.link(wiki).links] == ["701.23a"]


def test_a_wiki_ruling_whose_page_gives_no_keyword_is_narrowed_by_the_keyword_it_names(kb_db, monkeypatch):
    """Round 8: a diff view cut above its page's lead (諜報's ``diff=next``) has no page keyword; with
    ``WIKI_NAMED_AS_CONTEXT`` its rulings are narrowed by the keyword they name, as a card ruling's named keyword
    does. Off by default (precision first: on the unseen pages it linked 7 more, 2 right): no link then."""
    import kb.ruling_links.linker as linker_module
    from kb.japanese import search_form
    from kb.load.ruling_links import _Releases

    releases = _Releases(kb_db.conn)
    index = RuleIndex(kb_db.conn, releases.newest_en, releases.newest_ja)
    text = "諜報を行う際、見たカードはすべて墓地に置いてもよく、すべてライブラリーの一番上に望む順番で置いてもよい。"
    ruling = Ruling(text, "ja", search_form(text))
    assert Linker(index).link(ruling).links == []
    monkeypatch.setattr(linker_module, "WIKI_NAMED_AS_CONTEXT", True)
    assert [link.number for link in Linker(index).link(ruling).links] == [index.keyword("Surveil").number + "a"]


def test_a_card_ruling_naming_a_cr_sections_concept_finds_that_sections_rule(kb_db):
    """Round 9: a ruling about a dungeon, day and night or a Two-Headed Giant game, on a card with no keyword
    for it, has that CR section's rules as candidates (kb.ruling_links.topics.SECTION_TOPICS), asked more
    similarity than a general topic's; a ruling naming no such concept is decided as before."""
    from kb.ruling_links.topics import SECTION_MIN, card_topics, ruling_topics

    linker = Linker(RuleIndex(kb_db.conn, *_newest(kb_db)))
    cases = {
        "Dungeon cards aren't part of your deck or sideboard; they begin outside the game.": "309.2",
        "If it's day and the previous turn's active player cast no spells during that turn, it becomes night.": "731.2a",
        "In a Two-Headed Giant game, if either player on a team loses the game, the whole team loses.": "810.8a",
    }
    card = card_topics("When this creature enters, venture into the dungeon.")
    assert "dungeons" in card
    for text, number in cases.items():
        assert any(t.min_similarity == SECTION_MIN for t in ruling_topics(text)), text
        decision = linker.link(Ruling(text, "en", None, (), card_topics=card, use_topics=True))
        assert [(link.number, link.how) for link in decision.links] == [(number, "topic+similarity")], text
    # the same words with the section's concept left out name no section, and find no link by it
    plain = "Cards aren't part of your deck or sideboard; they begin outside the game."
    assert not any(t.min_similarity == SECTION_MIN for t in ruling_topics(plain))
    assert all(link.how != "topic+similarity"
               for link in linker.link(Ruling(plain, "en", None, (), card_topics=card, use_topics=True)).links)


def test_the_round_9_draw_is_made_again_by_its_seed(kb_db):
    """The 40 labelled rulings of draw 20261206 (8 applying no CR rule, kept with ``rules = []``) are the 40
    that bench/draw_ruling_labels.py draws with that seed, once every earlier batch is labelled."""
    import importlib.util
    from pathlib import Path

    path = Path(LABELS).parents[1] / "bench" / "draw_ruling_labels.py"
    spec = importlib.util.spec_from_file_location("draw_ruling_labels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    drawn = module.draw(kb_db.conn, 20261206, 40, redraw=20261206)
    _, labels = load_labels()
    labelled = {l.key for l in labels if l.draw == 20261206}
    assert len(labelled) == 40 and labelled == {(card, day, text) for _, card, day, text in drawn}
    assert sum(1 for l in labels if l.draw == 20261206 and not l.rules) == 8
