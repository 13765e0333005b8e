import DBus
import DaemonHarness
import Foundation

/// The floor under the Update round trip: methods that do nothing, served by our object server
/// on a thread of its own, against Peer.Ping on the same connection (answered inside libdbus).
/// `Nothing` takes no arguments: what our bus layer alone costs. `Carry` takes the bench's
/// Update arguments (`s a{sv} a{sv}`, the same values) and drops them: what carrying an Update's
/// message costs the client, the bus and our reader. What is above that is the daemon's work.
enum ObjectServerFloor {
    static let path = "/bench/Floor"
    static let interface = "org.example.Floor"

    static func measure(bus: PrivateBus, count: Int) throws -> [Row] {
        let server = try ServerThread(address: bus.address) { _, objects, _ in
            try objects.export(path, [DBusInterface(name: interface, methods: [
                DBusMethod("Nothing") { _ throws(DBusError) in [] },
                DBusMethod("Carry", inputs: [DBusArgument("id", "s"), DBusArgument("state", "a{sv}"),
                                             DBusArgument("options", "a{sv}")]) { _ throws(DBusError) in [] },
            ])])
        }
        defer { server.stop() }
        let client = try DBusConnection(address: bus.address)
        let ping = {
            _ = try client.callMethod(destination: server.uniqueName, path: path, interface: "org.freedesktop.DBus.Peer", member: "Ping")
        }
        let empty = try interleaved(count: count, ping: ping) { _ in
            _ = try client.callMethod(destination: server.uniqueName, path: path, interface: interface, member: "Nothing")
        }
        let carried = try interleaved(count: count, ping: ping) { i in
            _ = try client.callMethod(destination: server.uniqueName, path: path, interface: interface, member: "Carry",
                                      arguments: BenchClient.updateArguments("rtt", sequence: Int64(i)))
        }
        return [row("Object server, empty method round trip, median (no daemon)", empty),
                row("Object server, the Update's arguments read and dropped, round trip, median (no daemon)", carried)]
    }

    /// Medians of `method` and `ping` called in turn, after 200 of each to warm up.
    private static func interleaved(count: Int, ping: () throws -> Void,
                                    _ method: (Int) throws -> Void) throws -> (method: Double, ping: Double) {
        var methods: [Double] = []
        var pings: [Double] = []
        for i in 0..<(count + 200) {
            let t0 = monotonicSeconds()
            try method(i)
            let t1 = monotonicSeconds()
            try ping()
            let t2 = monotonicSeconds()
            if i >= 200 { methods.append(t1 - t0); pings.append(t2 - t1) }
        }
        return (percentile(methods, 0.5), percentile(pings, 0.5))
    }

    private static func row(_ name: String, _ medians: (method: Double, ping: Double)) -> Row {
        Row(name: name, measured: micros(medians.method) + String(format: " (%.2f× its Ping, %@)", medians.method / medians.ping,
                                                                 micros(medians.ping)),
            target: "reference (the floor under Update)", met: nil)
    }
}
