import DBus
import Foundation
import TestSupport

/// `org.freedesktop.ScreenSaver` for the idle tests, on the world's private bus, answering
/// `GetSessionIdleTime` with the idle time the test sets, in the unit of the implementation it
/// stands for, and counting the calls (the daemon polls it, so the count is the cost).
///
/// `.kscreenlocker` answers as Plasma's does (kscreenlocker v6.3.6, `interface.cpp`): the one
/// connection owns both `org.freedesktop.ScreenSaver` and `org.kde.screensaver` (lines 34 and
/// 36), and `GetSessionIdleTime` returns `KIdleTime::instance()->idleTime()`, milliseconds, as
/// a `u` (line 73), or, under Wayland, the error `org.freedesktop.DBus.Error.NotSupported`
/// (lines 69–70). `.seconds` answers seconds, as gnome-screensaver and xfce4-screensaver do.
///
/// Calls are answered by a message handler, not an interface table, so a test can queue
/// answers no table would allow: a hang (no reply), a string, an int64, an error.
final class FakeScreenSaver: @unchecked Sendable {
    static let name = "org.freedesktop.ScreenSaver"
    static let kdeName = "org.kde.screensaver"

    enum Flavor { case seconds, kscreenlocker }

    /// One answer to a call.
    enum Answer: Sendable {
        /// The idle time set with `setIdle`, in the flavor's unit, as a `u`.
        case idle
        /// No reply at all.
        case hang
        case value(DBusValue)
        case error(String)
    }

    let flavor: Flavor
    private let idle = LockedBox(0.0)
    private let calls = LockedBox(0)
    private let answers = AnswerQueue()
    private let remote: EventLoopRemote
    private let link = ConnectionLink()
    private let finished = DispatchSemaphore(value: 0)

    init(bus: PrivateBus, flavor: Flavor = .seconds) throws {
        self.flavor = flavor
        let idle = idle, calls = calls, answers = answers, link = link
        let perSecond = flavor == .kscreenlocker ? 1000.0 : 1
        let ready = DispatchSemaphore(value: 0)
        let started = LockedBox<Result<EventLoopRemote, DBusError>?>(nil)
        let finished = finished
        let address = bus.address
        // A thread of its own, without an object server, which would answer every call first.
        Thread {
            do throws(DBusError) {
                let connection = try DBusConnection(address: address)
                link.connection = connection
                let loop = try EventLoop()
                connection.attach(to: loop)
                connection.addMessageHandler { message in
                    guard message.kind == .methodCall, message.interface == Self.name,
                          message.member == "GetSessionIdleTime" else { return false }
                    calls.value += 1
                    switch answers.next() {
                    case .hang:
                        break
                    case .idle:
                        let reply = DBusMessage.methodReturn(replyingTo: message)
                        try? reply.append([.uint32(UInt32(min(Double(UInt32.max), idle.value * perSecond)))])
                        connection.send(reply)
                    case .value(let value):
                        let reply = DBusMessage.methodReturn(replyingTo: message)
                        try? reply.append([value])
                        connection.send(reply)
                    case .error(let name):
                        connection.send(DBusMessage.error(replyingTo: message, DBusError(
                            name: name, message: "GetSessionIdleTime is not supported on this platform")))
                    }
                    return true
                }
                _ = try connection.requestName(Self.name, flags: [.doNotQueue])
                if flavor == .kscreenlocker { _ = try connection.requestName(Self.kdeName, flags: [.doNotQueue]) }
                started.value = .success(loop.remote)
                ready.signal()
                loop.run()
            } catch {
                started.value = .failure(error)
                ready.signal()
            }
            finished.signal()
        }.start()
        ready.wait()
        remote = try started.value?.get() ?? { throw DBusError.failed("the fake ScreenSaver did not start") }()
    }

    /// The idle time the next calls answer, in seconds (sent in the flavor's unit).
    func setIdle(_ seconds: Double) { idle.value = seconds }

    /// The next calls answer these, in order; then `always`'s answer.
    func queue(_ list: [Answer]) { answers.append(list) }

    /// What every call answers once the queue is empty (`.idle` unless set).
    func always(_ answer: Answer) { answers.setStanding(answer) }

    /// A barrier: returns once this fake has handled every message `destination` sent it before
    /// answering a Ping sent now (the bus keeps one sender's messages in order), so a call the
    /// daemon made is counted (false when no answer came within 10 s).
    @discardableResult
    func sync(with destination: String) -> Bool {
        let answered = DispatchSemaphore(value: 0)
        let link = link
        remote.post {
            link.connection?.callMethodAsync(destination: destination, path: "/", interface: "org.freedesktop.DBus.Peer",
                                             member: "Ping") { _ in answered.signal() }
        }
        return answered.wait(timeout: .now() + 10) == .success
    }

    /// How many times the daemon asked.
    var callCount: Int { calls.value }

    deinit {
        remote.stop()
        finished.wait()
    }
}

/// The fake's connection, reached from work posted to its thread (only touched there).
private final class ConnectionLink: @unchecked Sendable {
    weak var connection: DBusConnection?
}

/// The fake's answers, shared by the test's thread (which queues) and the fake's (which answers).
private final class AnswerQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var queued: [FakeScreenSaver.Answer] = []
    private var standing = FakeScreenSaver.Answer.idle

    func append(_ answers: [FakeScreenSaver.Answer]) { lock.withLock { queued += answers } }
    func setStanding(_ answer: FakeScreenSaver.Answer) { lock.withLock { standing = answer } }
    func next() -> FakeScreenSaver.Answer { lock.withLock { queued.isEmpty ? standing : queued.removeFirst() } }
}
