"""The "as long as …" conditions of static abilities, judged at this moment.

A static ability whose effect applies "as long as" a condition is true generates its continuous effect only while
the condition holds, and the condition is checked continually, not locked in when the permanent entered
(Handling Static Abilities — CR 604.1; Continuous Effects — CR 611.3a): Kird Ape is a 2/3 while you control a Forest and a
1/1 the moment you don't.

The conditions read here, as Oracle text words them:

- "you control a Forest", "you control an artifact or an enchantment", "you control no other creatures",
  "you control three or more artifacts", "an opponent controls a Swamp", "any player controls a black permanent",
  "a player controls …";
- "it has ten or more +1/+1 counters on it", "it entered the battlefield this turn";
- "~ is attacking" / "it's attacking", "it's blocking", "~ is untapped" / "tapped", "~ is equipped" / "enchanted",
  "it's your turn", "it's not your turn";
- "you have N or less life", "an opponent has N or less life", "you have N or more cards in hand",
  "N or more cards are in your graveyard" / "there are N or more … cards in your graveyard".

Anything else raises :class:`~executable_rules.errors.Unimplemented`, naming the condition: a scenario that
depends on it says so instead of passing with the effect silently off.

>>> from executable_rules.engine.game import new_game
>>> from executable_rules.engine.layers import characteristics
>>> from executable_rules.model import OracleCard, ZoneKind
>>> state = new_game(["you", "opponent"])
>>> ape = state.add_card(OracleCard.simple("Kird Ape", "{R}", "Creature", power="1", toughness="1",
...                      text="Kird Ape gets +1/+2 as long as you control a Forest."), "you", ZoneKind.BATTLEFIELD)
>>> c = characteristics(state, ape); (c.power, c.toughness)
(1, 1)
>>> forest = OracleCard.simple("Forest", None, "Land", subtypes=["Forest"], supertypes=["Basic"])
>>> _ = state.add_card(forest, "you", ZoneKind.BATTLEFIELD)
>>> c = characteristics(state, ape); (c.power, c.toughness)
(2, 3)
"""

from __future__ import annotations

import re

from ..errors import Unimplemented
from ..model import GameState, ZoneKind
from .selectors import number_value

_PLAYERS = r"(you|an opponent|any player|a player|no player|your opponents)"
_CONTROL = re.compile(rf"{_PLAYERS} controls? (no other |no |an? |(\w+) or more (other )?)?(.+)")
_LIFE = re.compile(r"(you|an opponent) ha(?:s|ve) (\w+) or (less|more) life")
_HAND = re.compile(r"you have (\w+) or more cards in (?:your )?hand")
_GRAVEYARD = re.compile(r"(?:there are )?(\w+) or more (.*?)cards? (?:are )?in your graveyard")
_COUNTERS = re.compile(r"(?:~|it) has (\w+) or more ([+-]\d+/[+-]\d+|\w+) counters? on it")
_SELF_STATE = re.compile(r"(?:~ is|it's|it is) (attacking|blocking|attacking or blocking|untapped|tapped|equipped"
                         r"|enchanted)")


def static_condition_holds(state: GameState, source: int, condition: str) -> bool:
    """Whether the "as long as" ``condition`` of a static ability of the permanent ``source`` holds now."""
    words = condition.strip().rstrip(".").replace("it’s", "it's")
    card = state.cards[source]
    controller = card.controller or card.owner
    opponents = [p.name for p in state.players if p.name != controller]
    if words in ("it's your turn", "it is your turn"):
        return state.active == controller
    if words in ("it's not your turn", "it isn't your turn"):
        return state.active != controller
    m = _SELF_STATE.fullmatch(words)
    if m:
        return _self_state(state, source, m.group(1))
    if words in ("it entered the battlefield this turn", "~ entered the battlefield this turn", "it entered this turn",
                 "~ entered this turn"):
        from ..model import EventKind
        return any(e.kind is EventKind.MOVE and e.destination == "battlefield" and source in e.cards
                   for e in state.events[state.turn_started:])
    m = _COUNTERS.fullmatch(words)
    if m:
        return card.counters.get(m.group(2), 0) >= _number(m.group(1), condition)
    m = _LIFE.fullmatch(words)
    if m:
        who = [controller] if m.group(1) == "you" else opponents
        n = _number(m.group(2), condition)
        lives = [state.player(p).life for p in who]
        return any(life <= n if m.group(3) == "less" else life >= n for life in lives)
    m = _HAND.fullmatch(words)
    if m:
        return len(state.player(controller).hand.cards) >= _number(m.group(1), condition)
    m = _GRAVEYARD.fullmatch(words)
    if m:
        kind = m.group(2).strip()
        cards = state.player(controller).graveyard.cards
        if kind:
            from .layers import TYPE_WORDS
            wanted = [TYPE_WORDS.get(k.strip()) for k in re.split(r" and/or | or ", kind)]
            if None in wanted:
                raise Unimplemented(f"the condition {condition!r}")
            cards = [c for c in cards if any(t in state.cards[c].oracle.types for t in wanted)]
        return len(cards) >= _number(m.group(1), condition)
    m = _CONTROL.fullmatch(words)
    if m:
        return _controls(state, source, controller, opponents, m, condition)
    raise Unimplemented(f"the condition {condition!r}")


def _number(word: str, condition: str) -> int:
    try:
        return number_value(word, 0)
    except (KeyError, ValueError):
        raise Unimplemented(f"the condition {condition!r}") from None


def _self_state(state: GameState, source: int, quality: str) -> bool:
    card = state.cards[source]
    if quality in ("tapped", "untapped"):
        return card.tapped == (quality == "tapped")
    if quality in ("equipped", "enchanted"):
        from ..actions.attach import attachments
        wanted = "Equipment" if quality == "equipped" else "Aura"
        return any(wanted in state.cards[a].oracle.subtypes for a in attachments(state, source))
    combat = state.combat
    if combat is None:
        return False
    attacking = any(state.is_current(ref) and ref.card == source for ref, _ in combat.attackers)
    blocking = any(state.is_current(ref) and ref.card == source for ref, _ in combat.blocks)
    return {"attacking": attacking, "blocking": blocking, "attacking or blocking": attacking or blocking}[quality]


def _controls(state: GameState, source: int, controller: str, opponents: list[str], m: re.Match[str],
              condition: str) -> bool:
    """"you control a Forest", "you control three or more artifacts", "any player controls a black permanent"."""
    from .layers import characteristics
    who, quantifier, count, other, what = m.group(1), m.group(2) or "", m.group(3), m.group(4), m.group(5)
    players = {"you": [controller], "an opponent": opponents, "your opponents": opponents,
               "any player": [p.name for p in state.players], "a player": [p.name for p in state.players],
               "no player": [p.name for p in state.players]}[who]
    others = quantifier.startswith("no other") or bool(other)
    alternatives = [a.strip().removeprefix("an ").removeprefix("a ") for a in re.split(r",? or ", what)]
    needed = _number(count, condition) if count else 1

    def fits(card_id: int, description: str) -> bool:
        ch = characteristics(state, card_id, statics=False)
        words = description.split()
        if words and words[-1] in ("creatures", "artifacts", "lands", "enchantments", "permanents", "planeswalkers"):
            words[-1] = words[-1][:-1]
        kind_word = words[-1] if words else "permanent"
        from .layers import COLOR_LETTERS, TYPE_WORDS
        kind = TYPE_WORDS.get(kind_word)
        subtype_match = kind_word.capitalize() in ch.subtypes or kind_word in ch.subtypes
        if kind is None and kind_word != "permanent" and not subtype_match:
            if kind_word[:1].isupper() or kind_word.endswith("s") and kind_word[:-1][:1].isupper():
                plural = kind_word.removesuffix("s")
                return plural in ch.subtypes
            raise Unimplemented(f"the condition {condition!r}")
        if kind is not None and kind not in ch.types:
            return False
        if kind is None and kind_word != "permanent" and not subtype_match:
            return False
        for adjective in words[:-1]:
            if adjective in COLOR_LETTERS:
                if COLOR_LETTERS[adjective] not in ch.colors:
                    return False
            elif adjective == "basic":
                if "Basic" not in ch.supertypes:
                    return False
            elif adjective in ("untapped", "tapped"):
                if state.cards[card_id].tapped != (adjective == "tapped"):
                    return False
            elif adjective in ("nontoken",):
                if state.cards[card_id].is_token:
                    return False
            elif adjective.startswith("non") and TYPE_WORDS.get(adjective[3:]):
                if TYPE_WORDS[adjective[3:]] in ch.types:
                    return False
            elif adjective.startswith("non") and adjective[3:] in COLOR_LETTERS:
                if COLOR_LETTERS[adjective[3:]] in ch.colors:
                    return False
            elif adjective[:1].isupper():          # "Human creature"
                if adjective not in ch.subtypes:
                    return False
            else:
                raise Unimplemented(f"the condition {condition!r}")
        return True

    count_found = sum(1 for p in state.permanents() if (p.controller in players)
                      and not (others and p.id == source) and state.zone_of(p.id).kind is ZoneKind.BATTLEFIELD
                      and any(fits(p.id, a) for a in alternatives))
    if quantifier.startswith("no") or who == "no player":
        return count_found == 0
    return count_found >= needed
