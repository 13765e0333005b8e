import DBus
import Foundation
import Testing
import TestSupport

/// Load: 32 live activities updated by 8 clients at once, as fast as each can, for 4 s (10 s
/// until issue 20: four once-a-second card slots show the pacing as well as ten).
/// Nothing fails, nothing acknowledged is lost, and the notification server is not flooded.
@Suite("Load", .timeLimit(.minutes(5)))
struct LoadTests {
    static let clients = 8
    static let activitiesPerClient = 4
    static let seconds = 4.0

    /// What one client thread did: the last acknowledged sequence number per activity, and errors.
    final class Tally: @unchecked Sendable {
        private let lock = NSLock()
        private var acknowledged: [String: Int64] = [:]
        private var errors: [String] = []
        private var total = 0

        func record(id: String, sequence: Int64) {
            lock.lock(); acknowledged[id] = sequence; total += 1; lock.unlock()
        }
        func fail(_ message: String) { lock.lock(); errors.append(message); lock.unlock() }
        var snapshot: (acknowledged: [String: Int64], errors: [String], total: Int) {
            lock.lock(); defer { lock.unlock() }
            return (acknowledged, errors, total)
        }
    }

    @Test func eightClientsFloodThirtyTwoActivitiesWithoutLossOrNotifyFlood() throws {
        let f = try DaemonFixture(recorderName: "dunst", recordSignals: false)
        var ids: [[String]] = []
        for client in 0..<Self.clients {
            ids.append(try (0..<Self.activitiesPerClient).map { index in
                try f.client.start("generic", state: ["title": .string("load \(client) \(index)")],
                                   options: ["id": .string("load_\(client)_\(index)")])
            })
        }
        let tally = Tally()
        let address = f.bus.address
        let deadline = Date().addingTimeInterval(Self.seconds)
        let group = DispatchGroup()
        for clientIDs in ids {
            group.enter()
            Thread {
                Self.flood(address: address, ids: clientIDs, until: deadline, tally: tally)
                group.leave()
            }.start()
        }
        group.wait()
        let result = tally.snapshot
        print("load: \(result.total) acknowledged updates in \(Self.seconds) s from \(Self.clients) clients "
              + "(\(Int(Double(result.total) / Self.seconds))/s)")
        #expect(result.errors.isEmpty, "\(result.errors.count) errors, first: \(result.errors.prefix(5))")
        #expect(result.acknowledged.count == Self.clients * Self.activitiesPerClient)

        for (id, sequence) in result.acknowledged {
            let state = try f.client.get(id)["state"]?.vardict
            #expect(state?["seq"]?.integer == sequence, "\(id): Get says \(String(describing: state?["seq"])), last acknowledged \(sequence)")
        }

        // The last coalesced cards go out within their once-a-second slot: wait for each one.
        func lastCard(_ id: String, in calls: [RecordingNotificationServer.NotifyCall]) -> RecordingNotificationServer.NotifyCall? {
            calls.last { $0.summary.contains("load \(id.split(separator: "_")[1]) \(id.split(separator: "_")[2])") }
        }
        _ = waitUntil(timeout: 5) {
            let calls = f.recorder?.calls ?? []
            return result.acknowledged.allSatisfy { id, sequence in
                lastCard(id, in: calls)?.body.split(separator: "\n").first == "n\(sequence)"[...]
            }
        }
        let calls = f.recorder?.calls ?? []
        let byCard = Dictionary(grouping: calls, by: \.assignedID)
        #expect(byCard.count == Self.clients * Self.activitiesPerClient, "one card per activity")
        for (card, notifies) in byCard {
            for (a, b) in zip(notifies, notifies.dropFirst()) {
                let gap = b.time.timeIntervalSince(a.time)
                #expect(gap >= 0.9, "card \(card): two Notify calls \(gap) s apart")
            }
        }
        for (id, sequence) in result.acknowledged {
            let last = lastCard(id, in: calls)
            #expect(last?.body.split(separator: "\n").first == "n\(sequence)"[...],
                    "\(id): the card shows the latest state, not \(last?.body ?? "nothing")")
        }
    }

    /// One client: its own connection, updating its activities round-robin until the deadline.
    static func flood(address: String, ids: [String], until deadline: Date, tally: Tally) {
        let connection: DBusConnection
        do {
            connection = try DBusConnection(address: address)
        } catch {
            tally.fail("connect: \(error)")
            return
        }
        var sequence: Int64 = 0
        while Date() < deadline {
            for id in ids {
                sequence += 1
                let state = DBusValue.vardict(["seq": .int64(sequence), "body": .string("n\(sequence)")])
                do {
                    _ = try connection.callMethod(destination: TestClient.busName, path: TestClient.path,
                                                  interface: TestClient.interface, member: "Update",
                                                  arguments: [.string(id), state, .vardict([:])], timeoutMilliseconds: 5_000)
                    tally.record(id: id, sequence: sequence)
                } catch {
                    tally.fail("\(id) #\(sequence): \(error)")
                }
            }
        }
    }
}
