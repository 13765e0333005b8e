import DBus
import Foundation

/// `liveactivity watch`: prints the compact view once at start and again on every change,
/// driven by PropertiesChanged (never by polling). It waits through a daemon restart
/// (NameOwnerChanged) and stops quietly when its reader goes away (a write fails).
final class CompactViewWatcher {
    private let client: BusClient
    private let format: WatchFormat
    private let write: (String) -> Bool
    private let loop: EventLoop
    private var lastLine: String?
    private var refreshPending = false

    init(client: BusClient, format: WatchFormat, write: @escaping (String) -> Bool) throws(CLIError) {
        self.client = client
        self.format = format
        self.write = write
        do { loop = try EventLoop() } catch { throw .refused("cannot start an event loop: \(error)") }
    }

    func run() throws(CLIError) {
        let connection = client.connection
        connection.attach(to: loop)
        do {
            try connection.addMatch("type='signal',sender='\(BusClient.busName)',interface='org.freedesktop.DBus.Properties',"
                                    + "member='PropertiesChanged',path_namespace='\(BusClient.managerPath)'")
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                    + "member='NameOwnerChanged',arg0='\(BusClient.busName)'")
        } catch {
            throw .refused("cannot watch the bus: \(error.message)")
        }
        connection.addMessageHandler { [unowned self] message in
            guard message.kind == .signal else { return false }
            if message.member == "PropertiesChanged" || message.member == "NameOwnerChanged" { scheduleRefresh() }
            return false
        }
        connection.onDisconnect = { [unowned self] in loop.stop() }
        refresh()
        loop.run()
    }

    /// Coalesces a burst of signals into one read, made after the current dispatch.
    private func scheduleRefresh() {
        guard !refreshPending else { return }
        refreshPending = true
        loop.addTimer(at: Date().timeIntervalSince1970) { [unowned self] in
            refreshPending = false
            refresh()
        }
    }

    private func refresh() {
        let line = format.line(readSnapshot())
        guard line != lastLine else { return }
        lastLine = line
        if !write(line) { loop.stop() }
    }

    /// The compact text and the most relevant activity's card, or `.absent` without a daemon.
    private func readSnapshot() -> WatchFormat.Snapshot {
        guard let text = try? client.property("CompactText").string else { return .absent }
        var snapshot = WatchFormat.Snapshot(compactText: text)
        guard case .array(_, let rows)? = try? client.call("List").first else { return snapshot }
        for row in rows {
            guard case .structure(let fields) = row, fields.count == 4, let id = fields[0].string,
                  let status = fields[2].string, ["active", "paused", "stale"].contains(status) else { continue }
            guard let properties = (try? client.call("Get", [.string(id)]))?.first?.vardict else { break }
            snapshot.title = properties["title"]?.string ?? ""
            snapshot.body = properties["body"]?.string ?? ""
            snapshot.status = status
            if let progress = properties["progress"]?.double, progress >= 0 { snapshot.progress = progress }
            break
        }
        return snapshot
    }
}
