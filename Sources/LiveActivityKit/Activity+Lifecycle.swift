import DBus
import Foundation

/// How an activity ended, for the daemon's history and statistics (Linux addition: ActivityKit
/// has one kind of end). A focus session `completed` counts towards today's focus time.
public enum ActivityEndReason: String, Sendable, CaseIterable {
    case ended, completed, cancelled
}

extension Activity {
    /// Replaces the content; the card changes in place without popping up.
    public func update(_ content: ActivityContent<ContentState>) async {
        await update(content, alertConfiguration: nil)
    }

    /// Replaces the content; with an alert configuration the card pops up again with its
    /// title and body and plays its sound. Refusals are printed to stderr (ActivityKit's
    /// `update` does not throw either); `throwingUpdate` returns them.
    public func update(_ content: ActivityContent<ContentState>, alertConfiguration: AlertConfiguration?) async {
        do {
            try await throwingUpdate(content, alertConfiguration: alertConfiguration)
        } catch {
            Self.report("update", id: id, error)
        }
    }

    /// Linux addition: `update` that throws the daemon's refusal (`.invalidContent`,
    /// `.attributesTooLarge`, `.activityNotActive`, `.daemonUnavailable`).
    public func throwingUpdate(_ content: ActivityContent<ContentState>,
                               alertConfiguration: AlertConfiguration? = nil) async throws(ActivityAuthorizationError) {
        var options = ContentOptions.start(content)
        // The whole ContentState replaces the daemon's, so a field that became nil is gone.
        options["replace-state"] = .boolean(true)
        if let alert = alertConfiguration {
            options["alert-title"] = .string(alert.title)
            options["alert-body"] = .string(alert.body)
            options["alert-sound"] = .string(alert.sound.name ?? "message-new-instant")
        }
        _ = try await link.call("Update", [.string(id), .vardict(content.withSegments(try stateValues(content.state))), .vardict(options)])
        setContent(content)
    }

    /// Ends the activity with a final content (or the last one) and dismisses its card as
    /// the policy says: `.default` keeps the ended card up to four hours, `.immediate` closes
    /// it now, `.after(date)` then (at most four hours on).
    public func end(_ content: ActivityContent<ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default) async {
        await end(content, dismissalPolicy: dismissalPolicy, reason: .ended)
    }

    /// Linux addition: `end` with the reason the daemon records (`completed`, `cancelled`).
    public func end(_ content: ActivityContent<ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default,
                    reason: ActivityEndReason) async {
        do {
            try await throwingEnd(content, dismissalPolicy: dismissalPolicy, reason: reason)
        } catch {
            Self.report("end", id: id, error)
        }
    }

    /// Linux addition: `end` that throws the daemon's refusal.
    public func throwingEnd(_ content: ActivityContent<ContentState>?, dismissalPolicy: ActivityUIDismissalPolicy = .default,
                            reason: ActivityEndReason = .ended) async throws(ActivityAuthorizationError) {
        var options: [String: DBusValue] = ["reason": .string(reason.rawValue)]
        switch dismissalPolicy.rule {
        case .standard: options["dismissal"] = .string("default")
        case .immediate: options["dismissal"] = .string("immediate")
        case .after(let date): options["dismiss-at"] = .int64(Int64(min(max(1, date.timeIntervalSince1970.rounded(.up)), 9e18)))
        }
        let state = try content.map { content throws(ActivityAuthorizationError) in content.withSegments(try stateValues(content.state)) } ?? [:]
        if content != nil { options["replace-state"] = .boolean(true) }
        _ = try await link.call("End", [.string(id), .vardict(state), .vardict(options)])
        if let content { setContent(content) }
        setState(dismissalPolicy == .immediate ? .dismissed : .ended)
    }

    /// The state as the daemon takes it: flat, plus the composed title and body of a card without a kind file.
    private func stateValues(_ state: ContentState) throws(ActivityAuthorizationError) -> [String: DBusValue] {
        let flat = try FlatPayload(encoding: state, what: "state")
        guard kind == FallbackCard.kind else { return flat.values }
        return FallbackCard.state(flat, title: ActivityKindName.title(of: Attributes.self))
    }

    private static func report(_ call: String, id: String, _ error: any Error) {
        let line = "LiveActivityKit: \(call) of activity \(id) refused: \(error)\n"
        FileHandle.standardError.write(Data(line.utf8))
    }
}
