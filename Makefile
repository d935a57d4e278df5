# focuscrawl — see README.md. Every target works offline once the Go
# modules are in the module cache (the first build fetches them).
GO      ?= go
BIN     ?= bin
# make install copies the commands to $(DESTDIR)$(BINDIR): /usr/local/bin by
# default; PREFIX=$$HOME/.local, or BINDIR=$$(go env GOPATH)/bin, for others.
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
export GOFLAGS ?= -buildvcs=false

# Packages with goroutines of their own: tested with -race.
RACE_DIRS := internal/jsonl internal/cli internal/fetcher internal/frontier internal/text internal/scoring \
             internal/simweb internal/siteverify internal/search internal/dedup \
             internal/seenset internal/warc internal/mirrorweb internal/report internal/render cmd/fetch cmd/seed cmd/verify cmd/dedupe cmd/score \
             cmd/segment cmd/simweb internal/stage
RACE_PKGS := $(foreach d,$(RACE_DIRS),$(if $(wildcard $(d)),./$(d)/...))

.PHONY: all build install test test-race lint vet fmt-check staticcheck demo bench fuzz clean killtest

all: build

build:
	@mkdir -p $(BIN)
	$(GO) build -trimpath -o $(BIN)/ ./cmd/...

install: build
	install -d $(DESTDIR)$(BINDIR)
	install -m 0755 $(BIN)/* $(DESTDIR)$(BINDIR)/

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './scripts/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# staticcheck is pinned and run through go run, so CI needs nothing beyond
# the Go module proxy.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
staticcheck:
	$(GO) run $(STATICCHECK) ./...

lint: vet fmt-check staticcheck

# The test command of the README and of CI: vet, gofmt, staticcheck, the whole suite,
# and the concurrent packages again under the race detector. A race-built
# program sleeps GORACE's atexit_sleep_ms (1 s by default) as it exits, and
# the command tests run the race-built commands hundreds of times: 100 ms
# still lets a report be printed, and took cmd/seed's race run from 223 s
# to 74 s.
test: lint build
	$(GO) test -count=1 ./...
	$(if $(RACE_PKGS),GORACE="$(GORACE) atexit_sleep_ms=100" $(GO) test -count=1 -race $(RACE_PKGS))

# The kill test as a gate (scripts/killtest.sh; docs/frontier.md, "When a
# stage dies"): KILLTEST = KILLS PAGES SIGKILLs over a crawl of simweb, on
# SQLite, on Redis (the tests' server, database 15, a prefix of its own
# that is deleted after) and on PostgreSQL (the tests' server, database
# test, a schema of its own that is dropped after), each checked for URLs
# lost, an archive that does not read back whole, processes or files left
# behind. 6 kills over 400 pages took 31 s (SQLite) and 38–59 s (Redis)
# on the 2-core machine at a load average of 13–15, 57 s for both at 9.
# CI runs it (.ci/run).
KILLTEST ?= 6 400
KILLTEST_REDIS ?= $(or $(FOCUSCRAWL_TEST_REDIS),redis://127.0.0.1:6379/15)
KILLTEST_POSTGRES ?= $(or $(FOCUSCRAWL_TEST_POSTGRES),postgres://postgres@127.0.0.1:5432/test)
killtest: build
	@out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT && \
	BIN=$(BIN) OUT=$$out/sqlite SEED=26 scripts/killtest.sh $(KILLTEST) && \
	BIN=$(BIN) STORE=redis REDIS=$(KILLTEST_REDIS) OUT=$$out/redis SEED=26 scripts/killtest.sh $(KILLTEST) && \
	BIN=$(BIN) STORE=postgres POSTGRES=$(KILLTEST_POSTGRES) OUT=$$out/postgres SEED=26 scripts/killtest.sh $(KILLTEST)

# Every fuzz target of the repository (found by their func Fuzz lines),
# one after another, each for FUZZTIME. The corpus each run finds new is
# kept in the Go build cache; failing inputs go to testdata/fuzz.
# -timeout 0: go test's default 10m limit would end a 10m FUZZTIME run.
# FUZZFLAGS adds go test flags (e.g. -parallel 1 on a shared machine).
FUZZTIME ?= 60s
FUZZFLAGS ?=
fuzz:
	@set -e; for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$dir/*_test.go); do \
	    echo "== $$dir $$target for $(FUZZTIME)"; \
	    $(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) -timeout 0 $(FUZZFLAGS) $$dir; \
	  done; \
	done

demo: build
	@bash scripts/demo.sh

bench: build
	@bash scripts/bench.sh

clean:
	rm -rf $(BIN)
