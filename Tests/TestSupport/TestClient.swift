import DBus
import Foundation
import LiveActivitiesContract

/// A client of the daemon (or of the in-process service) for tests: calls the manager, reads
/// properties, and records every signal it sends, in order (driving its own loop while it waits).
public final class TestClient {
    public static let busName = BusNames.busName
    public static let path = BusNames.managerPath
    public static let interface = BusNames.managerInterface
    public static let activityInterface = BusNames.activityInterface

    public let connection: DBusConnection
    public let loop: EventLoop
    public private(set) var signals: [DBusMessage] = []

    /// `recordSignals` false: a client that never reads the daemon's signals must not ask for
    /// them, or under a flood the bus queues them for it until it drops its replies.
    public init(bus: PrivateBus, recordSignals: Bool = true) throws {
        loop = try EventLoop()
        connection = try DBusConnection(address: bus.address)
        connection.attach(to: loop)
        if recordSignals { try connection.addMatch("type='signal',sender='\(Self.busName)'") }
        connection.addMessageHandler { [weak self] message in
            guard let self else { return false }
            if message.kind == .signal { self.signals.append(message) }
            return false
        }
    }

    /// Calls a manager method; D-Bus errors are thrown as `DBusError`.
    @discardableResult
    public func call(_ member: String, _ arguments: [DBusValue] = [], path: String = TestClient.path,
              interface: String = TestClient.interface) throws -> [DBusValue] {
        try connection.callMethod(destination: Self.busName, path: path, interface: interface, member: member,
                                  arguments: arguments, timeoutMilliseconds: 10_000)
    }

    /// Start with plain dictionaries; returns the id.
    public func start(_ kind: String, attributes: [String: DBusValue] = [:], state: [String: DBusValue] = [:],
               options: [String: DBusValue] = [:]) throws -> String {
        let reply = try call("Start", [.string(kind), .vardict(attributes), .vardict(state), .vardict(options)])
        return reply.first?.string ?? ""
    }

    public func update(_ id: String, _ state: [String: DBusValue], options: [String: DBusValue] = [:]) throws {
        try call("Update", [.string(id), .vardict(state), .vardict(options)])
    }

    public func end(_ id: String, state: [String: DBusValue] = [:], options: [String: DBusValue] = [:]) throws {
        try call("End", [.string(id), .vardict(state), .vardict(options)])
    }

    public func get(_ id: String) throws -> [String: DBusValue] {
        try call("Get", [.string(id)]).first?.vardict ?? [:]
    }

    public func list() throws -> [[String]] {
        guard case .array(_, let rows)? = try call("List").first else { return [] }
        return rows.compactMap { row in
            guard case .structure(let fields) = row else { return nil }
            return fields.map { field in
                if case .objectPath(let path) = field { return path }
                return field.string ?? ""
            }
        }
    }

    public func property(_ name: String, path: String = TestClient.path, interface: String = TestClient.interface) throws -> DBusValue {
        try call("Get", [.string(interface), .string(name)], path: path, interface: "org.freedesktop.DBus.Properties")
            .first?.unwrapped ?? .string("")
    }

    /// The error a call fails with (or nil when it succeeds).
    public func error(_ body: () throws -> Void) -> DBusError? {
        do { try body(); return nil } catch let error as DBusError { return error } catch { return DBusError(name: "?", message: "\(error)") }
    }

    /// Processes incoming messages until `condition` holds or `timeout` seconds pass.
    /// The loop checks `condition` when it wakes, which a message wakes but a change on another
    /// thread (a recording server's Notify) does not: so it runs in slices and checks between
    /// them, instead of sleeping until the timeout when nothing arrives for this client. A slice
    /// is 10 ms, or twice the condition's cost when that is more (a condition that calls the
    /// daemon), like `waitUntil`.
    @discardableResult
    public func waitFor(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var cost = 0.0
        let timed = {
            let started = Date()
            defer { cost = Date().timeIntervalSince(started) }
            return condition()
        }
        repeat {
            let slice = min(max(0.01, 2 * cost), 0.2, max(0, deadline.timeIntervalSinceNow))
            if loop.run(until: timed, timeout: slice) { return true }
        } while Date() < deadline
        return condition()
    }

    /// Signals received so far with this member name.
    public func received(_ member: String) -> [[DBusValue]] {
        signals.filter { $0.member == member }.map { (try? $0.arguments()) ?? [] }
    }

    /// Reads every message `uniqueName` sent before it answers a Ping sent now.
    public func sync(with uniqueName: String) {
        var answered = false
        connection.callMethodAsync(destination: uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer",
                                   member: "Ping") { _ in answered = true }
        _ = loop.run(until: { answered }, timeout: 10)
    }

    /// The changed-properties dicts of PropertiesChanged on `path`, in order.
    public func propertiesChanged(on path: String) -> [[String: DBusValue]] {
        signals.filter { $0.member == "PropertiesChanged" && $0.path == path }
            .compactMap { (try? $0.arguments())?.dropFirst().first?.vardict }
    }

    public func forgetSignals() { signals = [] }
}
