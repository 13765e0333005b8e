import DBus
import Foundation
import Glibc

/// `liveactivity watch`: prints the compact view once at start and again on every change,
/// driven by PropertiesChanged (never by polling). It waits through a daemon restart
/// (NameOwnerChanged) and stops quietly when its reader goes away: a write fails, or the
/// pipe (or socket) it writes to reports a hang-up while nothing new is printed.
final class CompactViewWatcher {
    private let client: BusClient
    private let format: WatchFormat
    private let write: (String) -> Bool
    private let outputDescriptor: Int32?
    private let loop: EventLoop
    private var hangupWatch: ReaderToken?
    private var lastLine: String?
    private var refreshPending = false

    init(client: BusClient, format: WatchFormat, write: @escaping (String) -> Bool,
         outputDescriptor: Int32? = nil) throws(CLIError) {
        self.client = client
        self.format = format
        self.write = write
        self.outputDescriptor = outputDescriptor
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
        if let outputDescriptor { watchForHangup(of: outputDescriptor) }
        refresh()
        loop.run()
    }

    /// A pipe whose reader is gone polls as POLLERR, a closed socket as POLLHUP: either ends
    /// the watch at once. Other descriptors (a terminal, a file) are not watched.
    private func watchForHangup(of descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return }
        let type = info.st_mode & S_IFMT
        guard type == S_IFIFO || type == S_IFSOCK else { return }
        hangupWatch = loop.addReader(fd: descriptor) { [unowned self] in
            var probe = pollfd(fd: descriptor, events: 0, revents: 0)
            if poll(&probe, 1, 0) > 0, probe.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                loop.stop()
            } else if let hangupWatch {
                // Data sent back on a socket is not ours to read: stop watching rather than spin.
                loop.removeReader(hangupWatch)
                self.hangupWatch = nil
            }
        }
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
    /// They are read in several calls; when the compact text changed meanwhile (an End or an
    /// Update landed between them), they are read again, so a line never pairs the text of
    /// one moment with the card or class of another.
    private func readSnapshot() -> WatchFormat.Snapshot {
        var snapshot = readSnapshotOnce()
        for _ in 0..<3 {
            guard let text = try? client.property("CompactText").string, text != snapshot.compactText else { break }
            snapshot = readSnapshotOnce()
        }
        return snapshot
    }

    private func readSnapshotOnce() -> WatchFormat.Snapshot {
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
            snapshot.segments = SegmentReading.read(properties)
            break
        }
        return snapshot
    }
}
