"""Plunder, the game itself (docs/plunder.md; seed ``seeds/003_cfc377110defcf34.txt``).

- :mod:`~isles.models.plunder.codes`: the categories and values, codes and clues, a
  player's answer, display names, a legal deal.
- :mod:`~isles.models.plunder.record`: a turn's clue and answers, my code, the record
  and its JSON format, the example, the deals that agree with it.
- :mod:`~isles.models.plunder.scoring`: crew cards, the points of a dig, a game's scores.
- :mod:`~isles.models.plunder.game`: the whole game recorded (the deal, flips, crew
  cards), checked, and its JSON format.
- :mod:`~isles.models.plunder.play`: the deal, what a player sees, the policy
  protocol, one game played between policies.
- :mod:`~isles.models.plunder.questions`: the questions, declared once.
"""
