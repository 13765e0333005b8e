import DBus
import Foundation
import Testing
import TestSupport

/// docs/push.md's mosquitto ACL, as written: the desktop (prefix `liveactivities/anna`) may
/// write only its receipts, the server may read them, and the receipts reach it.
@Suite("Push receipts under docs/push.md's ACL", .timeLimit(.minutes(5)), .serialized)
struct PushReceiptACLTests {
    static func docsACL() throws -> String {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/push.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        guard let start = text.range(of: "and `/etc/mosquitto/liveactivities.acl`:"),
              let open = text.range(of: "```\n", range: start.upperBound..<text.endIndex),
              let close = text.range(of: "```", range: open.upperBound..<text.endIndex) else { return "" }
        return String(text[open.upperBound..<close.lowerBound])
    }

    @Test func theServerReadsTheDesktopsReceiptsUnderTheACL() throws {
        let acl = try Self.docsACL()
        #expect(acl.contains("topic write liveactivities/anna/receipt/#"), "\(acl)")
        let broker = try Mosquitto(listenerConfig: PushSecurityTests.brokerConfig(tls: false)) { directory in
            try PushSecurityTests.prepare(directory, tls: false)
            try acl.write(to: directory.appendingPathComponent("acl"), atomically: true, encoding: .utf8)
        }
        let dir = broker.directory.path
        let w = try PushWorld(broker: broker, daemonConfig: """
            push-broker = \(broker.url)
            push-username = desk-anna
            push-password-file = \(dir)/desk-password
            push-topic-prefix = liveactivities/anna
            """)
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        let server = ["-u", "ci-server", "-P", "server-secret"]
        let listener = try ReceiptListener(port: broker.port, directory: broker.directory.url, prefix: "liveactivities/anna", arguments: server)
        let (id, token) = try w.startWithToken()
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "acl"]],
                      prefix: "liveactivities/anna", arguments: server)
        #expect(listener.waitFor(1), "\(listener.lines)")
        #expect(listener.receipts.first?.topic == "liveactivities/anna/receipt/activity/\(token)")
        #expect(listener.receipts.first?.body["applied"] as? Bool == true && listener.receipts.first?.body["activity"] as? String == id)
    }
}
