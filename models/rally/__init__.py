"""The car rally's model (docs/rally.md; seed 002_8684547a41c0941c.txt), one module per job:

- ``rules``: what entering a hex costs, desert exits, a player's roads, card
  values and budgets, income, trades, the 7-card rule;
- ``rim``: the board's rim, its rim starts, their start groups and the goals opposite;
- ``questions``: the questions (``Trip``, ``Drive``, ``Race`` of ``Car``), each
  field declared once for the library, ``isles rally`` and the web app;
- ``towns``: the example table (the beginner board with red's and blue's settlements).
"""
