import Foundation
import Notifications
import TestSupport

/// What a presenter reported through its callbacks, collected from its thread.
final class PresenterEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var servers: [ServerInfo?] = []
    private var closed: [String] = []
    private var actions: [(String, String)] = []

    /// Hooks the presenter's callbacks up to this recorder.
    func observe(_ presenter: CardPresenter) {
        presenter.onServerChanged = { info in self.record { $0.servers.append(info) } }
        presenter.onClosedByUser = { id in self.record { $0.closed.append(id) } }
        presenter.onAction = { id, key in self.record { $0.actions.append((id, key)) } }
    }

    private func record(_ change: (PresenterEvents) -> Void) {
        lock.lock(); change(self); lock.unlock()
    }

    var serverChanges: [ServerInfo?] { lock.lock(); defer { lock.unlock() }; return servers }
    var closedByUser: [String] { lock.lock(); defer { lock.unlock() }; return closed }
    var actionKeys: [String] { lock.lock(); defer { lock.unlock() }; return actions.map { "\($0.0):\($0.1)" } }
}

/// One entry of `dunstctl history` (JSON), the fields the tests read.
struct DunstHistoryEntry: Equatable {
    let id: Int
    let appName: String
    let summary: String
    let body: String
}

extension Dunst {
    /// The notifications dunst moved to its history, newest first.
    func history() throws -> [DunstHistoryEntry] {
        let output = try control(["history"]).stdout
        guard let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              let outer = json["data"] as? [[[String: Any]]], let entries = outer.first else { return [] }
        func field(_ entry: [String: Any], _ key: String) -> Any? { (entry[key] as? [String: Any])?["data"] }
        return entries.map { entry in
            DunstHistoryEntry(id: field(entry, "id") as? Int ?? -1,
                              appName: field(entry, "appname") as? String ?? "",
                              summary: field(entry, "summary") as? String ?? "",
                              body: field(entry, "body") as? String ?? "")
        }
    }

    /// Closes the topmost notification as the user would (`dunstctl close`) and returns what it
    /// showed, read back from the history.
    func dismissTopmost() throws -> DunstHistoryEntry? {
        let before = try history().count
        _ = try control(["close"])
        _ = waitUntil(timeout: 5) { ((try? history().count) ?? before) > before }
        return try history().first
    }
}

/// A presenter on `bus`: libnotify reads the bus address from the environment on its thread.
func startPresenter(on bus: PrivateBus, events: PresenterEvents, minimumInterval: Double = 1.0) -> CardPresenter {
    setenv("DBUS_SESSION_BUS_ADDRESS", bus.address, 1)
    let presenter = CardPresenter(appName: "liveactivities-tests", minimumInterval: minimumInterval)
    events.observe(presenter)
    presenter.start()
    return presenter
}
