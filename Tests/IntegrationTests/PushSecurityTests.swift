import DBus
import Foundation
import Testing
import TestSupport

/// Push through a broker set up as docs/push.md says: TLS, a user per side, and the ACL that
/// lets the server publish only and the desktop subscribe only.
@Suite("Push with TLS, logins and the ACL of docs/push.md", .serialized, .timeLimit(.minutes(5)))
struct PushSecurityTests {
    /// The ACL of docs/push.md's short version, exactly.
    static let acl = """
    user ci-server
    topic write liveactivities/#

    user desk-anna
    topic read liveactivities/#
    """

    /// Users, the ACL file and (for TLS) a CA and a certificate for 127.0.0.1, in `directory`.
    static func prepare(_ directory: URL, tls: Bool) throws {
        let dir = directory.path
        var script = """
        set -e
        cd '\(dir)'
        touch passwd && chmod 600 passwd
        mosquitto_passwd -b passwd ci-server server-secret
        mosquitto_passwd -b passwd desk-anna desk-secret
        printf 'desk-secret\\n' > desk-password
        """
        if tls {
            script += """

            openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj /CN=push-test-ca 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=127.0.0.1 2>/dev/null
            printf 'subjectAltName=IP:127.0.0.1\\n' > san.ext
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile san.ext 2>/dev/null
            chmod 644 server.key
            """
        }
        let result = try runCommand("/bin/bash", ["-c", script])
        guard result.status == 0 else { throw MosquittoError.didNotStart("setup: \(result.stderr)") }
        try acl.write(to: directory.appendingPathComponent("acl"), atomically: true, encoding: .utf8)
    }

    static func brokerConfig(tls: Bool) -> String {
        var lines = ["allow_anonymous false", "password_file $DIR/passwd", "acl_file $DIR/acl"]
        if tls { lines += ["certfile $DIR/server.crt", "keyfile $DIR/server.key"] }
        return lines.joined(separator: "\n")
    }

    @Test func pushDocShowsThisACL() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/push.md").standardized
        #expect(try String(contentsOf: readme, encoding: .utf8).contains(Self.acl))
    }

    @Test func tlsWithLoginsAndTheACLCarriesAnUpdate() throws {
        let broker = try Mosquitto(listenerConfig: Self.brokerConfig(tls: true)) { try Self.prepare($0, tls: true) }
        let dir = broker.directory.path
        let w = try PushWorld(broker: broker, daemonConfig: """
            push-broker = mqtts://127.0.0.1:\(broker.port)
            push-username = desk-anna
            push-password-file = \(dir)/desk-password
            push-ca-file = \(dir)/ca.crt
            """)
        #expect(w.waitForStatus { $0 == "connected" }, "status: \(w.status)")
        let (id, token) = try w.startWithToken()
        #expect(!token.isEmpty, "the desktop may subscribe under the ACL")
        try w.publish("activity", token, aps: ["timestamp": PushWorld.now(), "event": "update", "content-state": ["body": "over TLS"]],
                      arguments: ["--cafile", "\(dir)/ca.crt", "-u", "ci-server", "-P", "server-secret"])
        #expect(w.waitForReceived(1))
        #expect(try w.client.get(id)["body"]?.string == "over TLS")
        #expect(!w.fixture.daemon.log().contains("desk-secret"), "the password is never logged")
    }

    @Test func aWrongPasswordShowsInPushStatus() throws {
        let broker = try Mosquitto(listenerConfig: Self.brokerConfig(tls: false)) { try Self.prepare($0, tls: false) }
        let wrong = broker.directory.url.appendingPathComponent("wrong-password")
        try "not-the-password\n".write(to: wrong, atomically: true, encoding: .utf8)
        let w = try PushWorld(broker: broker, daemonConfig: """
            push-broker = \(broker.url)
            push-username = desk-anna
            push-password-file = \(wrong.path)
            """)
        #expect(w.waitForStatus { $0.hasPrefix("error: the broker refused the connection") }, "status: \(w.status)")
        #expect(w.status.contains("not authorised"), "status: \(w.status)")
    }
}
