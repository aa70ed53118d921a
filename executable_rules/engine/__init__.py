"""The game engine: what happens between and around the keyword actions.

One module per part of the rules, each importing only the model and those before it:

- :mod:`~executable_rules.engine.static` — static abilities the actions ask about (can players search
  libraries, do creature cards in graveyards enter the battlefield …), read from each permanent's parsed text;
- :mod:`~executable_rules.engine.layers` — a permanent's characteristics now: type, colour, abilities and
  power/toughness with continuous effects applied in layer order (Interaction of Continuous Effects — CR 613);
- :mod:`~executable_rules.engine.mana` — mana abilities of lands and permanents, and paying costs (Mana — CR 106);
- :mod:`~executable_rules.engine.replacement` — replacement effects (Replacement Effects — CR 614): enters
  tapped, enters with counters, "shuffle it into its owner's library instead", dredge;
- :mod:`~executable_rules.engine.triggers` — triggered abilities read from Oracle text, noted as events happen
  and put on the stack in APNAP order (Handling Triggered Abilities — CR 603);
- :mod:`~executable_rules.engine.effects` — what the parsed effects of a spell or ability do (the actions);
- :mod:`~executable_rules.engine.stack` — casting spells with their costs paid, activating abilities,
  resolving the top of the stack with targets checked again (Resolving Spells and Abilities — CR 608);
- :mod:`~executable_rules.engine.sba` — state-based actions (State-Based Actions — CR 704);
- :mod:`~executable_rules.engine.turn` — priority passing and the steps of a turn (Turn Structure — CR 500).

This package's ``__init__`` imports nothing, so the actions can use :mod:`static` without a circle.
"""
