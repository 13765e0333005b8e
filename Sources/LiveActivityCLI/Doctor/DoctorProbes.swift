import DBus
import Glibc

/// The questions `liveactivity doctor` asks of the bus and of /proc, each with a short
/// timeout and none of them starting anything (no D-Bus activation).
struct DoctorProbes {
    let connection: DBusConnection
    static let timeout: Int32 = 1_500

    func busCall(_ member: String, _ arguments: [DBusValue] = []) -> [DBusValue]? {
        try? connection.callMethod(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                   interface: "org.freedesktop.DBus", member: member, arguments: arguments,
                                   timeoutMilliseconds: Self.timeout)
    }

    func hasOwner(_ name: String) -> Bool { busCall("NameHasOwner", [.string(name)])?.first?.bool == true }

    func isActivatable(_ name: String) -> Bool {
        guard case .array(_, let names)? = busCall("ListActivatableNames")?.first else { return false }
        return names.contains { $0.string == name }
    }

    /// The process id of the connection owning `name`.
    func ownerPID(_ name: String) -> Int32? {
        busCall("GetConnectionUnixProcessID", [.string(name)])?.first?.integer.map { Int32(truncatingIfNeeded: $0) }
    }

    /// Calls `member` on a service that is known to be running.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String,
              _ arguments: [DBusValue] = []) throws(DBusError) -> [DBusValue] {
        try connection.callMethod(destination: destination, path: path, interface: interface, member: member,
                                  arguments: arguments, timeoutMilliseconds: Self.timeout)
    }

    /// A property of the daemon's manager; the D-Bus error when it has none.
    func managerProperty(_ name: String) throws(DBusError) -> DBusValue? {
        try call(BusClient.busName, BusClient.managerPath, "org.freedesktop.DBus.Properties", "Get",
                 [.string(BusClient.managerInterface), .string(name)]).first?.unwrapped
    }

    /// When process `pid` started, in unix seconds: its start in clock ticks after boot
    /// (/proc/PID/stat field 22) plus the boot time (/proc/stat `btime`).
    static func processStart(pid: Int32) -> Int64? {
        guard let stat = readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: field 3 (state) is fields[0], so field 22 is fields[19].
        guard fields.count > 19, let ticks = Int64(fields[19]),
              let boot = readText("/proc/stat")?.split(separator: "\n").first(where: { $0.hasPrefix("btime ") })
                  .flatMap({ Int64($0.dropFirst(6)) }) else { return nil }
        let perSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        return boot + ticks / max(perSecond, 1)
    }

    static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A unix time as local `YYYY-MM-DD HH:MM:SS`.
    static func localText(_ time: Int64) -> String {
        var seconds = time_t(time)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return String(time) }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
