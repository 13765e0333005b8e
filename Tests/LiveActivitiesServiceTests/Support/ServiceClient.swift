import DBus
import Foundation
import TestSupport

/// A client of the in-process service: calls over the bus and records every signal the
/// service sends, in order. `sync` ends when a Ping sent after everything of interest comes
/// back, so every signal emitted before it has been read.
final class ServiceClient {
    let connection: DBusConnection
    let loop: EventLoop
    private(set) var signals: [DBusMessage] = []

    init(bus: PrivateBus) throws {
        loop = try EventLoop()
        connection = try DBusConnection(address: bus.address)
        connection.attach(to: loop)
        try connection.addMatch("type='signal',sender='\(BusNames.busName)'")
        connection.addMessageHandler { [weak self] message in
            guard let self else { return false }
            if message.kind == .signal { self.signals.append(message) }
            return false
        }
    }

    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = [], path: String = BusNames.managerPath,
              interface: String = BusNames.managerInterface) throws -> [DBusValue] {
        try connection.callMethod(destination: BusNames.busName, path: path, interface: interface, member: member,
                                  arguments: arguments, timeoutMilliseconds: 10_000)
    }

    func start(_ kind: String, attributes: [String: DBusValue] = [:], state: [String: DBusValue] = [:],
               options: [String: DBusValue] = [:]) throws -> String {
        try call("Start", [.string(kind), .vardict(attributes), .vardict(state), .vardict(options)]).first?.string ?? ""
    }

    func update(_ id: String, _ state: [String: DBusValue], options: [String: DBusValue] = [:]) throws {
        try call("Update", [.string(id), .vardict(state), .vardict(options)])
    }

    func end(_ id: String, state: [String: DBusValue] = [:], options: [String: DBusValue] = [:]) throws {
        try call("End", [.string(id), .vardict(state), .vardict(options)])
    }

    func get(_ id: String) throws -> [String: DBusValue] {
        try call("Get", [.string(id)]).first?.vardict ?? [:]
    }

    func property(_ name: String, path: String = BusNames.managerPath, interface: String = BusNames.managerInterface) throws -> DBusValue {
        try call("Get", [.string(interface), .string(name)], path: path, interface: "org.freedesktop.DBus.Properties")
            .first?.unwrapped ?? .string("")
    }

    /// The error a call fails with (nil when it succeeds).
    func error(_ body: () throws -> Void) -> DBusError? {
        do { try body(); return nil } catch let error as DBusError { return error } catch { return DBusError(name: "?", message: "\(error)") }
    }

    /// Reads every message the service sent before it answers a Ping sent now.
    func sync(with uniqueName: String) {
        var answered = false
        connection.callMethodAsync(destination: uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer",
                                   member: "Ping") { _ in answered = true }
        _ = loop.run(until: { answered }, timeout: 10)
    }

    /// Signals received so far with this member name, as their arguments.
    func received(_ member: String) -> [[DBusValue]] {
        signals.filter { $0.member == member }.map { (try? $0.arguments()) ?? [] }
    }

    /// The changed-properties dicts of PropertiesChanged on `path`, in order.
    func propertiesChanged(on path: String) -> [[String: DBusValue]] {
        signals.filter { $0.member == "PropertiesChanged" && $0.path == path }
            .compactMap { (try? $0.arguments())?.dropFirst().first?.vardict }
    }

    func forgetSignals() { signals = [] }
}
