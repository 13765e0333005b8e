import DBus
import Foundation
import Testing
import TestSupport

/// Issue 18, point 8: a `push-broker` the daemon cannot use is a named problem in the log, in
/// `PushStatus` and in `liveactivity doctor`, not a silent `off`.
@Suite("An unusable push-broker", .timeLimit(.minutes(5)), .serialized)
struct PushBrokerConfigTests {
    // (A comma-separated list is a cluster since issue 22; a list with a bad entry is refused.)
    @Test(arguments: [("mqtt://127.0.0.1:1883, mqtts://127.0.0.2:8883", "cannot be mixed in one list"),
                      ("tcp://broker.example.org", "expected mqtt://HOST[:PORT]")])
    func isNamedInStatusLogAndDoctor(value: String, words: String) throws {
        let f = try DaemonFixture(recorderName: nil, config: "push-broker = \(value)\n")
        let status = try f.client.property("PushStatus").string ?? ""
        #expect(status.hasPrefix("error: push-broker: ") && status.contains(words) && status.contains(value), "PushStatus: \(status)")
        #expect(f.daemon.log().contains("push is off: push-broker: "), "\(f.daemon.log())")
        let refused = f.client.error { _ = try f.client.start("generic", state: ["title": .string("t")], options: ["push-type": .string("token")]) }
        #expect(refused?.name == "org.freedesktop.DBus.Error.NotSupported")
        #expect(refused?.message.contains("push-broker") == true, "\(refused?.message ?? "")")
        let doctor = try f.cli(["doctor"])
        let line = doctor.stdout.split(separator: "\n").first { $0.contains("] push:") } ?? ""
        #expect(line.hasPrefix("[XX] push: error: push-broker: "), "\(doctor.stdout)")
        #expect(doctor.status == 1, "a broken check fails doctor")
    }
}
