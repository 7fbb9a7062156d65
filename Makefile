# The two commands of the README. Both install what is missing (Debian
# packages), configure and build with CMake presets.
#   make report   build, then solve the bundled example systems at every precision,
#                 integrate the built-in systems (reports/seed-systems/) and the benchmark
#                 mechanisms (reports/mechanisms/, 7.5 minutes at 4581d66), run the six
#                 quick studies (reports/<study>/, CSV + JSON + PNG), check the engines
#                 built (reports/engines/, femc engines) and write the index reports/README.md
#   make test     build, then run the whole ctest suite (unit, proof, ...)
#   make asan     the tests labelled sanitize under AddressSanitizer + UBSan (CI runs it too)
#   make dry-run  add a method with a workspace to a copy of the sources in three files and see it
#                 everywhere (scripts/dry-run-add-method.sh; a full build, not part of make test)
#   make bench    build bench/ (Google Benchmark), run it on one thread (the targets' benchmarks
#                 3 times: FEMC_BENCH_RUNS), write reports/performance.md
JOBS ?= 2
FEMC := build/release/cli/femc

.PHONY: all deps build build-cli report test asan dry-run bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

# make report needs the femc command only, not the test executables: with
# them, a fresh clone's make report took 25.6 minutes on 2 cores.
build-cli: deps
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS) --target femc_cli

report: build-cli
	@scripts/solve-examples.sh $(FEMC) examples reports/examples
	@scripts/simulate-seed-systems.sh $(FEMC) reports/seed-systems
	@scripts/simulate-mechanisms.sh $(FEMC) reports/mechanisms
	@$(FEMC) study all --jobs $(JOBS) --out reports
	@/usr/bin/python3 studies/plots/plot_studies.py reports
	@if $(FEMC) engines --list | grep -q .; then \
	  $(FEMC) engines --out reports/engines && /usr/bin/python3 engines/plots/plot_engines.py reports/engines; \
	else echo "femc: no engine adapter built: reports/engines skipped"; fi
	@/usr/bin/python3 scripts/report-index.py reports

test: build
	@ctest --preset release

dry-run: build
	@ctest --test-dir build/release -L dry_run --output-on-failure

asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan

bench: deps
	@cmake --preset release -DFEMC_BUILD_BENCH=ON >/dev/null
	@cmake --build --preset release -j $(JOBS) --target femc_bench femc_cli
	@scripts/bench.sh build/release

clean:
	rm -rf build
