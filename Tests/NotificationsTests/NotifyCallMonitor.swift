import Foundation
import TestSupport

/// Records the Notify calls on a private bus with `dbus-monitor`, to assert what went over
/// the wire (how many calls, replaces_id, hint types) rather than what we meant to send.
final class NotifyCallMonitor {
    /// One Notify call as dbus-monitor printed it.
    struct Call {
        let replacesID: UInt32
        let summary: String
        /// The printed call, e.g. containing `string "value"` then `variant int32 50`.
        let text: String

        /// The printed value of hint `key`, e.g. "int32 50", "byte 0", "boolean true".
        func hint(_ key: String) -> String? {
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let index = lines.firstIndex(of: "string \"\(key)\""), index + 1 < lines.count else { return nil }
            let value = lines[index + 1]
            guard value.hasPrefix("variant") else { return nil }
            return value.dropFirst("variant".count).trimmingCharacters(in: .whitespaces)
        }
    }

    private let process: ChildProcess
    private let bus: PrivateBus
    /// The marker `stop()` sends: the last call the monitor sees.
    static let marker = "notify-call-monitor-barrier"

    /// Starts dbus-monitor and waits until it monitors: the bus tells it its name is lost
    /// (NameLost) once it became a monitor.
    init(bus: PrivateBus) throws {
        self.bus = bus
        process = try ChildProcess("dbus-monitor", ["--address", bus.address,
                                                    "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"])
        while let line = readLine(from: process.standardOutput), !line.contains("member=NameLost") {}
    }

    /// Stops the monitor and returns the Notify calls it saw, in order. The barrier: a Notify
    /// of our own (to the bus itself, which refuses it) sent now; the bus hands messages to a
    /// monitor in the order it routes them, so once the marker is read, so is every call before.
    func stop() -> [Call] {
        _ = try? runCommand("dbus-send", ["--bus=\(bus.address)", "--type=method_call", "--dest=org.freedesktop.DBus", "/",
                                          "org.freedesktop.Notifications.Notify", "string:\(Self.marker)"], timeout: 10)
        var output = ""
        while let line = readLine(from: process.standardOutput), !line.contains(Self.marker) { output += line + "\n" }
        process.stop()
        return output.components(separatedBy: "method call ").dropFirst().compactMap(Self.parse)
    }

    private static func parse(_ block: String) -> Call? {
        guard block.contains("member=Notify") else { return nil }
        let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.count > 5, lines[2].hasPrefix("uint32 "), let id = UInt32(lines[2].dropFirst("uint32 ".count)) else { return nil }
        let summary = lines[4].hasPrefix("string \"") ? String(lines[4].dropFirst(8).dropLast()) : ""
        return Call(replacesID: id, summary: summary, text: block)
    }
}
