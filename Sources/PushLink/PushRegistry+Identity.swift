import Push

/// Push messages are applied at most once (issue 18): every target (an activity's token, or a
/// kind's push-to-start token) keeps the `aps.timestamp` of the last message applied and the
/// digests of the messages applied with that very timestamp. An older message is stale; one
/// with the same timestamp and the same bytes is a duplicate (a QoS 1 resend, a retained
/// message delivered again after a restart); a different message of the same second applies.
package extension PushRegistry {
    /// What to do with a message on one target.
    enum Verdict: Equatable {
        case apply
        case stale(last: Double)
        case duplicate
    }

    /// At most this many digests are kept per target (a sender rarely sends more in one second).
    static let digestsKept = 32

    /// A message arrives more than this ahead of the desktop's clock: refused (a timestamp in
    /// milliseconds, 1e300), so it never locks its activity against every later message.
    static let futureLeewaySeconds = 3_600.0

    static func verdict(timestamp: Double, digest: String, last: Double?, digests: [String]?) -> Verdict {
        guard let last else { return .apply }
        if timestamp < last { return .stale(last: last) }
        if timestamp == last, digests?.contains(digest) == true { return .duplicate }
        return .apply
    }

    /// The digests to keep after applying a message of `timestamp` with `digest`.
    static func recorded(timestamp: Double, digest: String, last: Double?, digests: [String]?) -> [String] {
        guard timestamp == last else { return [digest] }
        return Array(((digests ?? []) + [digest]).suffix(digestsKept))
    }

    /// The verdict for an update or end on activity `id`.
    func verdict(activity id: String, timestamp: Double, digest: String) -> Verdict {
        let entry = activities[id]
        return Self.verdict(timestamp: timestamp, digest: digest, last: entry?.lastTimestamp, digests: entry?.appliedDigests)
    }

    /// The verdict for a start on the push-to-start token of `kind`.
    func verdict(start kind: String, timestamp: Double, digest: String) -> Verdict {
        Self.verdict(timestamp: timestamp, digest: digest, last: lastStartTimestamps[kind], digests: startDigests?[kind])
    }

    /// Remembers an update or end applied to `id`.
    mutating func applied(activity id: String, timestamp: Double, digest: String) {
        guard var entry = activities[id] else { return }
        entry.appliedDigests = Self.recorded(timestamp: timestamp, digest: digest, last: entry.lastTimestamp,
                                             digests: entry.appliedDigests)
        entry.lastTimestamp = timestamp
        activities[id] = entry
    }

    /// Remembers a start applied on the token of `kind`.
    mutating func applied(start kind: String, timestamp: Double, digest: String) {
        var all = startDigests ?? [:]
        all[kind] = Self.recorded(timestamp: timestamp, digest: digest, last: lastStartTimestamps[kind], digests: all[kind])
        startDigests = all
        lastStartTimestamps[kind] = timestamp
    }

    /// Forgets timestamps further ahead of `now` than the leeway: a lock saved by a daemon that
    /// accepted such a message. Returns what it healed, for the log.
    mutating func healFutureTimestamps(now: Double) -> [String] {
        let limit = now + Self.futureLeewaySeconds
        var healed: [String] = []
        for (id, entry) in activities {
            guard let last = entry.lastTimestamp, !(last <= limit) else { continue }
            activities[id]?.lastTimestamp = nil
            activities[id]?.appliedDigests = nil
            healed.append("activity \(id)")
        }
        for (kind, last) in lastStartTimestamps where !(last <= limit) {
            lastStartTimestamps[kind] = nil
            startDigests?[kind] = nil
            healed.append("push-to-start of kind \(kind)")
        }
        return healed.sorted()
    }
}
