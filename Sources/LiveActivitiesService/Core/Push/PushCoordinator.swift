import ActivityModel
import DBus
import FoundationEssentials
import MQTT
import Push
import PushLink

/// Push (DESIGN.md, "Push") as the core sees it: the daemon subscribes to per-activity tokens,
/// push-to-start tokens and broadcast channels on an MQTT broker. It exists so that all the
/// state of push (on, or off and why) is one value the service owns; it reaches the core only
/// through `PushHooks`. This part connects, hands out tokens, and follows activities through
/// their life; `+Messages` applies what arrives, `+Receipts` says what became of it.
final class PushCoordinator {
    /// On, or off (and why, when `push-broker` is set but unusable); `running` is the running one.
    var setup = PushState.Setup.off(problem: nil)
    let hooks: PushHooks
    /// The loop, the bus's object server and the clock push runs on (the service's).
    let environment: ServiceEnvironment

    init(hooks: PushHooks, environment: ServiceEnvironment) {
        self.hooks = hooks
        self.environment = environment
    }

    /// Connects to the broker `settings` names; does nothing when it names none.
    func start(_ settings: PushSettings, paths: DaemonPaths) {
        if let problem = settings.brokerProblem {
            setup = .off(problem: problem)
            Log.error("push is off: \(problem) (in \(paths.configFile); see docs/push.md)")
        }
        guard let broker = settings.broker else { return }
        let path = paths.stateDirectory + "/push.json"
        var registry: PushRegistry
        do {
            registry = try PushRegistry.load(path: path) ?? .fresh()
        } catch {
            Log.error("push: \(path) is unreadable (\(error)); starting with new push tokens")
            registry = .fresh()
        }
        var endedWhileAway: [(id: String, token: String)] = []
        for id in Array(registry.activities.keys) where !hooks.holdsPlace(id) {
            if let token = registry.activities[id]?.token { endedWhileAway.append((id, token)) }
            registry.activities[id] = nil
        }
        for kind in hooks.kindNames() where registry.startTokens[kind] == nil { registry.startTokens[kind] = PushToken.make() }
        for healed in registry.healFutureTimestamps(now: environment.clock.now) {
            Log.warning("push: \(healed) had a last-applied timestamp more than \(Int(PushRegistry.futureLeewaySeconds)) s ahead of the clock (saved by an older version); forgotten, so later messages apply again")
        }
        let bridge = PushBridge(topics: PushTopics(prefix: settings.topicPrefix))
        setup = .on(PushState(bridge: bridge, registry: registry, path: path))
        for (id, token) in endedWhileAway { sendUnregisteredReceipt(id: id, token: token, why: "the activity is no longer live") }
        bridge.onStatus = { [weak self] _ in
            self?.environment.server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, names: ["PushStatus"])
        }
        bridge.onConfirmed = { [weak self] topic in self?.subscriptionConfirmed(topic) }
        bridge.onMessage = { [weak self] topic, payload, size in self?.handleMessage(topic: topic, payload: payload, size: size) }
        var password: String?
        if let file = settings.passwordFile {
            guard let data = FileManager.default.contents(atPath: file) else {
                bridge.setStatus("error: cannot read push-password-file \(file)")
                return
            }
            password = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init)
        }
        var mqtt = MQTTSettings(host: broker.host, port: broker.port, tls: broker.tls, caFile: settings.caFile,
                                username: settings.username, password: password, clientID: registry.clientID)
        mqtt.failover = settings.brokers.dropFirst().map { MQTTAddress(host: $0.host, port: $0.port) }
        bridge.connect(settings: mqtt, maxPayloadBytes: hooks.limits().maxPayloadBytes, loop: environment.loop)
    }

    /// The `PushStatus` property: `off`, `connecting`, `connected` or `error: …` (also when
    /// `push-broker` is set but cannot be used).
    var status: String { setup.status }

    /// The push that runs; nil when push is off (set directly by tests).
    var running: PushState? {
        get { setup.running }
        set { setup = newValue.map { .on($0) } ?? .off(problem: nil) }
    }

    /// The `PushToken` of an activity: its token once the broker confirmed the subscription, else "".
    func announcedToken(_ id: String) -> String {
        running?.announcedToken(of: id) ?? ""
    }

    /// `PushToStartToken(kind)`: the kind's stable push-to-start token (the caller reads the
    /// kind files again first when `kind` is unknown). A kind added at run time gets its token
    /// on the first ask. A token is handed out only once `push.json` holds it (else `StorageFailed`).
    func startToken(kind: String) throws(DBusError) -> String {
        guard let running else { throw offError }
        let kindNames = hooks.kindNames()
        guard kindNames.contains(kind) else {
            throw DBusError(name: BusNames.errorPrefix + "UnknownKind",
                            message: "no kind \"\(kind)\"; known kinds: \(kindNames.joined(separator: ", "))")
        }
        do {
            return try running.startToken(kind: kind)
        } catch {
            throw .storageFailed(error)
        }
    }

    /// Refuses push options of Start before anything changes, when push is off.
    func check(_ request: StartRequest) throws(DBusError) {
        if request.pushType != nil || request.pushChannel != nil, running == nil { throw offError }
    }

    /// Why push options are refused: push is off, or its `push-broker` could not be used.
    var offError: DBusError {
        guard case .off(let problem?) = setup else { return Self.off }
        return DBusError(name: Self.off.name, message: "push is off: \(problem) (see docs/push.md)")
    }

    /// Before a Start with push options is committed: the new activity's token and channel are
    /// written to `push.json` and fsynced, so a token is never acknowledged or announced unless
    /// it survives a restart. When that fails the Start is taken back (`transact`) and refused
    /// with `StorageFailed`.
    func prepare(_ id: String, _ request: StartRequest) throws(DBusError) {
        guard let running, request.pushType != nil || request.pushChannel != nil else { return }
        do {
            try running.prepare(id: id, token: request.pushType != nil, channel: request.pushChannel)
        } catch {
            Log.error("push: \(error.description); Start refused")
            throw .storageFailed(error)
        }
    }

    /// After the Start was committed: its token and channel are subscribed.
    func subscribe(_ id: String) {
        running?.subscribe(id: id)
    }

    /// The Start could not be committed after all: its push entry is forgotten again.
    func forget(_ id: String) {
        running?.forget(id: id)
    }

    /// An activity ended: its token topic is unsubscribed, and its channel when nobody else follows it.
    func activityEnded(_ id: String) {
        guard let running, let token = running.ended(id: id) else { return }
        running.releaseHeldStartReceipt(id: id, token: nil)
        if let token {
            // After the receipt of the message being applied now (an End by push says "applied" first).
            let target = LoopBound(self)
            environment.loop.remote.post { target.value.sendUnregisteredReceipt(id: id, token: token, why: "the activity ended") }
        }
    }

    /// The broker confirmed a subscription: an activity token is announced (PropertiesChanged
    /// of `PushToken`), like ActivityKit's `pushTokenUpdates`.
    private func subscriptionConfirmed(_ topic: String) {
        guard let running, let (id, token) = running.confirmed(topic) else { return }
        Log.info("push: activity \(id) has push token \(PushToken.redacted(token))")
        hooks.tokenAnnounced(id)
        running.releaseHeldStartReceipt(id: id, token: token)
    }

    /// Saves the registry within a second: timestamps change with every message, and writing
    /// the file for each would cost more than applying it. (A token change saves at once.) A
    /// crash loses at most that second of timestamps, which only guard against older messages.
    func saveSoon() {
        running?.saveSoon(clock: environment.clock, delay: Self.saveDelay)
    }

    static let saveDelay = 1.0

    static let off = DBusError(name: "org.freedesktop.DBus.Error.NotSupported",
                               message: "push is off: set push-broker in liveactivityd.conf (see docs/push.md)")
}
