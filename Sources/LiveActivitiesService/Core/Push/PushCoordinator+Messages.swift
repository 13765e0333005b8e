import ActivityModel
import DBus
import Push
import PushLink

/// Applies push messages. A message reaches only what its topic names (one activity's token,
/// one kind's push-to-start token, or the followers of one channel), is built into the same
/// typed request as a bus call (`PushRequests`, from its JSON) and goes through the same
/// `start`, `update` and `end` (`PushHooks`), so validation, limits and errors are shared; a refusal
/// becomes the message's `PushRejection` in one place (`pushCall`). Every message ends in one `PushReceived` signal per activity it was meant for:
/// applied, ignored (older than the last applied, or already applied: `PushRegistry+Identity`)
/// or rejected with the reason.
extension PushCoordinator {
    /// A message arrived on `topic` (its payload nil when it was larger than allowed, `size` bytes).
    func handleMessage(topic: String, payload: [UInt8]?, size: Int) {
        guard let push = running else { return }
        push.receive(payload: payload)
        guard let route = push.topics.route(of: topic) else {
            reject(id: "", event: "", PushRejection("InvalidArgs", "not a push topic"), topic: topic)
            return
        }
        let parsed: APSMessage
        do throws(PushRejection) {
            guard let payload else {
                throw PushRejection("PayloadTooLarge", "the message has \(size) bytes; at most \(hooks.limits().maxPayloadBytes) are accepted")
            }
            parsed = try APSMessage.parse(payload, maxBytes: hooks.limits().maxPayloadBytes)
            try checkTimestamp(parsed.timestamp)
        } catch {
            reject(id: routeActivity(route) ?? "", event: "", error, topic: topic)
            return
        }
        let digest = PushMessageDigest.of(payload ?? [])
        switch route {
        case .activity(let token):
            guard let id = push.activityID(forToken: token) else {
                reject(id: "", event: parsed.event.rawValue, PushRejection("NotFound", "no live activity has this token"), topic: topic, message: parsed)
                return
            }
            applyPush(parsed, digest: digest, to: id, topic: topic)
        case .channel(let channel):
            let followers = push.followers(of: channel)
            if followers.isEmpty {
                reject(id: "", event: parsed.event.rawValue, PushRejection("NotFound", "no live activity follows channel \(channel)"), topic: topic, message: parsed)
            }
            for id in followers { applyPush(parsed, digest: digest, to: id, topic: topic) }
        case .start(let token):
            guard let kind = push.kind(forStartToken: token) else {
                reject(id: "", event: parsed.event.rawValue, PushRejection("NotFound", "no kind has this push-to-start token"), topic: topic, message: parsed)
                return
            }
            startFromPush(parsed, digest: digest, kind: kind, topic: topic)
        }
    }

    /// The activity a route names directly (a token), for the signal of a malformed message.
    private func routeActivity(_ route: PushTopics.Route) -> String? {
        guard case .activity(let token) = route else { return nil }
        return running?.activityID(forToken: token)
    }

    /// A timestamp far ahead of the desktop's clock (milliseconds, 1e300) is refused: applied,
    /// it would make every later, correct message look stale.
    private func checkTimestamp(_ timestamp: Double) throws(PushRejection) {
        let ahead = timestamp - environment.clock.now
        guard ahead <= PushRegistry.futureLeewaySeconds else {
            throw PushRejection("InvalidArgs", "aps.timestamp \(Self.seconds(timestamp)) is \(Self.seconds(ahead.rounded())) s ahead of "
                                + "this desktop's clock (at most \(Int(PushRegistry.futureLeewaySeconds)) s are accepted); "
                                + "expected unix seconds, not milliseconds")
        }
    }

    /// Says why a message already applied, or older than the last applied, is ignored; false when it is new.
    private func ignoreIfSeen(_ verdict: PushRegistry.Verdict, id: String, _ message: APSMessage, what: String, topic: String) -> Bool {
        guard let push = running else { return true }
        let reason: String
        switch verdict {
        case .apply: return false
        case .stale(let last):
            reason = "Stale: timestamp \(Self.seconds(message.timestamp)) is older than the last \(what) applied \(Self.seconds(last))"
        case .duplicate:
            reason = "Duplicate: this message (timestamp \(Self.seconds(message.timestamp))) was already applied"
        }
        push.countIgnored()
        outcome(id: id, event: message.event.rawValue, applied: false, reason: reason, topic: topic, message: message)
        return true
    }

    /// An update or end for one activity, unless it is older than the last one applied or was applied already.
    private func applyPush(_ message: APSMessage, digest: String, to id: String, topic: String) {
        guard let push = running else { return }
        let event = message.event.rawValue
        let verdict = push.verdict(activity: id, timestamp: message.timestamp, digest: digest)
        if ignoreIfSeen(verdict, id: id, message, what: "message", topic: topic) { return }
        do throws(PushRejection) {
            switch message.event {
            case .start:
                throw PushRejection("InvalidArgs", "event start is only accepted on a push-to-start topic (\(push.topics.start("<token>")))")
            case .update:
                let request = try PushRequests.update(message)
                try pushCall { () throws(DBusError) in try hooks.update(id, request) }
            case .end:
                let request = try PushRequests.end(message)
                try pushCall { () throws(DBusError) in try hooks.end(id, request) }
            }
        } catch {
            reject(id: id, event: event, error, topic: topic, message: message)
            return
        }
        push.recordApplied(activity: id, timestamp: message.timestamp, digest: digest)
        // An alert sounds: its identity is saved at once, so a restart never sounds it again.
        if message.alert != nil, message.event == .update { push.save() } else { saveSoon() }
        outcome(id: id, event: event, applied: true, reason: "", topic: topic, message: message)
    }

    /// A start on a kind's push-to-start token.
    private func startFromPush(_ message: APSMessage, digest: String, kind: String, topic: String) {
        guard let push = running else { return }
        let event = message.event.rawValue
        do throws(PushRejection) {
            guard message.event == .start else {
                throw PushRejection("InvalidArgs", "a push-to-start topic accepts event start only, got \(event)")
            }
            let asked = message.attributesType ?? ""
            let kindNames = hooks.kindNames()
            guard kindNames.contains(asked) else {
                throw PushRejection("UnknownKind", "no kind \"\(asked)\"; known kinds: \(kindNames.joined(separator: ", "))")
            }
            guard asked == kind else {
                throw PushRejection("InvalidArgs", "this push-to-start token starts activities of kind \"\(kind)\", not \"\(asked)\"")
            }
            let verdict = push.verdict(start: kind, timestamp: message.timestamp, digest: digest)
            if ignoreIfSeen(verdict, id: "", message, what: "start", topic: topic) { return }
            let request = try PushRequests.start(message, kind: kind)
            let id = try pushCall { () throws(DBusError) in try hooks.start(request) }
            push.recordStart(kind: kind, id: id, timestamp: message.timestamp, digest: digest)
            started(id: id, topic: topic, message: message)
        } catch {
            reject(id: "", event: event, error, topic: topic, message: message)
        }
    }

    /// Logs and counts a refused message, and says so with `PushReceived`.
    private func reject(id: String, event: String, _ rejection: PushRejection, topic: String, message: APSMessage? = nil) {
        guard let push = running else { return }
        let (number, rejected) = push.countRejected()
        Log.warning("push: rejected message \(number) on \(push.topics.redacted(topic)) (\(rejected) rejected so far): \(rejection)")
        outcome(id: id, event: event, applied: false, reason: rejection.description, topic: topic, message: message)
    }

    /// A call of the core made for a push message; its refusal (`InvalidArgs`, `NotActive`,
    /// `StorageFailed`, …) as the message's rejection, the one place a call's error becomes one.
    private func pushCall<T>(_ body: () throws(DBusError) -> T) throws(PushRejection) -> T {
        do {
            return try body()
        } catch {
            throw PushRejection(error.name.split(separator: ".").last.map(String.init) ?? error.name, error.message)
        }
    }

    private static func seconds(_ time: Double) -> String {
        time == time.rounded(.down) && abs(time) < 1e15 ? String(Int64(time)) : String(time)
    }
}
