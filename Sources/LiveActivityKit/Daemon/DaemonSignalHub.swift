import DBus
import Foundation
import LiveActivitiesContract

/// A change the daemon announced on its manager object.
enum DaemonSignal: Sendable, Equatable {
    case started(id: String, kind: String)
    case updated(id: String)
    case ended(id: String, reason: String)
    case status(id: String, status: String)
    case action(id: String, action: String)
    case enabled(Bool)
    /// The bus connection was lost: no more signals will come.
    case disconnected

    var activityID: String? {
        switch self {
        case .started(let id, _), .updated(let id), .ended(let id, _), .status(let id, _), .action(let id, _): id
        case .enabled, .disconnected: nil
        }
    }
}

/// The link's shared, thread-safe part: the daemon's signals fanned out to subscribers (the
/// AsyncSequences and the activities' caches), and the completions of calls in flight, which
/// all fail at once when the bus connection is lost so no caller waits forever.
final class DaemonSignalHub: @unchecked Sendable {
    /// The daemon's manager signals (not its PropertiesChanged, which tick with live timers).
    static let signalRule = "type='signal',sender='\(DaemonLink.busName)',path='\(DaemonLink.managerPath)',"
        + "interface='\(DaemonLink.managerInterface)'"
    /// The manager's PropertiesChanged, for `Enabled`; added only when someone watches it.
    static let propertiesRule = "type='signal',sender='\(DaemonLink.busName)',path='\(DaemonLink.managerPath)',"
        + "interface='\(DaemonLink.propertiesInterface)',member='PropertiesChanged',arg0='\(DaemonLink.managerInterface)'"

    typealias Completion = @Sendable (Result<[DBusValue], ActivityAuthorizationError>) -> Void

    private let lock = NSLock()
    private var subscribers: [Int: @Sendable (DaemonSignal) -> Void] = [:]
    private var pending: [Int: Completion] = [:]
    private var nextID = 1
    private var connected = true
    private var watchingEnabled = false

    var isConnected: Bool {
        lock.lock()
        defer { lock.unlock() }
        return connected
    }

    /// Adds a subscriber; it runs on the loop thread for every signal from now on.
    func subscribe(_ handler: @escaping @Sendable (DaemonSignal) -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        let id = nextID
        nextID += 1
        subscribers[id] = handler
        return id
    }

    func unsubscribe(_ id: Int) {
        lock.lock()
        subscribers[id] = nil
        lock.unlock()
    }

    /// Keeps a completion until its reply; nil when the connection is already gone.
    func register(_ completion: @escaping Completion) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard connected else { return nil }
        let id = nextID
        nextID += 1
        pending[id] = completion
        return id
    }

    func complete(_ ticket: Int, _ result: Result<[DBusValue], ActivityAuthorizationError>) {
        lock.lock()
        let completion = pending.removeValue(forKey: ticket)
        lock.unlock()
        completion?(result)
    }

    /// Whether the `Enabled` match still has to be added (true once).
    func startWatchingEnabled() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !watchingEnabled else { return false }
        watchingEnabled = true
        return true
    }

    /// The loop ended: every call in flight fails with `daemonUnavailable`, every sequence finishes.
    func disconnected() {
        lock.lock()
        connected = false
        let waiting = pending
        pending = [:]
        let handlers = handlersInOrder()
        lock.unlock()
        for completion in waiting.values {
            completion(.failure(ActivityAuthorizationError(.daemonUnavailable, "the session bus connection was lost")))
        }
        for handler in handlers { handler(.disconnected) }
    }

    /// The subscribers in the order they subscribed (call with the lock held): an activity's own
    /// observer, made when it was requested, sees a signal before a sequence made later, so
    /// `activityState` is already current when `activityStateUpdates` yields.
    private func handlersInOrder() -> [@Sendable (DaemonSignal) -> Void] {
        subscribers.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Parses a message from the bus and hands it to every subscriber.
    func dispatch(_ message: DBusMessage) {
        guard message.kind == .signal, message.path == DaemonLink.managerPath,
              let signal = Self.parse(message) else { return }
        lock.lock()
        let handlers = handlersInOrder()
        lock.unlock()
        for handler in handlers { handler(signal) }
    }

    static func parse(_ message: DBusMessage) -> DaemonSignal? {
        guard let member = message.member, let arguments = try? message.arguments() else { return nil }
        let texts = arguments.compactMap(\.string)
        if message.interface == DaemonLink.propertiesInterface {
            guard member == "PropertiesChanged", arguments.count >= 2,
                  let enabled = arguments[1].vardict?["Enabled"]?.bool else { return nil }
            return .enabled(enabled)
        }
        guard message.interface == DaemonLink.managerInterface else { return nil }
        switch (member, texts.count) {
        case ("ActivityStarted", 2): return .started(id: texts[0], kind: texts[1])
        case ("ActivityUpdated", 1): return .updated(id: texts[0])
        case ("ActivityEnded", 2): return .ended(id: texts[0], reason: texts[1])
        case ("StatusChanged", 2): return .status(id: texts[0], status: texts[1])
        case ("ActionInvoked", 2): return .action(id: texts[0], action: texts[1])
        default: return nil
        }
    }
}

/// D-Bus errors as ActivityKit's errors, keeping the daemon's message.
enum DaemonErrors {
    static let prefix = BusNames.errorPrefix

    static func translate(_ error: DBusError) -> ActivityAuthorizationError {
        let absent = ["ServiceUnknown", "NameHasNoOwner", "NoReply", "Disconnected", "NoServer", "Timeout", "TimedOut"]
        if absent.contains(where: { error.name == "org.freedesktop.DBus.Error." + $0 }) {
            return ActivityAuthorizationError(.daemonUnavailable, "liveactivityd is not running on the session bus (\(error.message))")
        }
        let code: ActivityAuthorizationError.Code
        switch error.name {
        case prefix + "PayloadTooLarge": code = .attributesTooLarge
        case prefix + "Disabled": code = .denied
        case prefix + "TooManyActivities": code = .globalMaximumExceeded
        case prefix + "AlreadyExists": code = .malformedActivityIdentifier
        case prefix + "NotFound", prefix + "NotActive": code = .activityNotActive
        case prefix + "UnknownKind": code = .unsupported
        case "org.freedesktop.DBus.Error.InvalidArgs": code = .invalidContent
        default: code = .persistenceFailure
        }
        return ActivityAuthorizationError(code, error.message)
    }
}
