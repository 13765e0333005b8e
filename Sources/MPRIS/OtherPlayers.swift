import DBus

/// The other MPRIS players on the bus and which of them play, so that ours can step aside
/// while music plays: Plasma's multiplexer and GNOME's media keys give Play/Pause to a player
/// that reports `Playing`, and keep the one they chose while it still plays, so a timer that
/// came first would keep the keys from music started after it (docs/desktops-plasma.md, "MPRIS
/// and the media keys"). Follows `NameOwnerChanged` of `org.mpris.MediaPlayer2.*` and each
/// player's `PropertiesChanged`, reading a player's status once when it appears; never waits
/// for a player (every read is asynchronous). Lives on the event loop's thread.
package final class OtherPlayers {
    static let namePrefix = "org.mpris.MediaPlayer2"
    private static let bus = (name: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
    private static let properties = "org.freedesktop.DBus.Properties"

    private let connection: DBusConnection
    /// Our own player's name, which is not another player.
    private let ownName: String
    /// Each other player's well-known name and the unique name that owns it.
    private var owners: [String: String] = [:]
    /// The unique names of the players whose `PlaybackStatus` is `Playing`.
    private(set) var playing: Set<String> = []
    /// The player that stopped playing last and when (monotonic seconds), while it is on the bus.
    private(set) var lastStopped: (owner: String, at: Double)?
    /// Called when another player starts or stops playing (none played, or one plays, now), or
    /// the player that stopped last left the bus.
    var onChange: (() -> Void)?
    private var handler: DBusConnection.HandlerToken?
    private let monotonicNow: () -> Double

    init(connection: DBusConnection, ownName: String, monotonicNow: @escaping () -> Double) {
        self.connection = connection
        self.ownName = ownName
        self.monotonicNow = monotonicNow
    }

    deinit {
        if let handler { connection.removeMessageHandler(handler) }
    }

    /// Whether another player plays now.
    var anyPlaying: Bool { !playing.isEmpty }

    /// Whether the player that stopped playing last did so less than `seconds` ago (and is
    /// still on the bus: it may be asked to play again).
    func stoppedPlaying(within seconds: Double) -> Bool {
        guard let lastStopped else { return false }
        return monotonicNow() - lastStopped.at < seconds
    }

    /// Subscribes, then lists the players already there and reads their status.
    func start() throws(DBusError) {
        try connection.addMatch("type='signal',sender='\(Self.bus.name)',interface='\(Self.bus.name)',"
                                + "member='NameOwnerChanged',arg0namespace='\(Self.namePrefix)'")
        try connection.addMatch("type='signal',interface='\(Self.properties)',member='PropertiesChanged',"
                                + "path='/org/mpris/MediaPlayer2',arg0='\(MediaPlayerPlayerInterface.name)'")
        handler = connection.addMessageHandler { [weak self] message in
            self?.handle(message)
            return false
        }
        connection.callMethodAsync(destination: Self.bus.name, path: Self.bus.path, interface: Self.bus.name,
                                   member: "ListNames") { [weak self] result in
            guard let self, case .success(let values) = result, case .array(_, let names)? = values.first else { return }
            for name in names.compactMap(\.string) where self.isOtherPlayer(name) { self.lookUpOwner(of: name) }
        }
    }

    private func isOtherPlayer(_ name: String) -> Bool {
        name != ownName && name.hasPrefix(Self.namePrefix + ".")
    }

    private func lookUpOwner(of name: String) {
        connection.callMethodAsync(destination: Self.bus.name, path: Self.bus.path, interface: Self.bus.name,
                                   member: "GetNameOwner", arguments: [.string(name)]) { [weak self] result in
            guard let self, case .success(let values) = result, let owner = values.first?.string,
                  self.owners[name] == nil else { return }
            self.appeared(name, owner: owner)
        }
    }

    private func appeared(_ name: String, owner: String) {
        owners[name] = owner
        connection.callMethodAsync(destination: owner, path: "/org/mpris/MediaPlayer2", interface: Self.properties,
                                   member: "Get", arguments: [.string(MediaPlayerPlayerInterface.name), .string("PlaybackStatus")],
                                   timeoutMilliseconds: 5_000) { [weak self] result in
            guard let self, case .success(let values) = result, self.owners.values.contains(owner),
                  let status = values.first?.string else { return }
            self.set(owner, status: status)
        }
    }

    private func handle(_ message: DBusMessage) {
        guard message.kind == .signal, let arguments = try? message.arguments() else { return }
        if message.member == "NameOwnerChanged", message.sender == Self.bus.name, arguments.count == 3,
           let name = arguments[0].string, isOtherPlayer(name),
           let old = arguments[1].string, let new = arguments[2].string {
            if !old.isEmpty { left(name, owner: old) }
            if !new.isEmpty { appeared(name, owner: new) }
        } else if message.member == "PropertiesChanged", message.interface == Self.properties,
                  let sender = message.sender, owners.values.contains(sender), arguments.count >= 2,
                  arguments[0].string == MediaPlayerPlayerInterface.name,
                  let status = arguments[1].vardict?["PlaybackStatus"]?.string {
            set(sender, status: status)
        }
    }

    private func left(_ name: String, owner: String) {
        owners[name] = nil
        guard !owners.values.contains(owner) else { return }
        let wasPlaying = playing.remove(owner) != nil
        let wasLastStopped = lastStopped?.owner == owner
        if wasLastStopped { lastStopped = nil }
        if wasPlaying || wasLastStopped { onChange?() }
    }

    private func set(_ owner: String, status: String) {
        let before = anyPlaying
        if status == "Playing" {
            playing.insert(owner)
        } else if playing.remove(owner) != nil {
            lastStopped = (owner, monotonicNow())
        }
        if anyPlaying != before { onChange?() }
    }
}
