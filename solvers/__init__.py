"""isles solvers: one module per question; results leave as isles dataclasses."""
