import DBus
import DaemonHarness
import Foundation

/// The floor under the Update round trip: a method that does nothing, served by our object
/// server on a thread of its own, against Peer.Ping on the same connection (answered inside
/// libdbus). What our bus layer alone costs, so the daemon's share of an Update is visible.
enum ObjectServerFloor {
    static let path = "/bench/Floor"
    static let interface = "org.example.Floor"

    static func measure(bus: PrivateBus, count: Int) throws -> [Row] {
        let server = try ServerThread(address: bus.address) { _, objects, _ in
            try objects.export(path, [DBusInterface(name: interface, methods: [
                DBusMethod("Nothing") { _ throws(DBusError) in [] },
            ])])
        }
        defer { server.stop() }
        let client = try DBusConnection(address: bus.address)
        var methods: [Double] = []
        var pings: [Double] = []
        for i in 0..<(count + 200) {
            let t0 = monotonicSeconds()
            _ = try client.callMethod(destination: server.uniqueName, path: path, interface: interface, member: "Nothing")
            let t1 = monotonicSeconds()
            _ = try client.callMethod(destination: server.uniqueName, path: path, interface: "org.freedesktop.DBus.Peer",
                                      member: "Ping")
            let t2 = monotonicSeconds()
            if i >= 200 { methods.append(t1 - t0); pings.append(t2 - t1) }
        }
        let ratio = percentile(methods, 0.5) / percentile(pings, 0.5)
        return [Row(name: "Object server, empty method round trip, median (no daemon)",
                    measured: micros(percentile(methods, 0.5)) + String(format: " (%.2f× its Ping, %@)", ratio,
                                                                         micros(percentile(pings, 0.5))),
                    target: "reference (the floor under Update)", met: nil)]
    }
}
