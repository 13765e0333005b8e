import DBus
import Foundation
import TestSupport

/// A daemon that takes push messages from a real mosquitto on a private port: the broker,
/// the daemon fixture (configured with `push-broker`), and helpers to publish `aps` payloads
/// and to wait for what the daemon announces (PushStatus, PushToken, PushReceived).
final class PushWorld {
    let broker: Mosquitto
    let fixture: DaemonFixture
    var client: TestClient { fixture.client }

    /// `brokerRunning` false: the broker is only started later (`broker.start()`).
    init(brokerRunning: Bool = true, recorderName: String? = "dunst", extraConfig: String = "") throws {
        broker = try Mosquitto(start: brokerRunning)
        fixture = try DaemonFixture(recorderName: recorderName, config: "push-broker = \(broker.url)\n" + extraConfig)
    }

    /// A world around a broker made by the caller, with the daemon's whole push config.
    init(broker: Mosquitto, daemonConfig: String) throws {
        self.broker = broker
        fixture = try DaemonFixture(recorderName: nil, config: daemonConfig)
    }

    var status: String { (try? client.property("PushStatus"))?.string ?? "" }

    /// Waits (on the bus's signals) until `PushStatus` satisfies `condition`.
    @discardableResult
    func waitForStatus(timeout: Double = 20, _ condition: (String) -> Bool) -> Bool {
        client.waitFor(timeout: timeout) { condition(status) }
    }

    /// Starts an activity with `push-type` `token` and waits for its announced token.
    func startWithToken(_ kind: String = "generic", state: [String: DBusValue] = ["title": .string("pushed")],
                        options: [String: DBusValue] = [:]) throws -> (id: String, token: String) {
        var all = options
        all["push-type"] = .string("token")
        let id = try client.start(kind, state: state, options: all)
        var token = ""
        client.waitFor(timeout: 20) {
            token = (try? client.get(id)["push-token"]?.string) ?? ""
            return !token.isEmpty
        }
        return (id, token)
    }

    /// Publishes `{"aps": aps}` on `<prefix>/<kind>/<name>`.
    func publish(_ kind: String, _ name: String, aps: [String: Any], prefix: String = "liveactivities",
                 arguments: [String] = []) throws {
        let data = try JSONSerialization.data(withJSONObject: ["aps": aps], options: [.sortedKeys])
        try broker.publish("\(prefix)/\(kind)/\(name)", String(decoding: data, as: UTF8.self), arguments: arguments)
    }

    /// Publishes raw text.
    func publishRaw(_ kind: String, _ name: String, _ text: String) throws {
        try broker.publish("liveactivities/\(kind)/\(name)", text)
    }

    /// The PushReceived signals so far as (id, event, applied, reason).
    var received: [(id: String, event: String, applied: Bool, reason: String)] {
        client.received("PushReceived").map { args in
            let applied: Bool
            if case .boolean(let b)? = args.dropFirst(2).first { applied = b } else { applied = false }
            return (args.first?.string ?? "", args.dropFirst().first?.string ?? "", applied, args.dropFirst(3).first?.string ?? "")
        }
    }

    /// Waits until at least `count` PushReceived signals arrived.
    @discardableResult
    func waitForReceived(_ count: Int, timeout: Double = 20) -> Bool {
        client.waitFor(timeout: timeout) { client.received("PushReceived").count >= count }
    }

    static func now() -> Int { Int(Date().timeIntervalSince1970) }
}
