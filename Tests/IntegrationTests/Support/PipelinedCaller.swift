import DBus
import Foundation
import TestSupport

/// A raw client connection that sends many method calls back to back and then collects
/// every reply, so a test can throw thousands of (hostile) messages at the daemon quickly and
/// still check that each one was answered.
final class PipelinedCaller {
    /// How one call ended: a method return, a named error, or nothing before the deadline.
    enum Outcome: Equatable {
        case returned([DBusValue])
        case error(name: String, message: String)
        case noReply
    }

    let connection: DBusConnection
    private let loop: EventLoop
    private var replies: [UInt32: Outcome] = [:]

    init(bus: PrivateBus) throws {
        loop = try EventLoop()
        connection = try DBusConnection(address: bus.address)
        connection.attach(to: loop)
        connection.addMessageHandler { [weak self] message in
            guard let self else { return false }
            guard message.kind == .methodReturn || message.kind == .error else { return false }
            if let error = message.asError {
                replies[message.replySerial] = .error(name: error.name, message: error.message)
            } else {
                replies[message.replySerial] = .returned((try? message.arguments()) ?? [])
            }
            return true
        }
    }

    /// Sends every message, then waits (at most `timeout` seconds) for all their replies;
    /// returns one outcome per message, in order.
    func callAll(_ messages: [DBusMessage], timeout: Double = 20) -> [Outcome] {
        replies.removeAll(keepingCapacity: true)
        var serials: [UInt32] = []
        for message in messages {
            connection.send(message)
            serials.append(message.serial)
        }
        connection.flush()
        _ = loop.run(until: { self.replies.count >= serials.count }, timeout: timeout)
        return serials.map { replies[$0] ?? .noReply }
    }

    /// One blocking call, for setting things up.
    func call(_ message: DBusMessage) -> Outcome {
        callAll([message]).first ?? .noReply
    }
}
