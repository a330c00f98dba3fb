"""One Django process that runs the browser tests' snippets against a server's database, for
the whole module: `manage.py shell -c` started Python and Django again for each (two or three
seconds each, some fifty times a run). A request is one JSON line on stdin (the code); the
answer one JSON line on stdout: what the code printed, or the traceback it raised.

Run as `python -m tests.browser.shell` with the server's environment (tests/browser/conftest.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "snooker_site.settings")
    import django
    from django.db import connections

    django.setup()
    answers = sys.stdout
    for line in sys.stdin:
        printed = io.StringIO()
        error = None
        try:
            with contextlib.redirect_stdout(printed):
                exec(json.loads(line), {"__name__": "__shell__"})
        except Exception:
            error = traceback.format_exc()
        finally:
            connections.close_all()  # no connection held between snippets, as after a process
        answers.write(json.dumps({"printed": printed.getvalue(), "error": error}) + "\n")
        answers.flush()


if __name__ == "__main__":
    main()
