// Shared by both builds (see rows.js): Gio, GLib, St, Clutter, Main and PanelMenu come from
// the build's header; ActivityRow and styleStatus from rows.js, written just before this.
//
// The island: a top-bar button whose label is the daemon's CompactText, with a menu of the
// live activities. Driven only by the bus: the daemon's name appearing and vanishing,
// PropertiesChanged of the manager and of each activity, and the ObjectManager's
// InterfacesAdded/Removed. Every call is asynchronous; destroy() leaves nothing behind.
const BUS_NAME = 'io.github.liveactivities.LiveActivities1';
const MANAGER_PATH = '/io/github/liveactivities/LiveActivities1';
const ACTIVITY_INTERFACE = `${BUS_NAME}.Activity`;
const LIVE = ['active', 'paused', 'stale'];
const ROW_PROPERTIES = ['Id', 'Status', 'Title', 'Body', 'Progress', 'Actions', 'Relevance', 'StartedAt', 'Segments',
    'Points', 'SegmentText'];

/** A cached property of a proxy, unpacked (undefined when absent). */
function cached(proxy, name) {
    const value = proxy.get_cached_property(name);
    return value ? value.deep_unpack() : undefined;
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
        Main.panel.addToStatusArea('liveactivities', this._button);
        this._watch = Gio.DBus.session.watch_name(BUS_NAME, Gio.BusNameWatcherFlags.NONE,
            () => this._daemonAppeared(), () => this._daemonVanished());
    }

    destroy() {
        Gio.DBus.session.unwatch_name(this._watch);
        this._daemonVanished();
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
                this._connect(this._objects, 'interface-proxy-properties-changed', () => this._syncRows());
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
        this._sync();
    }

    /** One row per live activity, most relevant first (relevance, then the newest). */
    _syncRows() {
        const live = new Map();
        for (const object of this._objects?.get_objects() ?? []) {
            const proxy = object.get_interface(ACTIVITY_INTERFACE);
            if (proxy && LIVE.includes(cached(proxy, 'Status')))
                live.set(object.get_object_path(), proxy);
        }
        for (const [path, row] of this._rows) {
            if (!live.has(path)) {
                row.destroy();
                this._rows.delete(path);
            }
        }
        for (const [path, proxy] of live) {
            let row = this._rows.get(path);
            if (!row) {
                row = new ActivityRow(cached(proxy, 'Id'), (id, action) => this._invoke(id, action));
                this._rows.set(path, row);
                this._button.menu.addMenuItem(row.section);
            }
            row.update(Object.fromEntries(ROW_PROPERTIES.map(name => [name, cached(proxy, name)])));
        }
        this._ordered().forEach((row, index) => {
            this._button.menu.moveMenuItem(row.section, index);
            row.setFirst(index === 0);
        });
        this._sync();
    }

    _ordered() {
        return [...this._rows.values()].sort((a, b) => b.relevance - a.relevance || b.startedAt - a.startedAt);
    }

    /** The label is CompactText; the island shows while it is not empty. */
    _sync() {
        const text = this._manager ? cached(this._manager, 'CompactText') ?? '' : '';
        this._label.text = text;
        const top = this._ordered()[0];
        styleStatus(this._label, top ? top.status : 'active');
        const visible = text !== '';
        if (!visible)
            this._button.menu.close();
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
