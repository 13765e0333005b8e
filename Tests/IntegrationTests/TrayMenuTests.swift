import DBus
import Foundation
import Testing
import TestSupport

/// The tray item's `com.canonical.dbusmenu` menu as a host reads it: rows, clicks, updates.
@Suite("Tray menu (dbusmenu)", .timeLimit(.minutes(5)))
struct TrayMenuTests {
    static let menuInterface = "com.canonical.dbusmenu"

    /// The menu's items under the root, as (id, properties).
    static func items(_ w: TrayTests.World) throws -> [(id: Int32, properties: [String: DBusValue])] {
        let reply = try menuCall(w, "GetLayout", [.int32(0), .int32(-1), .array(elementSignature: "s", [])])
        guard reply.count == 2, case .structure(let root) = reply[1], root.count == 3,
              case .array(_, let children) = root[2] else { return [] }
        #expect(root[0] == .int32(0))
        #expect(root[1].vardict?["children-display"] == .string("submenu"))
        return children.compactMap { child in
            guard case .structure(let fields) = child.unwrapped, fields.count == 3, case .int32(let id) = fields[0],
                  let properties = fields[1].vardict else { return nil }
            return (id, properties)
        }
    }

    /// What a user reads in the menu: labels, `---` for separators, `(label)` for rows that only show text.
    static func rows(_ w: TrayTests.World) throws -> [String] {
        try items(w).map { item in
            if item.properties["type"]?.string == "separator" { return "---" }
            let label = item.properties["label"]?.string ?? ""
            return item.properties["enabled"] == .boolean(false) ? "(\(label))" : label
        }
    }

    static func id(of label: String, _ w: TrayTests.World) throws -> Int32 {
        try #require(try items(w).first { $0.properties["label"]?.string == label }?.id)
    }

    @discardableResult
    static func menuCall(_ w: TrayTests.World, _ member: String, _ arguments: [DBusValue]) throws -> [DBusValue] {
        try w.client.connection.callMethod(destination: w.itemName, path: "/MenuBar", interface: menuInterface,
                                           member: member, arguments: arguments, timeoutMilliseconds: 5_000)
    }

    static func click(_ w: TrayTests.World, _ id: Int32) throws {
        try menuCall(w, "Event", [.int32(id), .string("clicked"), .variant(.int32(0)), .uint32(0)])
    }

    @Test func theItemPointsAtAMenuThatListsEveryLiveActivity() throws {
        let w = try TrayTests.World(watcherFirst: true)
        let c = w.client
        #expect(try w.item("Menu") == .objectPath("/MenuBar"))
        let version = try w.client.connection.callMethod(
            destination: w.itemName, path: "/MenuBar", interface: "org.freedesktop.DBus.Properties", member: "Get",
            arguments: [.string(Self.menuInterface), .string("Version")]).first?.unwrapped
        #expect(version == .uint32(3))
        #expect(try Self.rows(w) == ["(Nothing live)"])

        _ = try c.start("focus", attributes: ["session-type": .string("Pomodoro")], state: ["task": .string("write_A")],
                        options: ["id": .string("focus"), "relevance": .double(2)])
        _ = try c.start("generic", state: ["title": .string("Backup"), "body": .string("Copying photos")],
                        options: ["id": .string("backup")])
        #expect(c.waitFor { (try? Self.rows(w).contains("(Backup)")) == true }, "\((try? Self.rows(w)) ?? [])")
        let focus = try c.get("focus")
        let focusTitle = try #require(focus["title"]?.string)
        let focusBody = try #require(focus["body"]?.string)
        #expect(focusTitle == "Pomodoro · write_A")
        #expect(try Self.rows(w) == ["(Pomodoro · write__A)", "(\(focusBody))", "Complete", "Cancel", "+5 min", "Pause",
                                     "---", "(Backup)", "(Copying photos)", "End"], "\((try? Self.rows(w)) ?? [])")
        let titleID = try Self.id(of: "Backup", w)
        let group = try Self.menuCall(w, "GetGroupProperties", [.array(elementSignature: "i", [.int32(titleID)]),
                                                                 .array(elementSignature: "s", [.string("label")])])
        #expect(group == [.array(elementSignature: "(ia{sv})", [.structure([.int32(titleID), .vardict(["label": .string("Backup")])])])])
    }

    @Test func clicksRunTheButtonsAndTheMenuFollows() throws {
        let w = try TrayTests.World(watcherFirst: true)
        let c = w.client
        _ = try c.start("focus", attributes: ["minutes": .uint32(25)], options: ["id": .string("focus")])
        #expect(c.waitFor { c.received("LayoutUpdated").count == 1 }, "the start's new rows")
        #expect(try Self.rows(w).contains("Pause"))
        let layouts = c.received("LayoutUpdated").count

        try Self.click(w, try Self.id(of: "Pause", w))
        #expect(try c.get("focus")["status"]?.string == "paused")
        #expect(c.waitFor { c.received("LayoutUpdated").count > layouts }, "Pause became Resume: a new row")
        #expect(try Self.rows(w).suffix(2) == ["+5 min", "Resume"])
        #expect(c.received("ActionInvoked") == [[.string("focus"), .string("pause")]])

        try Self.click(w, try Self.id(of: "Cancel", w))
        #expect(try c.get("focus")["status"]?.string == "ended")
        #expect(try c.get("focus")["reason"]?.string == "cancelled")
        #expect(c.waitFor { (try? Self.rows(w)) == ["(Nothing live)"] })

        let e = c.error { try Self.click(w, 9_999) }
        #expect(e?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(e?.message == "no menu item 9999")
    }

    @Test func aTextChangeUpdatesPropertiesWithoutANewLayout() throws {
        let w = try TrayTests.World(watcherFirst: true)
        let c = w.client
        _ = try c.start("generic", state: ["title": .string("Backup"), "body": .string("Copying photos")],
                        options: ["id": .string("backup")])
        #expect(c.waitFor { c.received("LayoutUpdated").count == 1 }, "the start's new rows")
        #expect(try Self.rows(w) == ["(Backup)", "(Copying photos)", "End"])
        let layouts = c.received("LayoutUpdated").count
        let bodyID = try Self.id(of: "Copying photos", w)
        try c.update("backup", ["body": .string("Copying music")])
        #expect(c.waitFor { !c.received("ItemsPropertiesUpdated").isEmpty })
        let update = try #require(c.received("ItemsPropertiesUpdated").first)
        #expect(update == [.array(elementSignature: "(ia{sv})", [.structure([.int32(bodyID), .vardict(
                               ["label": .string("Copying music"), "enabled": .boolean(false)])])]),
                           .array(elementSignature: "(ias)", [])])
        #expect(c.received("LayoutUpdated").count == layouts, "same rows: no new layout")
        #expect(try Self.rows(w) == ["(Backup)", "(Copying music)", "End"])
    }
}
