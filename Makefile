# shelf: the two set-up commands are `make sample` and `make test` (see README.md).
PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= debug
BIN := .build/$(CONFIG)

.PHONY: deps build sample test examples install uninstall bench clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c $(CONFIG)

# shelf's main job on the bundled samples: list the plugins, open a book, read its opening; then add the bundled
# library (samples/library, an OPDS catalog on disk) as an account and browse its Audiobooks tab. Everything runs
# in a fresh temporary SHELF_HOME, so the patron's own shelf is never touched.
SAMPLE_HOME ?= $(or $(TMPDIR),/tmp)/shelf-sample-$(shell id -u)
sample: export SHELF_HOME = $(SAMPLE_HOME)
sample: build
	@rm -rf "$(SAMPLE_HOME)" && mkdir -p "$(SAMPLE_HOME)"
	@echo "== shelf plugins"; $(BIN)/shelf plugins
	@echo; echo "== shelf info samples/the-lighthouse-keeper.epub"; $(BIN)/shelf info samples/the-lighthouse-keeper.epub
	@echo; echo "== shelf toc samples/a-winter-crossing.epub"; $(BIN)/shelf toc samples/a-winter-crossing.epub
	@echo; echo "== shelf render samples/the-lighthouse-keeper.epub --width 72"; $(BIN)/shelf render samples/the-lighthouse-keeper.epub --width 72
	@echo; echo "== shelf account add file://$(CURDIR)/samples/library"; $(BIN)/shelf account add "file://$(CURDIR)/samples/library"
	@echo; echo "== shelf browse --format audiobook"; $(BIN)/shelf browse --format audiobook
	@rm -rf "$(SAMPLE_HOME)"

# Tools the tests use to make real audio and a private D-Bus session; not needed to build or run.
TEST_TOOLS := ffmpeg espeak-ng lame zip dbus-daemon

# Builds everything (the products the integration tests run, the C examples) and runs every test.
# The tests are XCTest; Swift Testing is off so the run closes on XCTest's own summary line.
test: build examples
	@scripts/install-deps.sh $(TEST_TOOLS)
	$(SWIFT) test -c $(CONFIG) --disable-swift-testing

examples: deps
	$(MAKE) -C Examples/text-plugin
	$(MAKE) -C Examples/broken-plugins

install:
	scripts/install-deps.sh
	$(SWIFT) build -c release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/shelf/plugins $(DESTDIR)$(PREFIX)/include/shelf $(DESTDIR)$(PREFIX)/lib/pkgconfig
	install -m 0755 .build/release/shelf $(DESTDIR)$(PREFIX)/bin/shelf
	install -m 0755 .build/release/libshelf-*.so $(DESTDIR)$(PREFIX)/lib/shelf/plugins/
	install -m 0644 Sources/PluginAPI/include/shelf/*.h $(DESTDIR)$(PREFIX)/include/shelf/
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|0.1.0|g' scripts/shelf-plugin.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/shelf-plugin.pc

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/shelf $(DESTDIR)$(PREFIX)/lib/pkgconfig/shelf-plugin.pc
	rm -rf $(DESTDIR)$(PREFIX)/lib/shelf $(DESTDIR)$(PREFIX)/include/shelf

# Benchmarks against peers, in one run; not part of the tests. Installs its peers itself.
bench:
	scripts/install-deps.sh hyperfine
	$(SWIFT) build -c release
	bench/run.sh

clean:
	$(SWIFT) package clean
	$(MAKE) -C Examples/text-plugin clean
	$(MAKE) -C Examples/broken-plugins clean
