"""Static files the ecosystem's way: `manage.py collectstatic` copies static/ into STATIC_ROOT
with hashed names (`css/site.3f2a9c1b4d5e.css`), WhiteNoise serves them from daphne (nginx
serves the same folder in front, deploy/nginx/), and the templates' `{% static %}` names the
hashed files, cached for ever by browsers: after an upgrade a page loads the new scripts, never
an old one from a cache. With DEBUG on (`make run`), WhiteNoise serves static/ as it is, read
afresh on each request.

The scripts are ES modules that import each other by relative path (`./constants.js`): the
storage rewrites those imports to the hashed names too (Django's JS module support), so that a
hashed match.js never imports an old, cached connection.js.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticFiles(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """Hashed names and compressed copies (WhiteNoise), with the modules' imports rewritten."""

    support_js_module_import_aggregation = True
