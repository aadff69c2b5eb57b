# The two commands a newcomer needs: `make demo` and `make test` (see README.md).
# Each installs the Debian packages it needs when they are missing.

SWIFT        ?= swift
DEB_PACKAGES := pkg-config libyaml-dev libcurl4-openssl-dev libssl-dev libldns-dev libsqlite3-dev libxml2-utils curl time bc openssl unbound prometheus python3-yaml python3-venv systemd man-db zsh fish chromium
SCHEMA       := schemas/junit-10.xsd
LAB_DIR      := .lab
DEMO_DIR     := .demo
HTTP_PORT    ?= 18080
HTTPS_PORT   ?= 18443
DNS_PORT     ?= 18053
RANK_PORT    ?= 18090
GRPC_TLS_PORT ?= 18444
GRPC_PORT    ?= 18081
BIN           = $(shell $(SWIFT) build --show-bin-path)

.PHONY: all deps build test test-repeat demo screenshots lab bench fuzz clean install manual

all: build

## deps: install the Debian packages the build and the tests need, when missing. unbound is
## a DoH server the tests start on a loopback port; prometheus brings promtool, which checks the
## metrics the tests write, and the server one test starts on a loopback port of its own to
## scrape `runner serve`; tools/install-packages.sh keeps the system's unbound, Prometheus and
## node_exporter from starting (now or at boot), so nothing takes port 53, 9090 or 9100, nor the
## machine's resolver. chromium: the HTML report's tests load it in headless Chromium and read
## the DOM it rendered. Then check-jsonschema (PyPI), which validates plans against
## docs/plan.schema.json in the tests, into .tools/check-jsonschema (tools/install-check-jsonschema.sh),
## and mitmproxy (PyPI), whose mitmdump the tests put as a proxy in front of the lab to record a real
## HAR capture, into .tools/mitmproxy (tools/install-mitmproxy.sh).
deps:
	@missing=""; for package in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$package 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  tools/install-packages.sh $$missing; \
	fi
	@tools/install-check-jsonschema.sh
	@tools/install-mitmproxy.sh

build: deps
	$(SWIFT) build

## test: the whole test suite, in parallel, at most four tests per core at once (~50 s with the
## other core busy; ~126 s serially), then the demo run with its JUnit checked against the
## schema. It ran serially while parallel runs failed now and then; the causes (Foundation's
## Process.run() crash, a test server shutting down descriptors it no longer owned, a racy
## --stats count, and Swift Testing starting every test at the same instant — some thirty
## debug-build runner processes on two cores, so that requests overran their limits in the
## first half-minute) are fixed, and `make test-repeat` passed 20 runs of 20 with the other core
## busy (2026-11-24: 1,320 s, ~66 s a run). A failing run prints what failed again at its end
## (tools/test-suite.sh), where a CI log's tail shows it.
test: deps
	SWIFT=$(SWIFT) tools/test-suite.sh
	$(MAKE) --no-print-directory demo
	$(MAKE) --no-print-directory manual
	tools/check-install.sh "$(BIN)" "$(MANUAL)"

## test-repeat: the suite REPEAT times (default 20) in parallel with the other core kept busy,
## stopping at the first failure: how a flake is looked for (tools/test-repeat.sh)
test-repeat: deps
	tools/test-repeat.sh

## demo: start the built-in lab, run plans/lab.yaml against it, validate the JUnit it wrote; its
## HTML report is .demo/report.html
demo: build
	@mkdir -p $(DEMO_DIR)
	@rm -f $(LAB_DIR)/ready
	@$(BIN)/runner-lab --http-port $(HTTP_PORT) --https-port $(HTTPS_PORT) --dns-port $(DNS_PORT) --rank-port $(RANK_PORT) --grpc-tls-port $(GRPC_TLS_PORT) --grpc-port $(GRPC_PORT) --state-dir $(LAB_DIR) > $(DEMO_DIR)/lab.log 2>&1 & \
	lab=$$!; trap 'kill $$lab 2>/dev/null; wait $$lab 2>/dev/null' EXIT; \
	for i in $$(seq 1 100); do [ -f $(LAB_DIR)/ready ] && break; sleep 0.1; done; \
	[ -f $(LAB_DIR)/ready ] || { echo "the lab did not start:"; cat $(DEMO_DIR)/lab.log; exit 1; }; \
	LAB_ALIBABA_SECRET=lab-alibaba-secret $(BIN)/runner plans/lab.yaml --var http_port=$(HTTP_PORT) --var https_port=$(HTTPS_PORT) --var dns_port=$(DNS_PORT) \
	  --junit $(DEMO_DIR)/junit.xml --json $(DEMO_DIR)/report.json --html $(DEMO_DIR)/report.html; status=$$?; \
	echo; \
	if [ $$status -ne 1 ]; then echo "demo: expected exit 1 (one scenario is meant to fail), got $$status"; exit 1; fi; \
	echo "demo: exit 1 as expected — trust override against the SNI-only host fails, with its diagnosis above."; \
	xmllint --noout --schema $(SCHEMA) $(DEMO_DIR)/junit.xml && echo "demo: $(DEMO_DIR)/junit.xml validates against $(SCHEMA)"
	@echo "demo: the HTML report is $(DEMO_DIR)/report.html"

## screenshots: the demo's HTML report as docs/images/ shows it (headless Chromium): the top of
## the page, and the erroring result alone, unfolded (r0-4-0: plan 0, its fifth scenario, first
## result; the page opened at the top: headless Chromium paints a page scrolled to an anchor blank)
CHROMIUM := chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=$(CURDIR)/$(DEMO_DIR)/chromium
screenshots: demo
	$(CHROMIUM) --window-size=1280,1500 --screenshot=docs/images/html-report.png file://$(CURDIR)/$(DEMO_DIR)/report.html
	$(CHROMIUM) --window-size=1280,760 --screenshot=docs/images/html-report-evidence.png \
	  'file://$(CURDIR)/$(DEMO_DIR)/report.html#status=error&open=r0-4-0'

## manual: the man page, written by swift-argument-parser's manual generator (its
## generate-manual plugin) from the debug build `make build` and `make demo` use
MANUAL = $(shell $(SWIFT) build --show-bin-path)/../../plugins/GenerateManual/outputs/runner/runner.1
manual: build
	$(SWIFT) package generate-manual --configuration debug --authors "the runner's authors" >/dev/null
	@test -s "$(MANUAL)" && echo "manual: $(MANUAL)"

## install: the static release binary (no Swift runtime needed where it runs), its man page and
## bash/zsh/fish completions under $(DESTDIR)$(PREFIX) (tools/install.sh)
PREFIX ?= /usr/local
install: manual
	$(SWIFT) build $(RELEASE_FLAGS) --product runner
	tools/install.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)/runner" "$(MANUAL)" "$(DESTDIR)$(PREFIX)"

## bench: release build, then benchmarks that print runner and curl side by side (same run):
## a 1 GiB upload, resource hygiene (5,000 scenarios at --jobs 64), what --junit --json,
## --metrics and --html cost at 40,000 results, header-only over HTTP and sni-resolve over HTTPS
## (bench/reports.sh), HTTP throughput against nginx and `runner check` of 10,000 and 100,000
## scenarios, its CPU timed on one CPU with taskset (bench/http.sh; installs nginx-light when
## missing), and `runner serve` over 1,000 cycles of
## 200 scenarios, its RSS (window medians) and descriptors after the first fifth (bench/serve.sh), and 1,000 two-step
## flows against 2,000 independent requests at --jobs 32 (bench/flows.sh), and 1,000 resolver checks
## (each its own DNS question) against 1,000 pinned requests (bench/dns.sh), and what --progress
## always and --curl cost at 40,000 results (bench/terminal.sh), and what pins and the ios-ats
## profile cost at 20,000 HTTPS results that pass them, stated once in the plan (written out in each
## scenario: printed beside), and the diagnostic second handshake (bench/trust.sh), and
## instructions per result, the runner's own and libcurl + OpenSSL's, plain and with --junit --json,
## against curl on the same HTTPS GETs (callgrind, marginal between 500 and 2,500 results; installs
## valgrind and binutils when missing), heap allocations per result (memcheck, DHAT for whose),
## and the wall-time ratio on 20,000 of them (bench/instructions.sh; issue 47's targets, printed,
## not failing the bench), and 100 scenarios
## on a map asked as 30 client populations over 50 edges against the same edges in a static list
## (bench/populations.sh: instructions, CPU and wall; <= 1.2x), and those 30 populations ranking
## their edges by connect time (`sdk:`) against not ranking (bench/pick.sh: one connect per
## distinct address and port per cycle, <= 1.1x in instructions), and a run's reads and writes of a
## state file of 300,000 rows (bench/state.sh; < 0.2 s of CPU). The release build links the Swift
## runtime and Foundation statically, as a binary to deploy is built: it needs no Swift
## toolchain where it runs, and starts ~6 ms sooner (no symbol lookups into their libraries).
## Only the executables: the static SDK has no Testing module for the test fixtures. Every bench
## runs even when one misses (its figures are printed), and the target fails at the end naming them.
## The verdicts rest on what repeats on a shared 2-core machine: instructions (callgrind, on a copy
## made with objcopy --strip-debug) and CPU time (user + sys); wall time is printed beside, never
## judged (bench/measure.sh, which installs valgrind and binutils when missing; issue 47).
RELEASE_FLAGS := -c release --scratch-path .build-release --static-swift-stdlib
bench: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product runner
	$(SWIFT) build $(RELEASE_FLAGS) --product runner-lab
	$(SWIFT) build $(RELEASE_FLAGS) --product state-bench
	bin="$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)"; missed=""; \
	for bench in upload hygiene reports http serve flows dns terminal trust instructions populations pick state; do \
	  bench/$$bench.sh "$$bin" || missed="$$missed $$bench"; \
	done; \
	if [ -n "$$missed" ]; then echo "bench: missed or failed:$$missed (each printed why above)" >&2; exit 1; fi

## fuzz: build the libFuzzer targets (plan parser, HTTPDNS parsers), then run each for
## FUZZ_SECONDS after replaying fuzz/regressions (see fuzz/README.md)
FUZZ_SECONDS ?= 60
fuzz: deps
	fuzz/build.sh && fuzz/run.sh $(FUZZ_SECONDS)

## lab: run the lab in the foreground (Ctrl-C stops it)
lab: build
	$(BIN)/runner-lab --http-port $(HTTP_PORT) --https-port $(HTTPS_PORT) --dns-port $(DNS_PORT) --rank-port $(RANK_PORT) --grpc-tls-port $(GRPC_TLS_PORT) --grpc-port $(GRPC_PORT) --state-dir $(LAB_DIR)

clean:
	rm -rf .build .build-release .build-fuzz $(LAB_DIR) $(DEMO_DIR) .bench
