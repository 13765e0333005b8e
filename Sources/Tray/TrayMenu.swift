import DBus
import ServiceSupport

/// The tray item's menu, a `com.canonical.dbusmenu` object at `/MenuBar` on the daemon's
/// connection (the item's `Menu` property points here). It shows each live activity's
/// title, body and buttons; a click runs the button as `InvokeAction` does. A change of rows
/// is announced with `LayoutUpdated`, a change of text only with `ItemsPropertiesUpdated`.
package final class TrayMenu {
    static let path = "/MenuBar"

    let server: DBusObjectServer
    /// Runs a button: (activity id, action key).
    let onAction: (String, String) -> Void
    private(set) var revision: UInt32 = 1
    private var sections: [TrayMenuSection] = []
    private var builtModel = TrayMenuModel()
    /// Whether `builtModel` lags `sections`: with no host to announce to, a tick does not
    /// rebuild the menu (a timer's row changes every second); the first read does.
    private var modelIsStale = false

    /// The menu's items, as of the latest sections.
    var model: TrayMenuModel {
        if modelIsStale {
            builtModel.rebuild(sections)
            modelIsStale = false
        }
        return builtModel
    }
    /// Called after a host read the layout (`GetLayout`): a host reads the menu only once it
    /// has set the item up, so the item learns here that its signals now reach a ready host.
    var onLayoutRead: (() -> Void)?

    init(server: DBusObjectServer, sections: [TrayMenuSection], onAction: @escaping (String, String) -> Void) {
        self.server = server
        self.onAction = onAction
        self.sections = sections
        builtModel.rebuild(sections)
    }

    func export() throws(DBusError) {
        try server.export(Self.path, [DBusMenuInterface.make(self)])
    }

    /// Shows `new`, announcing what changed (nothing when nothing did).
    /// `announcing` false: the model follows (for reads) but no signal goes out (no host).
    package func update(_ new: [TrayMenuSection], announcing: Bool = true) {
        guard new != sections else { return }
        guard announcing else {
            sections = new
            modelIsStale = true
            revision &+= 1  // a host that comes later reads the layout anew
            return
        }
        let old = model.items
        sections = new
        builtModel.rebuild(new)
        let sameRows = old.map(\.id) == model.items.map(\.id)
            && zip(old, model.items).allSatisfy { $0.properties["type"] == $1.properties["type"] }
        if sameRows {
            let changed = zip(old, model.items).filter { $0.properties != $1.properties }.map { _, item in
                DBusValue.structure([.int32(item.id), .vardict(item.properties)])
            }
            guard !changed.isEmpty else { return }
            emit("ItemsPropertiesUpdated", [.array(elementSignature: "(ia{sv})", changed), .array(elementSignature: "(ias)", [])])
        } else {
            revision &+= 1
            emit("LayoutUpdated", [.uint32(revision), .int32(TrayMenuModel.rootID)])
        }
    }

    /// `(ia{sv}av)` of `parent` (the root or one item), with children down to `depth` (-1: all).
    func layout(parent: Int32, depth: Int64, names: [String]) throws(DBusError) -> DBusValue {
        defer { onLayoutRead?() }
        if parent == TrayMenuModel.rootID {
            let children = depth == 0 ? [] : model.items.map { item in
                DBusValue.variant(node(item.id, Self.filtered(item.properties, names)))
            }
            return node(parent, Self.filtered(TrayMenuModel.rootProperties, names), children)
        }
        guard let item = model.item(parent) else { throw .invalidArgs("no menu item \(parent)") }
        return node(item.id, Self.filtered(item.properties, names))
    }

    /// The properties of item `id` (all, or those named), nil for an unknown id.
    func properties(of id: Int32, names: [String]) -> [String: DBusValue]? {
        if id == TrayMenuModel.rootID { return Self.filtered(TrayMenuModel.rootProperties, names) }
        return model.item(id).map { Self.filtered($0.properties, names) }
    }

    /// A host's event: `clicked` on a button runs it; other events are accepted and ignored.
    func event(id: Int32, name: String) throws(DBusError) {
        guard id == TrayMenuModel.rootID || model.item(id) != nil else { throw .invalidArgs("no menu item \(id)") }
        guard name == "clicked", let action = model.item(id)?.action else { return }
        onAction(action.activity, action.key)
    }

    private func node(_ id: Int32, _ properties: [String: DBusValue], _ children: [DBusValue] = []) -> DBusValue {
        .structure([.int32(id), .vardict(properties), .array(elementSignature: "v", children)])
    }

    private static func filtered(_ properties: [String: DBusValue], _ names: [String]) -> [String: DBusValue] {
        names.isEmpty ? properties : properties.filter { names.contains($0.key) }
    }

    private func emit(_ signal: String, _ arguments: [DBusValue]) {
        do {
            try server.emit(path: Self.path, interface: DBusMenuInterface.name, signal: signal, arguments)
        } catch {
            Log.error("cannot emit \(signal): \(error.message)")
        }
    }
}
