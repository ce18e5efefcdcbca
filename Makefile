# shelf: the two set-up commands are `make sample` and `make test` (see README.md).
PREFIX ?= /usr/local
SWIFT ?= swift
CONFIG ?= debug
BIN := .build/$(CONFIG)

.PHONY: deps build sample test lint format browser-test golden examples install install-plugin-kit uninstall deb bench clean

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

# Tools the tests use to make real audio and measure time-stretched speech against FFmpeg's and sox's (numpy runs
# bench/audio/periodicity.py), a private D-Bus session and Secret Service, to check the systemd units
# `shelf watch --install` writes (systemd-analyze), to run the plugin library's tests under valgrind and in a de_DE
# locale, to render the man pages, load the completions in each shell, check the desktop files and build, check and
# unpack the Debian package; not needed to build or run.
DEB_TOOLS := patchelf dpkg-dev binutils
TEST_TOOLS := ffmpeg espeak-ng lame sox python3-numpy zip dbus-daemon valgrind locales dbus-bin gnome-keyring systemd \
	man-db groff-base zsh fish desktop-file-utils appstream shared-mime-info $(DEB_TOOLS) lintian

# Builds everything (the products the integration tests run, the C examples) and runs every test.
# The tests are XCTest; Swift Testing is off so the run closes on XCTest's own summary line.
test: build examples lint
	@scripts/install-deps.sh $(TEST_TOOLS)
	$(MAKE) -C Sources/PluginAPI test
	$(SWIFT) test -c $(CONFIG) --disable-swift-testing
	$(MAKE) browser-test

# The habits CI keeps: every shell script passes shellcheck (a check it skips says why, beside it), the Swift
# sources pass the toolchain's `swift format lint` in the house style (.swift-format: 4 spaces, 120 columns;
# Package.swift is left as written, TargetDirectionTests reads it line by line), and the browser app's scripts
# pass TypeScript's checker over their JSDoc types (web/tsconfig.json).
LINT_TOOLS := shellcheck node-typescript
lint:
	@scripts/install-deps.sh $(LINT_TOOLS)
	shellcheck .ci/run $$(git ls-files '*.sh')
	$(SWIFT) format lint --strict --recursive --configuration .swift-format Sources Plugins Tests
	tsc -p web

# Puts the Swift sources in the house style (then `make lint` passes).
format:
	$(SWIFT) format --in-place --recursive --configuration .swift-format Sources Plugins Tests

# The browser app in a real Chromium (headless, through chromium-driver), with Selenium and axe-core
# (selenium-axe-python from PyPI, in a virtual environment under .build). Screenshots of every page and state
# are kept in .build/browser-artifacts/.
BROWSER_TOOLS := chromium chromium-driver python3-selenium python3-venv python3-jsonschema
BROWSER_VENV := .build/browser-venv
browser-test: build
	@scripts/install-deps.sh $(BROWSER_TOOLS)
	@test -x $(BROWSER_VENV)/bin/python || /usr/bin/python3 -m venv --system-site-packages $(BROWSER_VENV)
	@$(BROWSER_VENV)/bin/python -c "import selenium_axe_python" 2>/dev/null || $(BROWSER_VENV)/bin/pip install -q "selenium-axe-python==2.2.0"
	cd Tests/Browser && SHELF_BUILD_DIR="$(CURDIR)/$(BIN)" "$(CURDIR)/$(BROWSER_VENV)/bin/python" -m unittest -v

# Writes anew the --json documents every command prints (Tests/Golden), which the golden test compares with. A
# change that means to alter them commits their diff with it.
golden: build
	SHELF_GOLDEN_WRITE=1 $(SWIFT) test -c $(CONFIG) --disable-swift-testing --filter GoldenTests

# The plugin author's kit (libshelf-plugin, shelf-plugin-host) and the C example plugins.
examples: deps
	$(MAKE) -C Sources/PluginAPI
	$(MAKE) -C Examples/text-plugin
	$(MAKE) -C Examples/gemini-plugin
	$(MAKE) -C Examples/readinglist-plugin
	$(MAKE) -C Examples/booklog-plugin
	$(MAKE) -C Examples/broken-plugins

# shelf, its plugins and browser app, and what packaging/install-data.sh adds: the man pages and completions shelf
# writes from its command table, the desktop entry, MIME types, metainfo and icon.
install: install-plugin-kit
	scripts/install-deps.sh
	$(SWIFT) build -c release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/shelf/plugins
	install -m 0755 .build/release/shelf $(DESTDIR)$(PREFIX)/bin/shelf
	install -m 0755 .build/release/libshelf-*.so $(DESTDIR)$(PREFIX)/lib/shelf/plugins/
	install -m 0755 .build/release/shelf-plugin-sandbox $(DESTDIR)$(PREFIX)/lib/shelf/
	install -d $(DESTDIR)$(PREFIX)/share/shelf
	cp -R web $(DESTDIR)$(PREFIX)/share/shelf/
	packaging/install-data.sh .build/release/shelf "$(DESTDIR)" "$(PREFIX)"

# What a plugin author builds against: the headers, libshelf-plugin, shelf-plugin-host, shelf-plugin.pc.
install-plugin-kit:
	$(MAKE) -C Sources/PluginAPI install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

uninstall:
	$(MAKE) -C Sources/PluginAPI uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	rm -f $(DESTDIR)$(PREFIX)/bin/shelf
	rm -rf $(DESTDIR)$(PREFIX)/lib/shelf $(DESTDIR)$(PREFIX)/share/shelf
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/shelf.1 $(DESTDIR)$(PREFIX)/share/man/man7/shelf-plugin.7 \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/shelf $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_shelf \
	    $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/shelf.fish \
	    $(DESTDIR)$(PREFIX)/share/applications/org.shelfreader.Shelf.desktop $(DESTDIR)$(PREFIX)/share/mime/packages/shelf.xml \
	    $(DESTDIR)$(PREFIX)/share/metainfo/org.shelfreader.Shelf.metainfo.xml \
	    $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/org.shelfreader.Shelf.svg

# The Debian packages shelf_VERSION_ARCH.deb and shelf-plugin-dev_VERSION_ARCH.deb, in build/deb
# (packaging/build-deb.sh says what they hold). A release build unless CONFIG is given on the command line
# (`make deb CONFIG=debug` packages the debug build, stripped).
DEB_CONFIG := $(if $(filter command line,$(origin CONFIG)),$(CONFIG),release)
deb: deps
	@scripts/install-deps.sh $(DEB_TOOLS)
	$(SWIFT) build -c $(DEB_CONFIG)
	packaging/build-deb.sh .build/$(DEB_CONFIG) build/deb

# Benchmarks against peers, in one run; not part of the tests. Installs its peers itself.
bench:
	scripts/install-deps.sh hyperfine
	$(SWIFT) build -c release
	bench/run.sh

clean:
	$(SWIFT) package clean
	$(MAKE) -C Sources/PluginAPI clean
	$(MAKE) -C Examples/text-plugin clean
	$(MAKE) -C Examples/gemini-plugin clean
	$(MAKE) -C Examples/readinglist-plugin clean
	$(MAKE) -C Examples/booklog-plugin clean
	$(MAKE) -C Examples/broken-plugins clean
