"""Ships under winds: the rules (docs/ships.md; seed 004_644cf972d8964df4.txt).

Immutable data and pure functions, one module per part of the rules:

- ``limits``: the seed's numbers (the dice, a ship's cost and cargo, the fleet,
  the players) and the caps of the ships' solvers;
- ``coordinates``: an edge or a corner as a caller gives it (hexes, text);
- ``winds``: where a ship stands (ship edges, coast or high sea, capacity) and
  where the 2d6 winds let it go (rules 3, 6 and 12's moves);
- ``encounters``: collisions and the pirate, their outcome tables and the
  cargo left (rules 11 and 12);
- ``settlements``: a ship next to a building: unloading, launching, harvest,
  becoming a settlement, points (rules 3, 5, 7, 10, the end of the game);
- ``harbours``: the ports a ship reaches and the trade each allows (rule 8);
- ``fleet``: a player's ships under one roll: joint moves, collision rolls,
  scoring edges;
- ``logbook``: the log book's JSON format (rule 13);
- ``demo``: the embedded ships board;
- ``questions``: the ships' questions, declared once (docs/json.md, "Questions").
"""
