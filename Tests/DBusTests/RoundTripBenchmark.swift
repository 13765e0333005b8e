import Foundation
import Testing
import DBus
import TestSupport

/// Rough round-trip costs on a private bus; runs only with `DBUS_BENCHMARK=1` and prints its numbers.
@Suite struct RoundTripBenchmark {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DBUS_BENCHMARK"] == "1"))
    func measureRoundTrips() throws {
        let bus = try PrivateBus()
        let server = try ServerThread(address: bus.address) { connection, server, loop in
            try CounterService.install(connection: connection, server: server)
            try server.export("/bench", [DBusInterface(name: "org.example.Bench", methods: [
                DBusMethod("Wakeups", outputs: [DBusArgument("count", "x")]) { _ in [.int64(Int64(loop.wakeups))] },
            ])])
        }
        let client = try DBusConnection(address: bus.address)
        let cases: [(label: String, interface: String?, member: String)] = [
            ("trivial method (object server)", CounterService.interface, "Trivial"),
            ("Peer.Ping (answered inside libdbus)", "org.freedesktop.DBus.Peer", "Ping"),
            ("Ping without interface (object server)", nil, "Ping"),
        ]
        for (label, interface, member) in cases {
            let rounds = 3_000
            for index in 0..<(rounds + 300) {
                if index == 300 { clock.reset() }
                let message = try DBusMessage.methodCall(destination: server.uniqueName, path: CounterService.path,
                                                         interface: interface, member: member)
                _ = try client.call(message)
            }
            let wakeups = try client.callMethod(destination: server.uniqueName, path: "/bench",
                                                interface: "org.example.Bench", member: "Wakeups")
            print("BENCHMARK server loop wake-ups so far: \(wakeups.first?.integer ?? -1)")
            print("BENCHMARK \(label): \(String(format: "%.1f", clock.elapsed / Double(rounds) * 1e6)) µs per call")
        }
    }

    private let clock = Stopwatch()
}

/// Wall time since the last reset.
final class Stopwatch: @unchecked Sendable {
    private var start = Date()
    func reset() { start = Date() }
    var elapsed: Double { Date().timeIntervalSince(start) }
}
