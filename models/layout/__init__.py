"""The Catan boards' set-up: what a board is asked to be, and its rules (docs/layout.md).

Seeds 002_8684547a41c0941c.txt and 004_644cf972d8964df4.txt. The modules, in
the order they build on each other (none imports a solver):

- ``games``: the base and extension islands, their frames, harbours, boxes, the spiral.
- ``geometry``: the hexes the rules look at together (corners, groups, pairs).
- ``objectives``: colourfulness and pip spread of a finished board.
- ``board_rule``: what a rule is (check, CP-SAT encoding, relaxation) and is handed.
- ``board_rules``: the rule kinds, registered in ``RULE_KINDS``.
- ``rules_file``: your own rules, read from a rules file.
- ``request``: ``SetupRequest``, the switchable ``Rule``s, the limits.
- ``groups``: the constraint groups a conflict names.
- ``checker``: ``rule_violations``, an independent check of a finished board.
- ``questions``: the question ``Layout`` and its parts, declared once.
- ``setup``: ``setup_request`` and ``request_of``: a set-up asked, made a request.
"""
