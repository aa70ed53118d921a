"""Oracle templates of the keyword actions 701.53–701.70 are read into the effects their modules carry out."""

from __future__ import annotations

import pytest

from executable_rules.engine.effects import HANDLERS
from executable_rules.oracle import parse_card

TEMPLATES = [
    ("Eyes of Gitaxias", "Incubate 3. (Create an Incubator token with three +1/+1 counters on it.)", "incubate"),
    ("Repeat Offender", "{2}{B}: If Repeat Offender is suspected, put a +1/+1 counter on it. Otherwise, suspect it.",
     "suspect"),
    ("Treetop Sentries", "When this creature enters, you may forage. If you do, draw a card.", "forage"),
    ("Sandskitter Outrider", "When this creature enters, it endures 2. (Put two +1/+1 counters on it.)", "endure"),
    ("Test Detective", "When this creature enters, you may collect evidence 4.", "collect_evidence"),
    ("Test Hobbit", "When this creature enters, the Ring tempts you.", "ring_tempts"),
    ("Test Doctor", "Time travel.", "time_travel"),
    ("Test Blighter", "When this creature enters, you may blight 1.", "blight"),
    ("Test Recruiter", "Recruit.", "recruit"),
    ("Test Monk", "Airbend target creature.", "airbend"),
    ("Test Relic", "{T}: Harness this artifact.", "harness"),
    ("Analyze the Pollen", "Search your library for a basic land card. If evidence was collected, instead search your "
     "library for a creature or land card. Reveal that card, put it into your hand, then shuffle.", "search_instead"),
]


@pytest.mark.parametrize("name,text,effect", TEMPLATES, ids=[t[2] for t in TEMPLATES])
def test_template_is_read_and_carried_out(name, text, effect):
    abilities = parse_card(name, text).abilities
    assert [a.kind for a in abilities] != ["unparsed"], text
    assert effect in abilities[0].effects
    assert effect in HANDLERS


def test_the_ring_tempts_you_is_read_in_any_case():
    assert parse_card("X", "The Ring tempts you.").abilities[0].effects == ("ring_tempts",)
