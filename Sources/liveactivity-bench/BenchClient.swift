import DBus
import Foundation
import LiveActivitiesContract

/// A blocking client of the daemon on its own connection (one per thread), with a clock.
final class BenchClient {
    static let busName = BusNames.busName
    static let path = BusNames.managerPath
    static let interface = BusNames.managerInterface

    let connection: DBusConnection

    init(address: String) throws { connection = try DBusConnection(address: address) }

    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = BenchClient.interface) throws -> [DBusValue] {
        try connection.callMethod(destination: Self.busName, path: Self.path, interface: interface, member: member,
                                  arguments: arguments, timeoutMilliseconds: 10_000)
    }

    func start(_ kind: String, attributes: [String: DBusValue] = [:], state: [String: DBusValue] = [:],
               id: String) throws {
        try call("Start", [.string(kind), .vardict(attributes), .vardict(state), .vardict(["id": .string(id)])])
    }

    func update(_ id: String, sequence: Int64) throws {
        try call("Update", Self.updateArguments(id, sequence: sequence))
    }

    /// The bench's Update (`s a{sv} a{sv}`): a sequence number and a new body. The object
    /// server's floor carries the same arguments (`ObjectServerFloor`).
    static func updateArguments(_ id: String, sequence: Int64) -> [DBusValue] {
        [.string(id), .vardict(["seq": .int64(sequence), "body": .string("n\(sequence)")]), .vardict([:])]
    }

    func end(_ id: String) throws {
        try call("End", [.string(id), .vardict([:]), .vardict(["dismissal": .string("immediate")])])
    }

    func ping() throws { try call("Ping", interface: "org.freedesktop.DBus.Peer") }
}

/// Monotonic seconds, for timing calls.
func monotonicSeconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// The value at fraction `q` (0…1) of sorted samples.
func percentile(_ samples: [Double], _ q: Double) -> Double {
    guard !samples.isEmpty else { return .nan }
    let sorted = samples.sorted()
    let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))
    return sorted[index]
}
