"""isles game models: immutable typed data and the rules as pure functions.

No module here imports a solver. Sources: the seed documents in ``seeds/`` and
the rule decisions documented in ``docs/`` (one file per game).
"""
