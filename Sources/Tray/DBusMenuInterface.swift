import DBus

/// `com.canonical.dbusmenu` (version 3) as a table, serving a `TrayMenu`: one level of items
/// under the root. Hosts (GNOME's AppIndicator extension, Plasma, waybar) read the layout,
/// follow `LayoutUpdated` and `ItemsPropertiesUpdated`, and send `Event(id, "clicked", …)`.
package enum DBusMenuInterface {
    static let name = "com.canonical.dbusmenu"

    static func make(_ menu: TrayMenu) -> DBusInterface {
        let layoutSignature = "(ia{sv}av)"
        return DBusInterface(
            name: name,
            methods: [
                DBusMethod("GetLayout", inputs: [DBusArgument("parentId", "i"), DBusArgument("recursionDepth", "i"),
                                                 DBusArgument("propertyNames", "as")],
                           outputs: [DBusArgument("revision", "u"), DBusArgument("layout", layoutSignature)]) { call throws(DBusError) in
                    let (parent, depth, names) = (call.arguments[0].integer ?? 0, call.arguments[1].integer ?? -1,
                                                  strings(call.arguments[2]))
                    return [.uint32(menu.revision), try menu.layout(parent: Int32(truncatingIfNeeded: parent),
                                                                    depth: depth, names: names)]
                },
                DBusMethod("GetGroupProperties", inputs: [DBusArgument("ids", "ai"), DBusArgument("propertyNames", "as")],
                           outputs: [DBusArgument("properties", "a(ia{sv})")]) { call throws(DBusError) in
                    let ids = integers(call.arguments[0])
                    let names = strings(call.arguments[1])
                    let rows = ids.compactMap { id -> DBusValue? in
                        guard let properties = menu.properties(of: id, names: names) else { return nil }
                        return .structure([.int32(id), .vardict(properties)])
                    }
                    return [.array(elementSignature: "(ia{sv})", rows)]
                },
                DBusMethod("GetProperty", inputs: [DBusArgument("id", "i"), DBusArgument("name", "s")],
                           outputs: [DBusArgument("value", "v")]) { call throws(DBusError) in
                    let id = Int32(truncatingIfNeeded: call.arguments[0].integer ?? -1)
                    let name = call.arguments[1].string ?? ""
                    guard let value = menu.properties(of: id, names: [name])?[name] else {
                        throw .invalidArgs("menu item \(id) has no property \"\(name)\"")
                    }
                    return [.variant(value)]
                },
                DBusMethod("Event", inputs: [DBusArgument("id", "i"), DBusArgument("eventId", "s"), DBusArgument("data", "v"),
                                             DBusArgument("timestamp", "u")]) { call throws(DBusError) in
                    try menu.event(id: Int32(truncatingIfNeeded: call.arguments[0].integer ?? -1),
                                   name: call.arguments[1].string ?? "")
                    return []
                },
                DBusMethod("EventGroup", inputs: [DBusArgument("events", "a(isvu)")],
                           outputs: [DBusArgument("idErrors", "ai")]) { call throws(DBusError) in
                    guard case .array(_, let events) = call.arguments[0] else { return [.array(elementSignature: "i", [])] }
                    var unknown: [DBusValue] = []
                    for case .structure(let fields) in events where fields.count == 4 {
                        let id = Int32(truncatingIfNeeded: fields[0].integer ?? -1)
                        do { try menu.event(id: id, name: fields[1].string ?? "") } catch { unknown.append(.int32(id)) }
                    }
                    return [.array(elementSignature: "i", unknown)]
                },
                DBusMethod("AboutToShow", inputs: [DBusArgument("id", "i")],
                           outputs: [DBusArgument("needUpdate", "b")]) { _ throws(DBusError) in [.boolean(false)] },
                DBusMethod("AboutToShowGroup", inputs: [DBusArgument("ids", "ai")],
                           outputs: [DBusArgument("updatesNeeded", "ai"), DBusArgument("idErrors", "ai")]) { _ throws(DBusError) in
                    [.array(elementSignature: "i", []), .array(elementSignature: "i", [])]
                },
            ],
            properties: [
                DBusProperty("Version", "u", emitsChange: .const, get: { .uint32(3) }),
                DBusProperty("TextDirection", "s", emitsChange: .const, get: { .string("ltr") }),
                DBusProperty("Status", "s", emitsChange: .const, get: { .string("normal") }),
                DBusProperty("IconThemePath", "as", emitsChange: .const, get: { .array(elementSignature: "s", []) }),
            ],
            signals: [
                DBusSignal("ItemsPropertiesUpdated", [DBusArgument("updatedProps", "a(ia{sv})"),
                                                      DBusArgument("removedProps", "a(ias)")]),
                DBusSignal("LayoutUpdated", [DBusArgument("revision", "u"), DBusArgument("parent", "i")]),
                DBusSignal("ItemActivationRequested", [DBusArgument("id", "i"), DBusArgument("timestamp", "u")]),
            ])
    }

    private static func strings(_ value: DBusValue) -> [String] {
        guard case .array(_, let elements) = value else { return [] }
        return elements.compactMap(\.string)
    }

    private static func integers(_ value: DBusValue) -> [Int32] {
        guard case .array(_, let elements) = value else { return [] }
        return elements.compactMap { $0.integer.map { Int32(truncatingIfNeeded: $0) } }
    }
}
