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

    init(bus: PrivateBus) throws {
        process = try ChildProcess("dbus-monitor", ["--address", bus.address,
                                                    "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"])
        usleep(300_000)
    }

    /// Stops the monitor and returns the Notify calls it saw, in order.
    func stop() -> [Call] {
        usleep(200_000)
        process.stop()
        let output = String(decoding: process.standardOutput.readDataToEndOfFile(), as: UTF8.self)
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
