import Foundation
import MQTT
import Testing
import TestSupport

/// The real client on a real mosquitto, connected and idle: the network thread wakes for the
/// keepalive's PINGREQ and its PINGRESP and for nothing else, and the broker keeps the
/// connection. libmosquitto's shortest keepalive, 5 s, makes two keepalives fit in 10.5 s.
@Suite("Keepalive wake-ups on a real broker", .serialized, .timeLimit(.minutes(1)))
struct KeepaliveWakeupTests {
    /// What the client reported, read from the test's thread.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [MQTTEvent] = []
        func add(_ event: MQTTEvent) { lock.lock(); all.append(event); lock.unlock() }
        var connections: Int { lock.lock(); defer { lock.unlock() }; return all.filter { if case .connected = $0 { true } else { false } }.count }
        var describe: String { lock.lock(); defer { lock.unlock() }; return "\(all)" }
        var losses: [String] {
            lock.lock(); defer { lock.unlock() }
            return all.compactMap { if case .disconnected(let reason) = $0 { reason } else { nil } }
        }
    }

    @Test func aConnectedIdleClientWakesTwicePerKeepalive() throws {
        let broker = try Mosquitto()
        let events = Events()
        let settings = MQTTSettings(host: "127.0.0.1", port: broker.port, clientID: "la-keepalive-test",
                                    persistentSession: false, keepaliveSeconds: 5)
        let client = try MQTTClient(settings: settings, maxPayloadBytes: 1024) { events.add($0) }
        #expect(client.start())
        defer { client.stop() }
        #expect(waitUntil(timeout: 10) { events.connections == 1 })
        let before = try #require(Self.networkThreadSwitches())
        let window = 10.5  // the subject: two keepalives of idle, counted in wake-ups
        Thread.sleep(forTimeInterval: window)
        let wakeups = try #require(Self.networkThreadSwitches()) - before
        print("keepalive 5 s, idle \(window) s: \(wakeups) wake-ups of the network thread; events: \(events.describe)")
        // Two pings and their answers: at most 4 (3 here: an answer can come before the thread
        // sleeps again), one more where a wake falls a second early. A third of the keepalive
        // (what it was) woke 8 times in this window; libmosquitto's own 1 s, about 12.
        #expect((2...5).contains(wakeups), "\(wakeups) wake-ups in \(window) s")
        #expect(events.losses.isEmpty, "the broker kept the connection: \(events.losses)")
        #expect(events.connections == 1)
    }

    /// The voluntary context switches of this process's network thread ("mqtt"): how often it
    /// slept and woke. Nil when there is no such thread.
    static func networkThreadSwitches() -> Int? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            guard comm.trimmingCharacters(in: .whitespacesAndNewlines) == MQTTClient.threadName,
                  let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                  let count = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else { continue }
            return count
        }
        return nil
    }
}
