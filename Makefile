# `make run` serves the club on one process; `make test` runs every check CI runs.
# DATABASE_URL and REDIS_URL are honoured when set (several processes); otherwise
# SQLite (db.sqlite3) and the in-memory channel layer.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
# pytest-xdist's workers: one a core and one more (the browser and live tests wait half their
# time on servers, timers and Chromium, so two workers left this 2-core machine's CPU idle half
# the time: README, "Tests"); each takes whole modules (`--dist loadscope`), so a module's
# server and browser start once, the longest first (tests/conftest.py: LONGEST_FIRST).
# `make test PYTEST_WORKERS=0`: one process.
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
BENCH_ARGS ?=

.PHONY: venv venv-dev node-modules run test test-js lint typecheck messages bench-physics bench-views \
	physics-figures bench-live bench-pairs bench-strangers bench-opponent bench-handicap bench-competitions bench-analysis fit-frame-chance bench-redis-restarts scenarios \
	physics-goldens static

# `venv`: what the club runs (requirements.txt), for `make run` as for a server; `venv-dev`:
# that and the test and lint tools (requirements-dev.txt), for `make test` and the benchmarks.
venv: $(VENV)/.installed
venv-dev: $(VENV)/.installed-dev

# Re-run pip only when a requirements file changes.
$(VENV)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -r requirements.txt
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt
	$(BIN)/python -m pip install -r requirements-dev.txt
	touch $@

# The static files with hashed names (snooker_site/static.py) in the git-ignored staticfiles/.
static: venv
	$(BIN)/python manage.py collectstatic --noinput -v 0

run: venv static
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/daphne -b 127.0.0.1 -p 8000 snooker_site.asgi:application

test: venv-dev node-modules lint typecheck test-js static
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder $(PYTEST_ARGS)

# The test tools from npm (package.json: axe-core for tests/browser/test_axe.py), as locked in
# package-lock.json; npm ci again only when the lock changes.
node-modules: node_modules/.installed

node_modules/.installed: package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

# The browser's modules (client state, playback, geometry, wording, the reconnecting socket,
# the table's drawing, the aim and the controls) under Node's own test runner, with the page
# constants from their fixture and fakes for the clock, sockets and elements
# (static/js/tests/fakes.js); static/js/package.json tells Node these files are ES modules.
test-js:
	node --test static/js/tests/*.test.js

# ruff (checks and format), and the house's layers (import-linter's contracts in
# pyproject.toml, docs/architecture.md).
lint: venv-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# mypy --strict over every app (pyproject.toml), with django-stubs.
typecheck: venv-dev
	$(BIN)/mypy

# The Russian catalogue (locale/ru/LC_MESSAGES/): new msgids from the templates and the Python
# code into django.po, then django.po compiled into the committed django.mo. Needs GNU gettext
# (apt-get install gettext); running the club and `make test` do not.
messages: venv
	$(BIN)/python manage.py makemessages -l ru -e html,txt,py --add-location=file --no-obsolete \
		--ignore=.venv --ignore=tests --ignore=benchmarks --ignore=static --ignore=docs
	$(BIN)/python manage.py compilemessages -l ru --ignore=.venv

bench-physics: venv-dev
	$(BIN)/python benchmarks/bench_physics.py

# The referee's exact views (snookered, clear path) against the sampled ones they replaced.
bench-views: venv-dev
	$(BIN)/python benchmarks/bench_views.py

# The physics against its references (docs/physics.md, "Figures against references"). With
# pooltool importable by PYTHON_FIGURES (pip install pooltool-billiards), its Mathavan model and
# the same break are run live beside ours; otherwise its recorded figures are shown.
PYTHON_FIGURES ?= $(BIN)/python
physics-figures: venv-dev
	$(PYTHON_FIGURES) benchmarks/physics_figures.py

# Live play over real websockets (daphne, and PostgreSQL + Redis for the two-process set-up),
# e.g. `make bench-live BENCH_ARGS="--matches 5 --spectators 2 --duration 15"`; with
# `--lobby 300`, 300 lobby sockets watch meanwhile (their updates' latency, the servers' CPU).
bench-live: venv-dev
	$(BIN)/python benchmarks/bench_live.py $(BENCH_ARGS)

# bench-live with and without one thing (`--a`, `--b`), alternately, back to back: each arm's
# players' acks pooled, the ack p99's change with its 95 % interval (benchmarks/pairs.py).
bench-pairs: venv-dev
	$(BIN)/python benchmarks/pairs.py $(BENCH_ARGS)

# One match, 1,000 honest spectators, then 200 hostile sockets flooding hello, ping and aim.
# Either benchmark on a slow day: BENCH_ARGS="--busy 2" (benchmarks/busy.py).
bench-strangers: venv-dev
	$(BIN)/python benchmarks/bench_strangers.py $(BENCH_ARGS)

# The computer opponent's strength (docs/opponent.md): seeded positions and frames, each level
# against the one below. A short run: `make bench-opponent BENCH_ARGS="--frames 2 --positions 20"`.
bench-opponent: venv-dev
	$(BIN)/python benchmarks/bench_opponent.py $(BENCH_ARGS)

# The handicap's calibration (docs/handicaps.md): the computer's levels against each other at
# several starts. A short run: `make bench-handicap BENCH_ARGS="--frames 20 --starts 0,40"`.
bench-handicap: venv-dev
	$(BIN)/python benchmarks/bench_handicap.py $(BENCH_ARGS)

# The competitions at the issue's scale (docs/competitions.md, "Scale"): a 128-entrant double
# elimination and a 64-entrant round robin played out on a throwaway SQLite database, their
# pages and each result's update timed. A short run: `make bench-competitions BENCH_ARGS=--short`.
bench-competitions: venv-dev static
	$(BIN)/python benchmarks/bench_competitions.py $(BENCH_ARGS)

# The coach's analysis (docs/coach.md): seconds per stroke and per frame, one core.
bench-analysis: venv-dev
	$(BIN)/python benchmarks/bench_analysis.py $(BENCH_ARGS)

# The coach's frame-winning chance (docs/coach.md): fitted on the Club level's self-play.
fit-frame-chance: venv-dev
	$(BIN)/python benchmarks/fit_frame_chance.py $(BENCH_ARGS)

# One daphne's resident set after each of ten Redis restarts (issue 37: within 5 % of the first);
# BENCH_ARGS="--census" also counts its live objects and tasks, to show what a restart keeps.
bench-redis-restarts: venv-dev
	$(BIN)/python benchmarks/bench_redis_restarts.py $(BENCH_ARGS)

scenarios: venv-dev
	$(BIN)/python -m rules.scenarios tests/scenarios

# Rewrite tests/physics/golden/ from the physics as it is now (the test never writes them);
# review the diff before committing it.
physics-goldens: venv-dev
	$(BIN)/python -m tests.physics.test_physics_golden
