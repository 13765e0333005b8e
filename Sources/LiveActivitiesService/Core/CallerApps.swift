import ActivityModel
import DBus
import FoundationEssentials

/// Which application a caller of Start or Toggle is, when the system can say: a Flatpak app's
/// id, from `/proc/PID/root/.flatpak-info` of the sender's process (`[Application]` `name=`),
/// a file the sandbox cannot write. Its cards then carry that app's `desktop-entry`, so GNOME
/// and swaync file them under the app, with its name, icon and per-app settings.
final class CallerApps {
    /// Our own desktop entry (installed with NoDisplay=true): the cards of activities no app claims.
    static let ownDesktopEntry = "io.github.liveactivities"

    private let connection: DBusConnection?
    /// Where processes are found (`/proc`; a directory of fake ones in tests).
    private let processRoot: String

    init(connection: DBusConnection?, processRoot: String = "/proc") {
        self.connection = connection
        self.processRoot = processRoot
    }

    /// The Flatpak app id of the connection `sender`, or nil (not a Flatpak, or the bus or
    /// /proc cannot tell).
    func flatpakAppID(of sender: String?) -> String? {
        guard let sender, let pid = processID(of: sender) else { return nil }
        return flatpakAppID(pid: pid)
    }

    /// The Flatpak app id of process `pid`, or nil.
    func flatpakAppID(pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "\(processRoot)/\(pid)/root/.flatpak-info") else { return nil }
        return Self.applicationName(inFlatpakInfo: String(decoding: data, as: UTF8.self))
    }

    /// `name=` of the `[Application]` group, when it is a valid desktop entry id.
    static func applicationName(inFlatpakInfo text: String) -> String? {
        var group = ""
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = String(line.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            if trimmed.hasPrefix("[") { group = trimmed; continue }
            guard group == "[Application]", trimmed.hasPrefix("name=") else { continue }
            let name = String(trimmed.dropFirst("name=".count))
            return DesktopEntryID.problem(name) == nil ? name : nil
        }
        return nil
    }

    private func processID(of sender: String) -> Int32? {
        guard let connection else { return nil }
        let reply = try? connection.callMethod(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                               interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                                               arguments: [.string(sender)], timeoutMilliseconds: 1_000)
        return reply?.first?.integer.map { Int32(truncatingIfNeeded: $0) }
    }
}
