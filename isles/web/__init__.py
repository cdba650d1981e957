"""The web app of ``isles serve``: the games at the table, in a browser (docs/serve.md).

:func:`create_app` builds the Starlette app over the public catalogue; the pages
(HTML, CSS and plain JavaScript modules) are package data in ``static/``.
"""

from isles.web.app import create_app

__all__ = ["create_app"]
