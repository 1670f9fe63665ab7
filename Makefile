# kafkaspec: every entry point a developer or CI needs.
# `make test` and `make demo` work on a fresh machine: they create .venv and install everything.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Longer fuzz/property runs: make test FUZZ_EXAMPLES=20000
FUZZ_EXAMPLES ?= 300
export KAFKASPEC_FUZZ_EXAMPLES := $(FUZZ_EXAMPLES)
# Bigger inputs in the hostile tests (those marked hostile that read it: sizes multiplied): make test ADVERSARIAL_SCALE=8
ADVERSARIAL_SCALE ?= 1
export KAFKASPEC_ADVERSARIAL_SCALE := $(ADVERSARIAL_SCALE)
# The standalone-cluster test (~75 s) runs in make test; skip it while iterating: make test CLUSTER_TEST=0
CLUSTER_TEST ?= 1
# Size of the demo data directory in MB: make demo DEMO_MB=2000
DEMO_MB ?= 300
DEMO_DIR ?= build/demo

.PHONY: venv generate check-generated lint typecheck test check-fast test-brokers bench demo docs clean java-check cluster-test test-scale

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "kafkaspec needs Python >= 3.11"'
	@echo "make venv: [1/3] creating $(VENV) with $$($(PYTHON) --version)"
	$(PYTHON) -m venv $(VENV)
	@echo "make venv: [2/3] upgrading pip and setuptools"
	$(PY) -m pip install --quiet --upgrade pip 'setuptools>=77'
	@echo "make venv: [3/3] installing kafkaspec with the dev and spark extras (pyspark alone is ~450 MB;"
	@echo "           1-2 minutes from pip's cache, longer from PyPI): pip names each package as it goes"
	$(PY) -m pip install --progress-bar on -e '.[dev,spark]'
	@echo "make venv: done ($(VENV); make test and make demo use it)"
	touch $(STAMP)

venv: $(STAMP) tools

# Test servers that are not Python packages, in .tools/ (git-ignored): Azurite, Microsoft's Azure Storage
# emulator (npm package azurite), for the Azure runs of tests/storage. Without npm this says so in one line;
# the Azure tests then fail (they are never skipped).
AZURITE_VERSION ?= 3.37.0
AZURITE := .tools/node_modules/.bin/azurite-blob
.PHONY: tools
tools: $(AZURITE)
$(AZURITE):
	@if command -v npm >/dev/null 2>&1; then \
	  echo "make tools: installing azurite $(AZURITE_VERSION) into .tools/ (npm)"; \
	  mkdir -p .tools && npm install --prefix .tools --no-audit --no-fund --silent azurite@$(AZURITE_VERSION) \
	    || echo "make tools: npm could not install azurite: the Azure storage tests will fail"; \
	else echo "make tools: npm is missing (install Node.js and npm): the Azure storage tests will fail"; fi

generate: $(STAMP)
	$(PY) -m kafkaspec.codegen

# Regenerate and fail if the checked-in generated code or docs differ from what the schemas say.
check-generated: generate
	@changes="$$(git status --porcelain -- generated docs)"; \
	if [ -n "$$changes" ]; then \
	  echo "generated/ or docs/ is out of date with schemas/ (run make generate and commit):"; \
	  echo "$$changes"; git --no-pager diff --stat -- generated docs; exit 1; \
	fi

lint: $(STAMP)
	$(VENV)/bin/ruff check kafkaspec codegen generated tests bench mkdocs_hooks.py
	$(VENV)/bin/ruff format --check kafkaspec codegen generated tests bench mkdocs_hooks.py

java-check:
	@command -v java >/dev/null 2>&1 || { echo "Java 17+ is required for Spark: install it (Debian: apt-get install openjdk-17-jre-headless)"; exit 1; }

typecheck: $(STAMP)
	$(PY) -m mypy

# All tests: those without Spark on TEST_WORKERS processes (pytest-xdist), then the Spark ones (tests/spark
# and every test marked spark) in one process, since each starts a JVM that wants the cores to itself, then
# the broker suite (tests/brokers: Apache Kafka brokers of KAFKA_VERSIONS started by the tests, their jars
# fetched by Maven into .tools/kafka/ once). make test BROKERS=0 leaves the broker suite out while iterating.
TEST_WORKERS ?= 2
BROKERS ?= 1
# make test runs the oldest and the newest release, make test-brokers all five; KAFKA_VERSIONS=4.2.2 chooses,
# KAFKA_VERSIONS=all runs all five in make test too (.ci/run on a release/* branch)
KAFKA_VERSIONS ?= 4.0.2,4.4.0
ALL_KAFKA_VERSIONS := 4.0.2,4.1.2,4.2.2,4.3.1,4.4.0
test: check-generated lint typecheck java-check browser tools
	$(PY) -m pytest -q -p no:cacheprovider -m "not spark and not broker" -n $(TEST_WORKERS); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; [ $$rc -eq 0 ] || exit $$rc; \
	KAFKASPEC_CLUSTER_TEST=$(CLUSTER_TEST) $(PY) -m pytest -q -p no:cacheprovider -m "spark and not broker"; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no Spark tests: failing"; exit 1; fi; [ $$rc -eq 0 ] || exit $$rc; \
	if [ "$(BROKERS)" = 0 ]; then echo "make test: BROKERS=0, the broker suite (tests/brokers) is left out"; exit 0; fi; \
	$(MAKE) --no-print-directory test-brokers KAFKA_VERSIONS=$(if $(filter all,$(KAFKA_VERSIONS)),$(ALL_KAFKA_VERSIONS),$(KAFKA_VERSIONS))

# The broker suite alone, every release (Maven and Java 17 needed; a release that cannot be fetched or
# started fails its tests in one line, it is never skipped).
.PHONY: test-brokers
test-brokers: $(STAMP) java-check
	@command -v mvn >/dev/null 2>&1 || { echo "Maven is required to fetch Apache Kafka's jars for the broker tests: install it (Debian: apt-get install maven)"; exit 1; }
	KAFKA_VERSIONS=$(if $(filter all,$(KAFKA_VERSIONS)),$(ALL_KAFKA_VERSIONS),$(if $(filter command line environment,$(origin KAFKA_VERSIONS)),$(KAFKA_VERSIONS),$(ALL_KAFKA_VERSIONS))) \
	  $(PY) -m pytest -q -p no:cacheprovider -m broker; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no broker tests: failing"; exit 1; fi; exit $$rc

# Spark's own readers of the tables kafkaspec writes (Apache Iceberg's Spark runtime, the SQLite JDBC driver
# for its JdbcCatalog, Delta Lake's Spark package), fetched by Maven into .tools/lake/ once, with the Spark
# they are built for (pyspark $(LAKE_PYSPARK) in .tools/lake/pyspark: none is built for the Spark kafkaspec
# runs on), for tests/spark/test_tables_spark_runtimes.py, which runs this target (a failed fetch fails it).
LAKE_JARS := .tools/lake
LAKE_PYSPARK := 4.1.4
.PHONY: lake-jars
lake-jars:
	@[ -f $(LAKE_JARS)/.complete ] || { \
	  command -v mvn >/dev/null 2>&1 || { echo "make lake-jars: mvn is not on PATH (install Maven) to fetch the Iceberg and Delta Spark jars"; exit 1; }; \
	  rm -rf $(LAKE_JARS); mkdir -p $(LAKE_JARS); \
	  mvn -q -B -Dstyle.color=never -f tests/support/lake/pom.xml dependency:copy-dependencies \
	    -DoutputDirectory=$(CURDIR)/$(LAKE_JARS) >$(LAKE_JARS).log 2>&1 || { \
	    echo "make lake-jars: Maven could not fetch the Iceberg and Delta Spark jars (tests/support/lake/pom.xml): $$(grep -m1 ERROR $(LAKE_JARS).log | cut -c1-300)"; \
	    rm -rf $(LAKE_JARS); exit 1; }; \
	  ls $(LAKE_JARS)/*.jar >/dev/null 2>&1 || { echo "make lake-jars: Maven copied no jar into $(LAKE_JARS)"; exit 1; }; \
	  { python3 -m venv $(LAKE_JARS)/pyspark && $(LAKE_JARS)/pyspark/bin/pip install -q pyspark==$(LAKE_PYSPARK); } >>$(LAKE_JARS).log 2>&1 || { \
	    echo "make lake-jars: pip could not install pyspark $(LAKE_PYSPARK) into $(LAKE_JARS)/pyspark: $$(tail -1 $(LAKE_JARS).log | cut -c1-300)"; \
	    rm -rf $(LAKE_JARS); exit 1; }; \
	  touch $(LAKE_JARS)/.complete; }

# The inner loop (target: under two minutes): lint, the generator's freshness check and the tests without
# Spark, without object-store servers (tests/storage, marked `stores`) and without slow marks, with few
# hypothesis examples, on CHECK_FAST_WORKERS processes (pytest-xdist).
# It is not make test: run that before a merge.
CHECK_FAST_WORKERS ?= 2
check-fast: $(STAMP)
	$(PY) -m kafkaspec.codegen --check
	$(VENV)/bin/ruff check kafkaspec codegen generated tests bench mkdocs_hooks.py
	KAFKASPEC_FUZZ_EXAMPLES=$(if $(filter command line,$(origin FUZZ_EXAMPLES)),$(FUZZ_EXAMPLES),20) KAFKASPEC_CLUSTER_TEST=0 \
	  $(PY) -m pytest -q -p no:cacheprovider -m "not slow and not spark and not stores and not broker" -n $(CHECK_FAST_WORKERS) \
	  --ignore=tests/spark --ignore=tests/brokers --ignore=tests/docs/test_site.py; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

# Debian's Chromium for the explain page's browser test (tests/explain/test_html_browser.py, driven by
# playwright with this browser; playwright's own browsers are never downloaded). Where it cannot be
# installed (not root, no apt-get, no network) this says so and the test is skipped with that reason.
.PHONY: browser
browser:
	@[ -x /usr/bin/chromium ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    export DEBIAN_FRONTEND=noninteractive; \
	    { apt-get install -y -qq chromium chromium-driver || { apt-get update -qq && apt-get install -y -qq chromium chromium-driver; }; } \
	      >/dev/null 2>&1 || echo "make browser: could not install chromium: the explain browser test will be skipped"; \
	  else echo "make browser: chromium is missing and needs root and apt-get to install: the explain browser test will be skipped"; fi; }

bench: $(STAMP)
	$(PY) -m bench

# The pipeline on a real Spark standalone cluster (master + 2 workers on 127.0.0.1) vs local mode.
cluster-test: $(STAMP) java-check
	KAFKASPEC_CLUSTER_TEST=1 $(PY) -m pytest -q -p no:cacheprovider tests/spark/test_cluster.py

# The pipeline's memory on 1 GB (tests/spark/test_pipeline_memory.py): each process under its bound.
# KAFKASPEC_SCALE_INPUT=DIR reads DIR instead of writing a 1 GB synth directory first.
test-scale: $(STAMP) java-check
	KAFKASPEC_SCALE_TEST=1 $(PY) -m pytest -q -p no:cacheprovider tests/spark/test_pipeline_memory.py

demo: $(STAMP) java-check
	$(PY) -m kafkaspec.cli synth $(DEMO_DIR)/logs --size-mb $(DEMO_MB) --seed 7 --force
	$(PY) -m kafkaspec.cli pipeline $(DEMO_DIR)/logs $(DEMO_DIR)/out --decode-values
	rm -rf $(DEMO_DIR)/lake
	$(PY) -m kafkaspec.cli pipeline $(DEMO_DIR)/logs --table iceberg $(DEMO_DIR)/lake
	$(PY) -m kafkaspec.cli table summary $(DEMO_DIR)/lake --table iceberg

# The documentation site (MkDocs, Material theme; mkdocs.yml) in build/site/, built in strict mode:
# a broken link or a page left out of the navigation fails it. tests/docs/test_site.py builds it too.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --site-dir build/site
	@echo "make docs: open build/site/index.html (it works from the files; search needs the browser to"
	@echo "  reach unpkg.com once, for Material's iframe-worker shim; or serve it: $(VENV)/bin/mkdocs serve)"

clean:
	rm -rf $(VENV) build .pytest_cache

# Schema review: list what changed in every schema edited since BASE (a git revision; default HEAD,
# i.e. the uncommitted edits) and exit 1 on a breaking change (rules: docs/review-rules.md).
# make review-diff BASE=origin/main REVIEW_FLAGS=--markdown
BASE ?= HEAD
REVIEW_FLAGS ?=
.PHONY: review-diff
review-diff: $(STAMP)
	@files="$$(git diff --name-only $(BASE) -- 'schemas/*.yaml' 'schemas/**/*.yaml' | sort -u)"; \
	if [ -z "$$files" ]; then echo "review-diff: no schema changes since $(BASE)"; exit 0; fi; \
	rc=0; for f in $$files; do \
	  $(PY) -m kafkaspec.cli review diff "$$f" --rev-old $(BASE) $(REVIEW_FLAGS); s=$$?; \
	  if [ $$s -gt $$rc ]; then rc=$$s; fi; echo; \
	done; exit $$rc
