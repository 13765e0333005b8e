# LiveActivities: build, test and install (PREFIX defaults to ~/.local).
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
BUS_NAME = io.github.liveactivities.LiveActivities1
PLASMOID = io.github.liveactivities.compact
PLASMOID_DIR = $(DATADIR)/plasma/plasmoids/$(PLASMOID)
CONFIG ?= release
GNOME_EXTENSION = liveactivities@liveactivities.github.io

.PHONY: all build test run install install-files uninstall clean

all: build

build:
	swift build -c $(CONFIG)

test:
	scripts/test

run:
	scripts/run

install: build
	$(MAKE) install-files BIN="$$(swift build -c $(CONFIG) --show-bin-path)"

# Copies built binaries from BIN and the data files; `install` builds first.
install-files:
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/dbus-1/interfaces $(DESTDIR)$(DATADIR)/dbus-1/services \
	  $(DESTDIR)$(DATADIR)/systemd/user $(DESTDIR)$(DATADIR)/liveactivities/kinds
	install -m 755 "$(BIN)/liveactivityd" $(DESTDIR)$(BINDIR)/liveactivityd
	install -m 755 "$(BIN)/liveactivity" $(DESTDIR)$(BINDIR)/liveactivity
	install -m 644 data/dbus/$(BUS_NAME).xml $(DESTDIR)$(DATADIR)/dbus-1/interfaces/$(BUS_NAME).xml
	sed 's|@BINDIR@|$(BINDIR)|g' data/dbus/$(BUS_NAME).service.in > $(DESTDIR)$(DATADIR)/dbus-1/services/$(BUS_NAME).service
	sed 's|@BINDIR@|$(BINDIR)|g' data/systemd/liveactivityd.service.in > $(DESTDIR)$(DATADIR)/systemd/user/liveactivityd.service
	install -m 644 data/kinds/*.json $(DESTDIR)$(DATADIR)/liveactivities/kinds/
	install -d $(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(GNOME_EXTENSION)
	install -m 644 data/gnome-shell/$(GNOME_EXTENSION)/* $(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(GNOME_EXTENSION)/
	install -d $(DESTDIR)$(PLASMOID_DIR)/contents/ui $(DESTDIR)$(PLASMOID_DIR)/contents/code
	install -m 644 data/plasma/$(PLASMOID)/metadata.json $(DESTDIR)$(PLASMOID_DIR)/
	install -m 644 data/plasma/$(PLASMOID)/contents/ui/*.qml -t $(DESTDIR)$(PLASMOID_DIR)/contents/ui
	install -m 644 data/plasma/$(PLASMOID)/contents/code/*.js -t $(DESTDIR)$(PLASMOID_DIR)/contents/code
	sed 's|@BINDIR@|$(BINDIR)|g' data/plasma/$(PLASMOID)/contents/ui/main.qml > $(DESTDIR)$(PLASMOID_DIR)/contents/ui/main.qml

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/liveactivityd $(DESTDIR)$(BINDIR)/liveactivity \
	  $(DESTDIR)$(DATADIR)/dbus-1/interfaces/$(BUS_NAME).xml \
	  $(DESTDIR)$(DATADIR)/dbus-1/services/$(BUS_NAME).service \
	  $(DESTDIR)$(DATADIR)/systemd/user/liveactivityd.service
	rm -rf $(DESTDIR)$(DATADIR)/liveactivities
	rm -rf $(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(GNOME_EXTENSION)
	rm -rf $(DESTDIR)$(PLASMOID_DIR)

clean:
	swift package clean
