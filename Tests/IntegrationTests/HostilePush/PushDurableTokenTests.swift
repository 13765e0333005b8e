import DBus
import Foundation
import Testing
import TestSupport

/// Issue 18, point 4: a push token is acknowledged (the Start reply) and announced (`PushToken`)
/// only once `push.json` holds it on stable storage. On a full disk the Start is refused with
/// `StorageFailed` and nothing changes; every token acknowledged before survives a restart.
@Suite("Push tokens are durable before they are acknowledged", .timeLimit(.minutes(5)), .serialized)
struct PushDurableTokenTests {
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aStartWhoseTokenCannotBeSavedIsRefused() throws {
        let disk = try FullDiskTests.SmallFilesystem(kilobytes: 256)
        let broker = try Mosquitto()
        let f = try DaemonFixture(recorderName: nil, environment: ["XDG_STATE_HOME": disk.mountPoint.path],
                                  config: "push-broker = \(broker.url)\n")
        let c = f.client
        #expect(c.waitFor(timeout: 20) { (try? c.property("PushStatus"))?.string == "connected" })
        let first = try c.start("generic", state: ["title": .string("before the disk filled")], options: ["push-type": .string("token")])
        let filler = disk.fill()

        var acknowledged: [String] = [first]
        var refusal: DBusError?
        for n in 0..<40 where refusal == nil {
            var id = ""
            refusal = c.error { id = try c.start("generic", state: ["title": .string("push \(n)")], options: ["push-type": .string("token")]) }
            if refusal == nil { acknowledged.append(id) }
        }
        #expect(refusal?.name == FullDiskTests.storageFailed, "\(String(describing: refusal))")
        #expect(Set(try c.list().map { $0[0] }) == Set(acknowledged), "the refused Start left nothing behind")

        // A crash, room again, a restart: every acknowledged Start has its token.
        f.daemon.kill()
        try FileManager.default.removeItem(at: filler)
        try f.daemon.start()
        for id in acknowledged {
            #expect(c.waitFor(timeout: 20) { !((try? c.get(id)["push-token"]?.string) ?? "").isEmpty },
                    "activity \(id) was acknowledged with a push token, which must survive the restart")
        }
        f.daemon.kill()
    }
}
