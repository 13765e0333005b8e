import ActivityModel
import DBus

/// One live activity as the tray menu shows it: its card's title and body, and its buttons
/// (`Actions`). The same rows the GNOME extension and the Plasma applet draw.
package struct TrayMenuSection: Equatable, Sendable {
    let activityID: String
    let title: String
    let body: String
    let actions: [CardButton]

    package init(activityID: String, title: String, body: String, actions: [CardButton]) {
        self.activityID = activityID
        self.title = title
        self.body = body
        self.actions = actions
    }
}

/// The tray item's menu as `com.canonical.dbusmenu` items: ids that stay the same for the
/// same row while the menu changes (a host may send a click for an id it got earlier), the
/// properties of each item, and which button an id stands for.
package struct TrayMenuModel {
    /// One item under the root, in display order.
    struct Item: Equatable {
        let id: Int32
        let properties: [String: DBusValue]
        /// The (activity id, action key) a click runs; nil for rows that only show text.
        let action: (activity: String, key: String)?

        static func == (a: Item, b: Item) -> Bool {
            a.id == b.id && a.properties == b.properties && a.action?.activity == b.action?.activity && a.action?.key == b.action?.key
        }
    }

    static let rootID: Int32 = 0
    static let nothingLive = "Nothing live"

    private(set) var items: [Item] = []
    /// The id given to each row (`<activity>/title`, `<activity>/action/<key>`, …).
    private var ids: [String: Int32] = [:]
    private var nextID: Int32 = 1

    /// Rebuilds the items from `sections`, keeping the ids of rows that stay.
    mutating func rebuild(_ sections: [TrayMenuSection]) {
        var rows: [(name: String, properties: [String: DBusValue], action: (activity: String, key: String)?)] = []
        func text(_ label: String) -> [String: DBusValue] {
            ["label": .string(Self.escaped(label)), "enabled": .boolean(false)]
        }
        for (index, section) in sections.enumerated() {
            let prefix = section.activityID + "/"
            if index > 0 { rows.append((prefix + "separator", ["type": .string("separator")], nil)) }
            rows.append((prefix + "title", text(section.title), nil))
            if !section.body.isEmpty {
                // dbusmenu labels are one line; a multi-line body shows as one row per line.
                for (line, part) in section.body.split(separator: "\n").enumerated() {
                    rows.append((prefix + "body/\(line)", text(String(part)), nil))
                }
            }
            for button in section.actions {
                rows.append((prefix + "action/" + button.key, ["label": .string(Self.escaped(button.label))],
                             (section.activityID, button.key)))
            }
        }
        if sections.isEmpty { rows.append(("nothing", text(Self.nothingLive), nil)) }
        var kept: [String: Int32] = [:]
        items = rows.map { row in
            let id = ids[row.name] ?? { defer { nextID += 1 }; return nextID }()
            kept[row.name] = id
            return Item(id: id, properties: row.properties, action: row.action)
        }
        ids = kept
    }

    func item(_ id: Int32) -> Item? { items.first { $0.id == id } }

    /// The root's properties: its children show as a submenu.
    static let rootProperties: [String: DBusValue] = ["children-display": .string("submenu")]

    /// A label as dbusmenu wants it: `_` marks a mnemonic, so a literal one is doubled.
    static func escaped(_ label: String) -> String { String(label.flatMap { $0 == "_" ? ["_", "_"] : [$0] }) }
}
