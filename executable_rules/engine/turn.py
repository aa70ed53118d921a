"""Priority and the steps of a turn (Turn Structure — CR 500.1): enough to play a turn out.

:func:`resolve_stack` is every player passing priority in succession until the stack is empty
(Timing and Priority — CR 117.4, Resolving Spells and Abilities — CR 608.1): before each time a player would
receive priority, state-based actions are checked (State-Based Actions — CR 704.3) and waiting triggered
abilities are put on the stack (Handling Triggered Abilities — CR 603.3).

:func:`pass_to` moves the game to a step (``"beginning of combat"``, ``"end step"``, ``"draw step"`` …) of a
turn, doing each step's turn-based actions on the way: the active player untaps their permanents
(Untap Step — CR 502.3), draws a card (Draw Step — CR 504.1; the player who plays first skips the draw of
their first turn, Starting the Game — CR 103.8a), "at the beginning of"
abilities trigger, and in the cleanup step damage is removed and "until end of turn" effects end
(Cleanup Step — CR 514.2). Combat is :mod:`~executable_rules.engine.combat`: creatures attack only when declared
(the scenario step ``attack``); with no attackers the declare blockers and combat damage steps are skipped
(Declare Attackers Step — CR 508.8); with attackers, passing through them declares no blockers and deals combat
damage.
"""

from __future__ import annotations

from ..choices import Chooser, first_legal
from ..citation import Citation
from ..model import EventKind, GameState
from .sba import check_state_based_actions
from .stack import resolve_top
from .triggers import put_triggers_on_stack

STEPS = ("untap", "upkeep", "draw step", "precombat main", "beginning of combat", "declare attackers",
         "declare blockers", "combat damage", "end of combat", "postcombat main", "end step", "cleanup")
STEP_NAMES = {"draw": "draw step", "end": "end step", "main": "precombat main", "precombat main phase": "precombat main",
              "postcombat main phase": "postcombat main", "combat": "beginning of combat", "begin combat": "beginning of combat",
              "end turn": "end step", "first main phase": "precombat main", "second main phase": "postcombat main"}
MAX_LOOPS = 500


def step_name(name: str) -> str:
    """The model's name for a step (``"draw"`` → ``"draw step"``); ``ValueError`` for an unknown one."""
    key = name.strip().lower()
    key = STEP_NAMES.get(key, key)
    if key not in STEPS:
        raise ValueError(f"unknown step {name!r}; steps are {', '.join(STEPS)}")
    return key


def priority(state: GameState, choose: Chooser = first_legal) -> None:
    """What happens before a player receives priority: state-based actions, then triggers, until neither acts."""
    for _ in range(MAX_LOOPS):
        check_state_based_actions(state, choose)
        if not put_triggers_on_stack(state, choose):
            return


def resolve_stack(state: GameState, choose: Chooser = first_legal) -> None:
    """Every player passes priority until the stack is empty (117.4, 405.5)."""
    for _ in range(MAX_LOOPS):
        priority(state, choose)
        if not state.stack.cards:
            return
        resolve_top(state, choose)
    raise RuntimeError(f"the stack didn't empty after {MAX_LOOPS} resolutions")


def _begin_step(state: GameState, step: str, choose: Chooser) -> None:
    from .combat import turn_based_actions      # combat imports this module
    if turn_based_actions(state, step, choose):
        return
    state.set(state, "step", step)
    active = state.active
    if step == "untap":
        from ..actions.exert import untap_step as stays_exerted
        from ..actions.phasing import phasing
        phasing(state, active)                     # before untapping (Phasing — CR 702.26a)
        for card in state.permanents(active):
            if stays_exerted(state, card.id):          # Exert — CR 701.43a: it doesn't untap this once
                continue
            if card.tapped and not any(a.static == "doesnt_untap" for a in card.oracle.parsed.abilities
                                       if not card.face_down):
                from ..actions.tap_and_untap import untap
                untap(state, active, card.id, citation=Citation("Untap Step", "502.3"))
    whose = "your" if active == "you" else f"{active}'s"
    state.emit(EventKind.STEP, active, detail=f"{step} (turn {state.turn}, {whose} turn)",
               citation=Citation("Turn Structure", "500.1"))
    if step == "draw step":
        if state.turn == 1 and state.players[0].name == active:
            state.emit(EventKind.NOTHING, active, detail="the player who plays first skips their first draw",
                       citation=Citation("Starting the Game", "103.8a"))
        else:
            from ..actions.draw import draw
            draw(state, active, 1, choose=choose)
    if step == "cleanup":
        for card in state.permanents():
            if card.damage:
                state.set(card, "damage", 0)
        ending = [e for e in state.continuous if e.duration == "until end of turn"]
        if ending:
            state.replace_list(state.continuous, [e for e in state.continuous if e.duration != "until end of turn"])
        state.emit(EventKind.NOTHING, active, detail="damage is removed and \"until end of turn\" effects end",
                   citation=Citation("Cleanup Step", "514.2"))
    if step not in ("untap", "cleanup"):
        resolve_stack(state, choose)


def next_turn(state: GameState) -> None:
    names = [p.name for p in state.players]
    following = names[(names.index(state.active) + 1) % len(names)]
    state.set(state, "active", following)
    state.set(state, "turn", state.turn + 1)
    state.set(state, "turn_started", len(state.events))
    state.clear_once_each_turn()
    from ..actions.detain import end_detentions
    end_detentions(state, following)                  # Detain — CR 701.35a: until that player's next turn
    for p in state.players:
        if p.lands_played or p.land_plays != 1:
            state.set(p, "lands_played", 0)
            state.set(p, "land_plays", 1)
    # "Until your next turn" lasts until that player's next turn begins (Continuous Effects — CR 611.2a),
    # not until any turn does: the opponent's turn in between doesn't end it.
    if any(e.duration == "until your next turn" and e.until_turn_of == following for e in state.continuous):
        state.replace_list(state.continuous, [e for e in state.continuous
                                              if not (e.duration == "until your next turn"
                                                      and e.until_turn_of == following)])
    from ..actions.goad import end_goad
    end_goad(state, following)


def pass_to(state: GameState, step: str, turn: int | None = None, choose: Chooser = first_legal) -> None:
    """Resolve what is on the stack, then move to ``step`` of ``turn`` (this turn if ``None``)."""
    target = step_name(step)
    turn = state.turn if turn is None else turn
    if (turn, STEPS.index(target)) < (state.turn, STEPS.index(state.step)):
        raise ValueError(f"turn {turn}, {target} is already past (it is turn {state.turn}, {state.step})")
    resolve_stack(state, choose)
    for _ in range(MAX_LOOPS):
        if state.turn == turn and state.step == target:
            return
        index = STEPS.index(state.step)
        if index + 1 == len(STEPS):
            next_turn(state)
            _begin_step(state, STEPS[0], choose)
        else:
            _begin_step(state, STEPS[index + 1], choose)
        if all(p.lost for p in state.opponents(state.active)) or state.player(state.active).lost:
            return
    raise RuntimeError("pass_to didn't reach its step")
