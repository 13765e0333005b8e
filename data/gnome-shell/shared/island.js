// Shared by both builds (see rows.js): Gio, GLib, St, Clutter, Main and PanelMenu come from
// the build's header; ActivityRow and styleStatus from rows.js, LockScreenView from
// lockscreen.js, written just before this.
//
// The island: a top-bar button whose label is the daemon's CompactText, with a menu of the
// live activities; while the screen is locked, the lock screen's view of them instead (the
// button and its menu belong to the user session only). Driven only by the bus: the daemon's
// name appearing and vanishing, PropertiesChanged of the manager and of each activity, and the
// ObjectManager; and by the shell: its session mode (locked or not), the menu opening and
// GNOME's `show-in-lock-screen`. Every call is asynchronous; destroy() leaves nothing behind.
//
// Cheap for the shell (issue 29): a ticking activity changes the daemon's CompactText and its
// own properties once a second. While the menu is closed and the screen unlocked, the island
// follows the manager only: its PropertiesChanged (the label's text) and its own signals
// (ActivityStarted, ActivityEnded, StatusChanged; ActivityUpdated while live activities differ
// in status), on each of which it reads the live activities once with the ObjectManager's
// GetManagedObjects (one read at a time): which are live, and which is on top (the label's
// style). So a tick reaches the shell as one message, not two, and touches the label's text
// only (and only when it changed). While the menu is open or the screen locked, it follows
// every activity's PropertiesChanged (a Gio.DBusObjectManagerClient, made then and dropped
// after), and the rows or the lock screen follow each change.
const BUS_NAME = 'io.github.liveactivities.LiveActivities1';
const MANAGER_PATH = '/io/github/liveactivities/LiveActivities1';
const ACTIVITY_INTERFACE = `${BUS_NAME}.Activity`;
const LIVE = ['active', 'paused', 'stale'];
const OBJECT_MANAGER_INTERFACE = 'org.freedesktop.DBus.ObjectManager';
/** What a row and the lock screen show, and what decides which activity is on top. */
const SHOWN_PROPERTIES = ['Id', 'Status', 'Title', 'Body', 'Progress', 'Actions', 'Relevance', 'StartedAt', 'Segments',
    'Points', 'SegmentText', 'CompactTrailing', 'LockScreen', 'KindName'];

/** A cached property of a proxy, unpacked (undefined when absent). */
function cached(proxy, name) {
    const value = proxy.get_cached_property(name);
    return value ? value.deep_unpack() : undefined;
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

/** The live activities' shown properties, unpacked, by object path. `objects`: [path, lookup]
 *  pairs, where lookup(name) is the property's value as a GLib.Variant (a proxy's cache, or a
 *  GetManagedObjects answer), and null for an object that is not an activity. */
function liveActivities(objects) {
    const live = new Map();
    for (const [path, lookup] of objects) {
        if (!lookup)
            continue;
        const properties = Object.fromEntries(SHOWN_PROPERTIES.map(name => [name, lookup(name)?.deep_unpack()]));
        if (LIVE.includes(properties.Status))
            live.set(path, properties);
    }
    return live;
}

/** An ObjectManager's GetManagedObjects answer as `liveActivities`. */
function liveFromManagedObjects(answer) {
    const [objects] = answer.deep_unpack();
    return liveActivities(Object.entries(objects).map(([path, interfaces]) => {
        const properties = interfaces[ACTIVITY_INTERFACE];
        return [path, properties ? name => properties[name] : null];
    }));
}

var Island = class Island {
    constructor() {
        this._rows = new Map(); // object path -> ActivityRow
        this._signals = [];
        this._manager = null;
        this._objects = null; // a Gio.DBusObjectManagerClient, while the menu is open or the screen locked
        this._objectSignals = [];
        this._objectsCancellable = null;
        this._read = null; // the live activities from the last GetManagedObjects, by object path
        this._reading = false;
        this._readAgain = false;
        this._cancellable = null;
        this._button = new PanelMenu.Button(0.0, 'Live Activities');
        this._label = new St.Label({ text: '', style_class: 'liveactivities-island', y_align: Clutter.ActorAlign.CENTER });
        this._button.add_child(this._label);
        this._button.visible = false;
        this._status = 'active'; // the most relevant live activity's, shown by the label's style
        this._labelStatus = null;
        this._rowOrder = null; // the rows' order last applied to the menu (their paths)
        // Opened: the rows show the last read at once, and follow the object manager client once it is there.
        this._menuOpened = this._button.menu.connect('open-state-changed', () => {
            this._followActivities();
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

    /** The daemon took its name: follow its manager (and, when needed, every activity). */
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
                // ActivityStarted, ActivityUpdated, ActivityEnded, StatusChanged: what is live or on top may have changed.
                this._connect(this._manager, 'g-signal', (_proxy, _sender, signal) => this._managerSignalled(signal));
                this._readLive();
                this._sync();
            });
        this._followActivities();
    }

    /** The daemon is gone (or the island is going): drop every proxy, signal and row. */
    _daemonVanished() {
        this._cancellable?.cancel();
        this._cancellable = null;
        for (const [object, id] of this._signals)
            object.disconnect(id);
        this._signals = [];
        this._reading = this._readAgain = false;
        this._read = null;
        this._dropObjects();
        this._manager = null;
        for (const row of this._rows.values())
            row.destroy();
        this._rows.clear();
        this._rowOrder = null;
        this._status = 'active';
        this._sync();
    }

    /** Whether every activity's changes matter now: the menu is open, or the lock screen shows them. */
    _needsActivities() {
        return this._cancellable !== null && (this._locked || this._button.menu.isOpen);
    }

    /** Makes the object manager client when every activity's changes matter (the rows or the
     *  lock screen follow it once it is there), drops it when they no longer do (and reads the
     *  live activities again: the last read is older than the client). */
    _followActivities() {
        if (this._needsActivities() && !this._objectsCancellable) {
            const cancellable = this._objectsCancellable = new Gio.Cancellable();
            Gio.DBusObjectManagerClient.new(Gio.DBus.session, Gio.DBusObjectManagerClientFlags.DO_NOT_AUTO_START,
                BUS_NAME, MANAGER_PATH, null, cancellable, (_source, result) => {
                    let objects;
                    try {
                        objects = Gio.DBusObjectManagerClient.new_finish(result);
                    } catch (error) {
                        if (!cancelled(error))
                            logError(error, 'Live Activities: object manager');
                        return;
                    }
                    this._objects = objects;
                    for (const signal of ['object-added', 'object-removed', 'interface-proxy-properties-changed'])
                        this._objectSignals.push(objects.connect(signal, () => this._syncRows()));
                    this._syncRows();
                });
        } else if (!this._needsActivities() && this._objectsCancellable) {
            this._dropObjects();
            this._readLive();
        }
    }

    _dropObjects() {
        this._objectsCancellable?.cancel();
        this._objectsCancellable = null;
        for (const id of this._objectSignals)
            this._objects.disconnect(id);
        this._objectSignals = [];
        this._objects = null;
    }

    /** One of the manager's signals: while the island follows the manager only, read the live
     *  activities again when what is live or on top may have changed (the object manager
     *  client follows them itself). An Update can change which activity is on top only by its
     *  relevance, and the label's style only when the live activities differ in status. */
    _managerSignalled(signal) {
        if (this._objectsCancellable || signal === 'ActionInvoked')
            return;
        if (signal === 'ActivityUpdated' && new Set([...this._live().values()].map(p => p.Status)).size < 2)
            return;
        this._readLive();
    }

    /** Reads the live activities with GetManagedObjects, one read at a time: a signal during a
     *  read reads once more at its end. */
    _readLive() {
        const cancellable = this._cancellable;
        if (!cancellable)
            return;
        if (this._reading) {
            this._readAgain = true;
            return;
        }
        this._reading = true;
        Gio.DBus.session.call(BUS_NAME, MANAGER_PATH, OBJECT_MANAGER_INTERFACE, 'GetManagedObjects', null,
            new GLib.VariantType('(a{oa{sa{sv}}})'), Gio.DBusCallFlags.NO_AUTO_START, -1, cancellable,
            (connection, result) => {
                let live = null;
                try {
                    live = liveFromManagedObjects(connection.call_finish(result));
                } catch (error) {
                    if (cancelled(error))
                        return;
                    log(`Live Activities: reading the activities: ${error.message}`);
                }
                this._reading = false;
                if (live)
                    this._read = live;
                if (!this._objectsCancellable)
                    this._syncRows();
                if (this._readAgain) {
                    this._readAgain = false;
                    this._readLive();
                }
            });
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
        this._followActivities();
        this._syncRows();
    }

    /** The live activities' properties, by object path: from the object manager client's
     *  proxies while it is there, else from the last read. */
    _live() {
        if (!this._objects)
            return this._read ?? new Map();
        return liveActivities(this._objects.get_objects().map(object => {
            const proxy = object.get_interface(ACTIVITY_INTERFACE);
            return [object.get_object_path(), proxy ? name => proxy.get_cached_property(name) : null];
        }));
    }

    /** The lock screen shows, most relevant first, each live activity the daemon lets it
     *  show (`LockScreen` not off), and none when GNOME's `show-in-lock-screen` is off. */
    _syncLock() {
        if (!this._lock)
            return;
        const allowed = this._notificationSettings.get_boolean('show-in-lock-screen');
        const activities = allowed ? [...this._live().values()]
            .filter(properties => properties.LockScreen !== 'off')
            .sort((a, b) => (b.Relevance ?? 0) - (a.Relevance ?? 0) || (b.StartedAt ?? 0) - (a.StartedAt ?? 0)) : [];
        this._lock.show(activities);
    }

    /** One row per live activity, most relevant first (relevance, then the newest); while
     *  locked, the lock screen's view instead (the menu cannot open then). While the menu is
     *  closed, rows are only made (with what the read showed) and dropped; their contents,
     *  order and lines follow when it opens. */
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
        for (const [path, properties] of live) {
            let row = this._rows.get(path);
            const made = !row;
            if (made) {
                row = new ActivityRow(properties.Id, (id, action) => this._invoke(id, action));
                this._rows.set(path, row);
                this._button.menu.addMenuItem(row.section);
            }
            if (made || open)
                row.update(properties);
        }
        if (open)
            this._orderRows();
        this._status = topStatus(live.values());
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
