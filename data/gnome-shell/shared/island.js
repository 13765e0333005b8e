// Shared by both builds (see rows.js): Gio, GLib, St, Clutter, Main and PanelMenu come from
// the build's header; ActivityRow and styleStatus from rows.js, LockScreenView from
// lockscreen.js, written just before this.
//
// The island: a top-bar button whose label is the daemon's CompactText, with a menu of the
// live activities; while the screen is locked, the lock screen's view of them instead (the
// button and its menu belong to the user session only). Driven only by the bus: the daemon's
// name appearing and vanishing, PropertiesChanged of the manager and of each activity, and the
// ObjectManager's InterfacesAdded/Removed; and by the shell: its session mode (locked or not),
// the menu opening and GNOME's `show-in-lock-screen`. Every call is asynchronous; destroy()
// leaves nothing behind.
//
// Cheap for the shell (issue 29): a ticking activity changes the daemon's CompactText and its
// own properties once a second. While the menu is closed a tick touches the label's text only
// (and only when it changed): no row is updated, moved or restyled; rows are made and dropped
// as activities come and go (a menu with no item does not open), and brought up to date when
// the menu opens and on every change while it is open.
const BUS_NAME = 'io.github.liveactivities.LiveActivities1';
const MANAGER_PATH = '/io/github/liveactivities/LiveActivities1';
const ACTIVITY_INTERFACE = `${BUS_NAME}.Activity`;
const LIVE = ['active', 'paused', 'stale'];
const ROW_PROPERTIES = ['Id', 'Status', 'Title', 'Body', 'Progress', 'Actions', 'Relevance', 'StartedAt', 'Segments',
    'Points', 'SegmentText'];
/** The properties that decide which activity is on top (the label's style) and which are live. */
const ORDER_PROPERTIES = ['Status', 'Relevance', 'StartedAt'];
const LOCK_PROPERTIES = ['Status', 'Title', 'Body', 'CompactTrailing', 'Progress', 'Segments', 'Points', 'Relevance',
    'StartedAt', 'LockScreen', 'KindName'];

/** A cached property of a proxy, unpacked (undefined when absent). */
function cached(proxy, name) {
    const value = proxy.get_cached_property(name);
    return value ? value.deep_unpack() : undefined;
}

/** The named cached properties of `proxy`, by name. */
function cachedProperties(proxy, names) {
    return Object.fromEntries(names.map(name => [name, cached(proxy, name)]));
}

/** The status of the most relevant of `activities` (relevance, then the newest), 'active' for none. */
function topStatus(activities) {
    let top = null;
    for (const activity of activities) {
        if (!top || (activity.Relevance ?? 0) > (top.Relevance ?? 0) ||
            ((activity.Relevance ?? 0) === (top.Relevance ?? 0) && (activity.StartedAt ?? 0) > (top.StartedAt ?? 0)))
            top = activity;
    }
    return top ? top.Status : 'active';
}

function cancelled(error) {
    return error.matches(Gio.IOErrorEnum, Gio.IOErrorEnum.CANCELLED);
}

var Island = class Island {
    constructor() {
        this._rows = new Map(); // object path -> ActivityRow
        this._signals = [];
        this._manager = null;
        this._objects = null;
        this._cancellable = null;
        this._button = new PanelMenu.Button(0.0, 'Live Activities');
        this._label = new St.Label({ text: '', style_class: 'liveactivities-island', y_align: Clutter.ActorAlign.CENTER });
        this._button.add_child(this._label);
        this._button.visible = false;
        this._status = 'active'; // the most relevant live activity's, shown by the label's style
        this._labelStatus = null;
        this._rowOrder = null; // the rows' order last applied to the menu (their paths)
        this._menuOpened = this._button.menu.connect('open-state-changed', (_menu, open) => {
            if (open)
                this._syncRows();
        });
        Main.panel.addToStatusArea('liveactivities', this._button);
        this._watch = Gio.DBus.session.watch_name(BUS_NAME, Gio.BusNameWatcherFlags.NONE,
            () => this._daemonAppeared(), () => this._daemonVanished());
        this._lock = null;
        this._locked = false;
        this._notificationSettings = new Gio.Settings({ schema_id: 'org.gnome.desktop.notifications' });
        this._privacyChanged = this._notificationSettings.connect('changed::show-in-lock-screen', () => this._syncLock());
        this._sessionUpdated = Main.sessionMode.connect('updated', () => this._sessionChanged());
        this._sessionChanged();
    }

    destroy() {
        Main.sessionMode.disconnect(this._sessionUpdated);
        this._notificationSettings.disconnect(this._privacyChanged);
        this._notificationSettings = null;
        this._lock?.destroy();
        this._lock = null;
        Gio.DBus.session.unwatch_name(this._watch);
        this._daemonVanished();
        this._button.menu.disconnect(this._menuOpened);
        this._button.destroy();
        this._button = null;
        this._label = null;
    }

    _connect(object, signal, callback) {
        this._signals.push([object, object.connect(signal, callback)]);
    }

    /** The daemon took its name: follow its manager object and its activities. */
    _daemonAppeared() {
        this._daemonVanished();
        const cancellable = this._cancellable = new Gio.Cancellable();
        Gio.DBusProxy.new(Gio.DBus.session, Gio.DBusProxyFlags.DO_NOT_AUTO_START, null, BUS_NAME, MANAGER_PATH,
            BUS_NAME, cancellable, (_source, result) => {
                try {
                    this._manager = Gio.DBusProxy.new_finish(result);
                } catch (error) {
                    if (!cancelled(error))
                        logError(error, 'Live Activities: manager proxy');
                    return;
                }
                this._connect(this._manager, 'g-properties-changed', () => this._sync());
                this._sync();
            });
        Gio.DBusObjectManagerClient.new(Gio.DBus.session, Gio.DBusObjectManagerClientFlags.DO_NOT_AUTO_START,
            BUS_NAME, MANAGER_PATH, null, cancellable, (_source, result) => {
                try {
                    this._objects = Gio.DBusObjectManagerClient.new_finish(result);
                } catch (error) {
                    if (!cancelled(error))
                        logError(error, 'Live Activities: object manager');
                    return;
                }
                this._connect(this._objects, 'object-added', () => this._syncRows());
                this._connect(this._objects, 'object-removed', () => this._syncRows());
                this._connect(this._objects, 'interface-proxy-properties-changed',
                    (_objects, _object, _proxy, changed) => this._activityChanged(changed));
                this._syncRows();
            });
    }

    /** The daemon is gone (or the island is going): drop every proxy, signal and row. */
    _daemonVanished() {
        this._cancellable?.cancel();
        this._cancellable = null;
        for (const [object, id] of this._signals)
            object.disconnect(id);
        this._signals = [];
        this._manager = null;
        this._objects = null;
        for (const row of this._rows.values())
            row.destroy();
        this._rows.clear();
        this._rowOrder = null;
        this._status = 'active';
        this._sync();
    }

    /** An activity's properties changed (a tick, an Update): while the menu is closed and the
     *  screen unlocked, only a change of what is live or on top matters (the label's text is
     *  the manager's CompactText); otherwise the rows or the lock screen follow. */
    _activityChanged(changed) {
        if (this._lock || this._button.menu.isOpen ||
            ORDER_PROPERTIES.some(name => changed.lookup_value(name, null) !== null))
            this._syncRows();
    }

    /** Locked: the lock screen's view in the unlock dialog, and no button. Unlocked: the
     *  button again, its rows brought up to date. */
    _sessionChanged() {
        const locked = this._locked = Main.sessionMode.isLocked;
        if (locked && !this._lock) {
            this._button.menu.close();
            const box = Main.screenShield?._dialog?._notificationsBox;
            if (box)
                this._lock = new LockScreenView(box);
            else
                log('Live Activities: locked, but the unlock dialog has no notification box to show activities in');
        } else if (!locked && this._lock) {
            this._lock.destroy();
            this._lock = null;
        }
        this._syncRows();
    }

    /** The live activities' proxies, by object path. */
    _live() {
        const live = new Map();
        for (const object of this._objects?.get_objects() ?? []) {
            const proxy = object.get_interface(ACTIVITY_INTERFACE);
            if (proxy && LIVE.includes(cached(proxy, 'Status')))
                live.set(object.get_object_path(), proxy);
        }
        return live;
    }

    /** The lock screen shows, most relevant first, each live activity the daemon lets it
     *  show (`LockScreen` not off), and none when GNOME's `show-in-lock-screen` is off. */
    _syncLock() {
        if (!this._lock)
            return;
        const allowed = this._notificationSettings.get_boolean('show-in-lock-screen');
        const activities = allowed ? [...this._live().values()].map(proxy => cachedProperties(proxy, LOCK_PROPERTIES))
            .filter(properties => properties.LockScreen !== 'off')
            .sort((a, b) => (b.Relevance ?? 0) - (a.Relevance ?? 0) || (b.StartedAt ?? 0) - (a.StartedAt ?? 0)) : [];
        this._lock.show(activities);
    }

    /** One row per live activity, most relevant first (relevance, then the newest); while
     *  locked, the lock screen's view instead (the menu cannot open then). While the menu is
     *  closed, rows are only made (shown once) and dropped; their contents, order and lines
     *  follow when it opens. */
    _syncRows() {
        if (this._lock) {
            this._syncLock();
            this._sync();
            return;
        }
        const live = this._live();
        for (const [path, row] of this._rows) {
            if (!live.has(path)) {
                row.destroy();
                this._rows.delete(path);
            }
        }
        const open = this._button.menu.isOpen;
        for (const [path, proxy] of live) {
            let row = this._rows.get(path);
            const made = !row;
            if (made) {
                row = new ActivityRow(cached(proxy, 'Id'), (id, action) => this._invoke(id, action));
                this._rows.set(path, row);
                this._button.menu.addMenuItem(row.section);
            }
            if (made || open)
                row.update(cachedProperties(proxy, ROW_PROPERTIES));
        }
        if (open)
            this._orderRows();
        this._status = topStatus([...live.values()].map(proxy => cachedProperties(proxy, ORDER_PROPERTIES)));
        this._sync();
    }

    /** Puts the rows in order (moving menu items only when the order changed) and the line
     *  above every row but the first. */
    _orderRows() {
        const ordered = [...this._rows.entries()]
            .sort(([, a], [, b]) => b.relevance - a.relevance || b.startedAt - a.startedAt);
        const order = ordered.map(([path]) => path).join('\n');
        if (order !== this._rowOrder) {
            this._rowOrder = order;
            ordered.forEach(([, row], index) => this._button.menu.moveMenuItem(row.section, index));
        }
        ordered.forEach(([, row], index) => row.setFirst(index === 0));
    }

    /** The label is CompactText, styled by the top activity's status; the island shows while
     *  it is not empty, in the user session. Sets only what changed. */
    _sync() {
        const text = this._manager ? cached(this._manager, 'CompactText') ?? '' : '';
        setText(this._label, text);
        if (this._status !== this._labelStatus) {
            this._labelStatus = this._status;
            styleStatus(this._label, this._status);
        }
        const visible = text !== '' && !this._locked;
        if (!visible)
            this._button.menu.close();
        if (this._button.visible !== visible)
            this._button.visible = visible;
    }

    /** A button in the menu: the daemon does what the card's button does. */
    _invoke(id, action) {
        this._manager?.call('InvokeAction', new GLib.Variant('(ss)', [id, action]), Gio.DBusCallFlags.NO_AUTO_START,
            -1, this._cancellable, (proxy, result) => {
                try {
                    proxy.call_finish(result);
                } catch (error) {
                    if (!cancelled(error))
                        log(`Live Activities: ${action} on ${id}: ${error.message}`);
                }
            });
    }
};
