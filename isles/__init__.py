"""isles front end: the ``isles`` command line and board pictures.

Data flows one way: ``models`` (rules) -> ``solvers`` (algorithms) -> ``isles``
(parse, call, format, draw).
"""

__version__ = "0.1.0"
