import DBus
import Foundation
import TestSupport
@testable import LiveActivityKit

/// One private world per test: a bus, a card server that records cards and presses buttons,
/// the real daemon, and LiveActivityKit pointed at that bus (never the user's session).
final class KitWorld: @unchecked Sendable {
    static let busName = "io.github.liveactivities.LiveActivities1"
    static let managerPath = "/io/github/liveactivities/LiveActivities1"

    let bus: PrivateBus
    let cards: TestCardServer
    let daemon: DaemonProcess

    /// - Parameter configKinds: kind files (name → JSON) in the user's config kind directory
    ///   before the daemon starts (the directory then exists, so inotify watches it).
    init(configKinds: [String: String] = [:], startDaemon: Bool = true) throws {
        bus = try PrivateBus()
        cards = try TestCardServer(bus: bus)
        daemon = try DaemonProcess(bus: bus, start: false)
        try FileManager.default.createDirectory(at: configKindDirectory, withIntermediateDirectories: true)
        for (name, json) in configKinds {
            try json.write(to: configKindDirectory.appendingPathComponent(name + ".json"), atomically: true, encoding: .utf8)
        }
        if startDaemon { try daemon.start() }
    }

    /// `$XDG_DATA_HOME/liveactivities/kinds` of the daemon: where apps install their kind files.
    var dataKindDirectory: URL { daemon.home.url.appendingPathComponent("data/liveactivities/kinds") }
    var configKindDirectory: URL { daemon.configDirectory.appendingPathComponent("kinds") }

    /// Runs `body` with LiveActivityKit talking to this world's bus.
    func run<T>(_ body: () async throws -> T) async rethrows -> T {
        try await DaemonLink.$busAddress.withValue(bus.address) { try await body() }
    }

    /// A manager method called over a fresh connection of the test's own.
    func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = KitWorld.busName) throws -> [DBusValue] {
        let connection = try DBusConnection(address: bus.address)
        return try connection.callMethod(destination: Self.busName, path: Self.managerPath, interface: interface,
                                         member: member, arguments: arguments)
    }

    /// `Get(id)` as the daemon answers it.
    func get(_ id: String) throws -> [String: DBusValue] {
        try call("Get", [.string(id)]).first?.vardict ?? [:]
    }

    func property(_ name: String) throws -> DBusValue? {
        try call("Get", [.string(Self.busName), .string(name)], interface: "org.freedesktop.DBus.Properties").first?.unwrapped
    }

    func setEnabled(_ on: Bool) throws {
        _ = try call("Set", [.string(Self.busName), .string("Enabled"), .variant(.boolean(on))],
                     interface: "org.freedesktop.DBus.Properties")
    }

    /// Runs one of our executables (`focusflow`, `leanup`, `liveactivity`) on this bus.
    func runProduct(_ name: String, _ arguments: [String]) throws -> CommandResult {
        try runCommand(BuiltProducts.path(of: name), arguments, environment: daemon.environment, timeout: 30)
    }
}

/// An iterator made before the change it waits for (so it already listens), awaited with a timeout.
final class Waiter<Element: Sendable>: @unchecked Sendable {
    private var iterator: AsyncIteratorForTests<Element>

    init<S: AsyncSequence>(_ sequence: S) where S.Element == Element {
        iterator = AsyncIteratorForTests(sequence.makeAsyncIterator())
    }

    /// The first element that matches, or nil after `timeout` seconds.
    func next(timeout: Double = 10, where matches: @escaping @Sendable (Element) -> Bool = { _ in true }) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                while let element = await self.advance() {
                    if matches(element) { return element }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1e9))  // the timeout, cancelled when an element comes
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private func advance() async -> Element? { await iterator.next() }
}

/// Any async iterator behind one concrete type.
struct AsyncIteratorForTests<Element>: AsyncIteratorProtocol {
    private let nextElement: () async -> Element?

    init<I: AsyncIteratorProtocol>(_ iterator: I) where I.Element == Element {
        let box = IteratorHolder(iterator)
        nextElement = { await box.next() }
    }

    func next() async -> Element? { await nextElement() }
}

/// Holds a mutable iterator for the closure above.
private final class IteratorHolder<I: AsyncIteratorProtocol> {
    var iterator: I
    init(_ iterator: I) { self.iterator = iterator }
    func next() async -> I.Element? { try? await iterator.next() }
}

extension KitWorld {
    /// Waits for a card that satisfies `matches` (at most 10 s).
    func waitForCard(_ matches: @escaping (TestCardServer.Card) -> Bool) -> TestCardServer.Card? {
        var found: TestCardServer.Card?
        _ = waitUntil(timeout: 10) {
            found = cards.all.first(where: matches)
            return found != nil
        }
        return found
    }

    /// Waits until the daemon no longer holds activity `id` (dismissed).
    func waitUntilGone(_ id: String) -> Bool {
        waitUntil(timeout: 10) {
            do {
                _ = try get(id)
                return false
            } catch let error as DBusError {
                return error.name.hasSuffix(".NotFound")
            } catch {
                return false
            }
        }
    }
}
