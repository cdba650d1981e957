"""The cooperative lighthouse game as data and rules (docs/lighthouse.md; seed 000).

The seed is seeds/000_aeb701e368f40145.txt. One module per job:

- ``kit``: the kit on the table (islands, dice, sea cards), the default kit, the named kits;
- ``position``: a position between turns, the states of one lighthouse, a position's code;
- ``rules``: one turn: the roll outcomes, the legal decisions, the turn played;
- ``caps``: the policies a question names, and how large a kit each solver takes;
- ``competitive``: the competitive variant's seats, turn and the landing's removal;
- ``questions``: the questions of the game, declared once (docs/json.md, "Questions").
"""
