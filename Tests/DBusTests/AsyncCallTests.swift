import Foundation
import Testing
import DBus
import TestSupport

/// `callAsync`: the caller's loop keeps running while the reply is on its way, and the
/// completion gets the reply, the remote error, or a timeout, exactly once.
@Suite(.timeLimit(.minutes(5))) struct AsyncCallTests {
    let bus: PrivateBus
    let server: ServerThread
    let client: DBusConnection
    let loop: EventLoop

    init() throws {
        bus = try PrivateBus()
        server = try ServerThread(address: bus.address) { connection, server, _ in
            try CounterService.install(connection: connection, server: server)
        }
        client = try DBusConnection(address: bus.address)
        loop = try EventLoop()
        client.attach(to: loop)
    }

    private func callCounter(_ member: String, _ arguments: [DBusValue] = [], timeout: Int32 = 5_000,
                             into results: @escaping (DBusConnection.CallResult) -> Void) {
        client.callMethodAsync(destination: CounterService.name, path: CounterService.path,
                               interface: CounterService.interface, member: member, arguments: arguments,
                               timeoutMilliseconds: timeout, completion: results)
    }

    @Test func replyArrivesOnTheLoopAfterTheCallReturned() throws {
        var results: [DBusConnection.CallResult] = []
        callCounter("Increment", [.uint32(4)]) { results.append($0) }
        callCounter("Echo", [.string("hi"), .vardict([:])]) { results.append($0) }
        #expect(results.isEmpty, "the call must not wait for its reply")
        #expect(loop.run(until: { results.count == 2 }, timeout: 5))
        #expect(try results[0].get() == [.uint32(4)])
        #expect(try results[1].get() == [.string("hi"), .vardict([:])])
        var barrier = false
        callCounter("Trivial") { _ in barrier = true }  // a later reply: the earlier ones were all dispatched
        #expect(loop.run(until: { barrier }, timeout: 5))
        #expect(results.count == 2, "each completion runs once")
    }

    @Test func remoteErrorIsReportedWithItsName() {
        var outcome: DBusConnection.CallResult?
        callCounter("Fail") { outcome = $0 }
        #expect(loop.run(until: { outcome != nil }, timeout: 5))
        guard case .failure(let error)? = outcome else {
            Issue.record("expected an error, got \(String(describing: outcome))")
            return
        }
        #expect(error.name == "org.example.Error.Nope")
        #expect(error.message == "nope, as asked")
    }

    @Test func aPeerThatNeverAnswersTimesOutWithoutBlocking() throws {
        let silent = try DBusConnection(address: bus.address)
        #expect(try silent.requestName("org.example.Silent") == .primaryOwner)
        var outcome: DBusConnection.CallResult?
        var ticks = 0
        let started = Date()
        client.callMethodAsync(destination: "org.example.Silent", path: "/x", interface: "org.example.X",
                               member: "Hang", timeoutMilliseconds: 300) { outcome = $0 }
        _ = loop.addTimer(at: Date().timeIntervalSince1970 + 0.1) { ticks += 1 }
        #expect(loop.run(until: { outcome != nil }, timeout: 5))
        #expect(ticks == 1, "the loop ran other work while the call waited")
        #expect(Date().timeIntervalSince(started) < 3)
        guard case .failure(let error)? = outcome else {
            Issue.record("expected a timeout, got \(String(describing: outcome))")
            return
        }
        #expect(error.name == "org.freedesktop.DBus.Error.NoReply")
    }

    @Test func invalidNamesFailAtOnce() {
        var outcome: DBusConnection.CallResult?
        client.callMethodAsync(destination: "not a name", path: "/x", interface: "org.example.X", member: "Y") {
            outcome = $0
        }
        guard case .failure(let error)? = outcome else {
            Issue.record("expected InvalidArgs, got \(String(describing: outcome))")
            return
        }
        #expect(error.name == "org.freedesktop.DBus.Error.InvalidArgs")
    }
}
