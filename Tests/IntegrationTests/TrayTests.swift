import DBus
import Foundation
import Testing
import TestSupport

/// The daemon's StatusNotifierItem against a watcher of our own on a private bus.
@Suite("Tray (StatusNotifierItem)", .timeLimit(.minutes(5)))
struct TrayTests {
    static let itemInterface = "org.kde.StatusNotifierItem"

    /// A bus, optionally a watcher that is there before the daemon, the daemon (no cards), a client.
    struct World {
        let bus: PrivateBus
        let watcher: TestStatusNotifierWatcher?
        let daemon: DaemonProcess
        let client: TestClient

        init(watcherFirst: Bool, config: String? = nil) throws {
            bus = try PrivateBus()
            watcher = watcherFirst ? try TestStatusNotifierWatcher(bus: bus) : nil
            daemon = try DaemonProcess(bus: bus, environment: ["LIVEACTIVITIES_NO_CARDS": "1"], start: false)
            if let config {
                try FileManager.default.createDirectory(at: daemon.configDirectory, withIntermediateDirectories: true)
                try config.write(to: daemon.configDirectory.appendingPathComponent("liveactivityd.conf"),
                                 atomically: true, encoding: .utf8)
            }
            try daemon.start()
            client = try TestClient(bus: bus)
            // The item takes its name just after the manager's (the state is restored in between).
            if config?.contains("tray = off") != true { _ = bus.waitForOwner("org.kde.StatusNotifierItem-\(daemon.pid)-1", timeout: 5) }
        }

        var itemName: String { "org.kde.StatusNotifierItem-\(daemon.pid)-1" }

        /// A property of the tray item, read over the bus.
        func item(_ property: String) throws -> DBusValue {
            try client.connection.callMethod(destination: itemName, path: "/StatusNotifierItem",
                                             interface: "org.freedesktop.DBus.Properties", member: "Get",
                                             arguments: [.string(TrayTests.itemInterface), .string(property)],
                                             timeoutMilliseconds: 5_000).first?.unwrapped ?? .string("")
        }

        /// The daemon's unique name, to check who registered.
        func daemonUniqueName() throws -> String {
            try client.connection.callMethod(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             interface: "org.freedesktop.DBus", member: "GetNameOwner",
                                             arguments: [.string(DaemonProcess.busName)]).first?.string ?? ""
        }
    }

    @Test func registersWithAWatcherThatIsAlreadyThere() throws {
        let w = try World(watcherFirst: true)
        let watcher = try #require(w.watcher)
        #expect(watcher.waitForRegistrations(1))
        let registration = try #require(watcher.registrations.first)
        #expect(registration.service == "/StatusNotifierItem", "by object path: GNOME 43's AppIndicator races a name (issue 28)")
        #expect(registration.sender == (try w.daemonUniqueName()))
        #expect(try w.item("Id").string == "liveactivities")
        #expect(try w.item("Category").string == "ApplicationStatus")
        #expect(try w.item("ItemIsMenu") == .boolean(false))
        let all = try w.client.connection.callMethod(destination: w.itemName, path: "/StatusNotifierItem",
                                                     interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                                                     arguments: [.string(Self.itemInterface)]).first?.vardict ?? [:]
        #expect(Set(all.keys).isSuperset(of: ["Category", "Id", "Title", "Status", "IconName", "ToolTip", "ItemIsMenu",
                                         "XAyatanaLabel", "XAyatanaLabelGuide"]), "\(all.keys.sorted())")
        #expect(all["Title"]?.unwrapped.string == "Live Activities")
        _ = try w.client.connection.callMethod(destination: w.itemName, path: "/StatusNotifierItem",
                                               interface: Self.itemInterface, member: "Activate",
                                               arguments: [.int32(0), .int32(0)])
        #expect(try w.item("Status").string == "Passive", "Activate is harmless")
    }

    @Test func labelStatusAndToolTipFollowTheActivities() throws {
        let w = try World(watcherFirst: true)
        let c = w.client
        #expect(try w.item("Status").string == "Passive")
        #expect(try w.item("XAyatanaLabel").string == "")

        _ = try c.start("generic", state: ["title": .string("Backup"), "body": .string("Copying photos"),
                                           "progress": .double(0.4), "icon": .string("drive-harddisk")],
                        options: ["id": .string("backup")])
        let compact = try c.property("CompactText").string
        #expect(compact == "Backup 40%")
        #expect(try w.item("XAyatanaLabel").string == compact)
        #expect(try w.item("XAyatanaLabelGuide").string == "Backup 00%")
        #expect(try w.item("Status").string == "Active")
        #expect(try w.item("IconName").string == "drive-harddisk")
        guard case .structure(let tip) = try w.item("ToolTip") else { Issue.record("ToolTip is not a structure"); return }
        #expect(tip.count == 4)
        #expect(tip[0].string == "drive-harddisk")
        #expect(tip[2].string == "Backup")
        #expect(tip[3].string?.contains("Copying photos") == true)

        #expect(c.waitFor { c.received("XAyatanaNewLabel").contains { $0.first?.string == "Backup 40%" } })
        #expect(c.waitFor { c.received("NewStatus").map { $0.first?.string } == ["Active"] })

        try c.update("backup", ["progress": .double(0.5)])
        #expect(c.waitFor { c.received("XAyatanaNewLabel").contains { $0.first?.string == "Backup 50%" } })
        #expect(try w.item("XAyatanaLabel").string == "Backup 50%")

        try c.end("backup")
        #expect(c.waitFor { c.received("NewStatus").map { $0.first?.string } == ["Active", "Passive"] },
                "NewStatus only when the status changes: \(c.received("NewStatus"))")
        #expect(try w.item("Status").string == "Passive")
        #expect(try w.item("XAyatanaLabel").string == "")
        // The label follows NewStatus in the same update; let the client's loop take it in.
        func labels() -> [String] { c.received("XAyatanaNewLabel").compactMap { $0.first?.string } }
        #expect(c.waitFor { labels().count >= 3 })
        #expect(labels() == ["Backup 40%", "Backup 50%", ""], "one XAyatanaNewLabel per change: \(labels())")
    }

    /// GNOME 48's AppIndicator extension shows the label only once a change reaches it after it
    /// has set the item up, and it reads the menu only then: the first `GetLayout` after
    /// registration brings the label once more as PropertiesChanged (which the host's proxy
    /// passes on even for the text it has), later ones do not.
    @Test func theLabelGoesOutAgainOnceTheHostReadTheMenu() throws {
        let w = try World(watcherFirst: true)
        let c = w.client
        #expect(try #require(w.watcher).waitForRegistrations(1))
        _ = try c.start("generic", state: ["title": .string("Backup"), "progress": .double(0.4)],
                        options: ["id": .string("backup")])
        // Each label the item announced, in order: its own signal, or PropertiesChanged.
        func labels() -> [String] {
            c.signals.compactMap { message -> String? in
                guard message.path == "/StatusNotifierItem", let arguments = try? message.arguments() else { return nil }
                if message.member == "XAyatanaNewLabel" { return arguments.first?.string }
                guard message.member == "PropertiesChanged", arguments.first?.string == Self.itemInterface,
                      let label = arguments[1].vardict?["XAyatanaLabel"]?.unwrapped.string else { return nil }
                return "changed: \(label)"
            }
        }
        // The start turned the item Active: status and label go out as PropertiesChanged too.
        #expect(c.waitFor { labels() == ["Backup 40%", "changed: Backup 40%"] }, "\(labels())")

        func readLayout() throws {
            _ = try c.connection.callMethod(destination: w.itemName, path: "/MenuBar", interface: "com.canonical.dbusmenu",
                                            member: "GetLayout",
                                            arguments: [.int32(0), .int32(-1), .array(elementSignature: "s", [])],
                                            timeoutMilliseconds: 5_000)
        }
        try readLayout()
        let started = ["Backup 40%", "changed: Backup 40%"]
        #expect(c.waitFor { labels() == started + ["changed: Backup 40%"] }, "the host that read the menu: \(labels())")
        try readLayout()
        try c.update("backup", ["progress": .double(0.5)])
        // Signals keep their order: a second announcement would come before the new label.
        #expect(c.waitFor { labels().last == "Backup 50%" })
        #expect(labels() == started + ["changed: Backup 40%", "Backup 50%"], "once per registration: \(labels())")
    }

    /// GNOME 50's AppIndicator extension can lose what its own signals announce when several
    /// come together (an item going Active stayed hidden): a status change goes out as a
    /// standard PropertiesChanged too, with the label, and nothing else does.
    @Test func aStatusChangeGoesOutAsPropertiesChangedWithTheLabel() throws {
        let w = try World(watcherFirst: true)
        let c = w.client
        #expect(try #require(w.watcher).waitForRegistrations(1))
        func announced() -> [String] {
            c.signals.compactMap { message -> String? in
                guard message.path == "/StatusNotifierItem", message.member == "PropertiesChanged",
                      let arguments = try? message.arguments(), arguments.first?.string == Self.itemInterface,
                      let values = arguments[1].vardict else { return nil }
                let status = values["Status"]?.unwrapped.string ?? "-"
                return "\(status) \(values["XAyatanaLabel"]?.unwrapped.string ?? "-")"
            }
        }
        _ = try c.start("generic", state: ["title": .string("Backup"), "progress": .double(0.4)],
                        options: ["id": .string("backup")])
        #expect(c.waitFor { announced() == ["Active Backup 40%"] }, "\(announced())")
        try c.update("backup", ["progress": .double(0.5)])
        try c.end("backup")
        #expect(c.waitFor { announced().count == 2 })
        #expect(announced() == ["Active Backup 40%", "Passive "], "not for the Update: \(announced())")
    }

    @Test func registersAgainWhenTheWatcherIsReplaced() throws {
        let w = try World(watcherFirst: true)
        let first = try #require(w.watcher)
        #expect(first.waitForRegistrations(1))
        first.stop()
        #expect(w.bus.waitForNoOwner(TestStatusNotifierWatcher.name))
        let second = try TestStatusNotifierWatcher(bus: w.bus)
        defer { second.stop() }
        #expect(second.waitForRegistrations(1), "the daemon registers with the new watcher")
        #expect(second.registrations.first?.service == "/StatusNotifierItem")
        #expect(first.registrations.count == 1)
    }

    @Test func startsWithoutAWatcherAndRegistersWhenOneAppears() throws {
        let w = try World(watcherFirst: false)
        #expect(w.bus.hasOwner(w.itemName))
        #expect(try w.item("Status").string == "Passive")
        let mentions = w.daemon.log().split(separator: "\n").filter { $0.contains("StatusNotifierWatcher") }
        #expect(mentions.count <= 1, "no watcher is logged once at most: \(mentions)")
        #expect(!w.daemon.log().contains("error"), "no watcher is not an error: \(w.daemon.log())")

        let watcher = try TestStatusNotifierWatcher(bus: w.bus)
        defer { watcher.stop() }
        #expect(watcher.waitForRegistrations(1))
        #expect(watcher.registrations.first?.service == "/StatusNotifierItem")
    }

    /// With no host the menu is not rebuilt on each change (a timer's row changes every
    /// second); a read builds it, so whoever reads it sees the latest rows (issue 29).
    @Test func withoutAHostTheMenuReadShowsTheLatestRows() throws {
        let w = try World(watcherFirst: false)
        let c = w.client
        _ = try c.start("generic", state: ["title": .string("Backup"), "body": .string("step 1")], options: ["id": .string("backup")])
        try c.update("backup", ["body": .string("step 2")])
        try c.update("backup", ["body": .string("step 3")])
        #expect(c.waitFor { (try? w.item("ToolTip")).map { "\($0)".contains("step 3") } ?? false }, "the item follows")
        let layout = try c.connection.callMethod(destination: w.itemName, path: "/MenuBar", interface: "com.canonical.dbusmenu",
                                                 member: "GetLayout",
                                                 arguments: [.int32(0), .int32(-1), .array(elementSignature: "s", [])],
                                                 timeoutMilliseconds: 5_000)
        let text = "\(layout)"
        #expect(text.contains("step 3") && !text.contains("step 2"), "the menu shows the latest body: \(text)")
    }

    @Test func trayOffRegistersNothing() throws {
        let w = try World(watcherFirst: true, config: "tray = off\n")
        let watcher = try #require(w.watcher)
        _ = try w.client.start("generic", state: ["title": .string("quiet")])
        #expect(watcher.syncWithDaemon())
        #expect(watcher.registrations.isEmpty)
        #expect(!w.bus.hasOwner(w.itemName))
    }
}
