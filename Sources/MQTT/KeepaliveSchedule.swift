/// When the network thread must next wake for the keepalive, so a connected, idle client wakes
/// twice per keepalive (the PINGREQ it sends, the PINGRESP it reads) and not every few seconds.
///
/// libmosquitto sends its PINGREQ from `mosquitto_loop` once, in whole seconds of the monotonic
/// clock, the keepalive has passed since the last packet it wrote or read (`check_keepalive`,
/// lib/util_mosq.c: `now >= next_msg_out || now - last_msg_in >= keepalive`). It does not say
/// when that is, but it logs every packet ("Client … sending PUBLISH", "… received PINGRESP").
/// This schedule hears those lines and wakes at that moment. A packet it did not hear of can
/// only make libmosquitto's moment later than this one, never earlier, so the wake may come
/// early (then it waits a second and looks again) but never late. Until it has heard a packet,
/// or when the log's wording is not what it knows, it falls back to a third of the keepalive.
/// Pure: times are parameters.
public struct KeepaliveSchedule: Sendable, Equatable {
    public let keepaliveSeconds: Int64
    /// Monotonic whole seconds of the last packet written and read, as far as the log told.
    private var lastSent: Int64?
    private var lastReceived: Int64?

    public init(keepaliveSeconds: Int) {
        self.keepaliveSeconds = Int64(max(1, keepaliveSeconds))
    }

    /// A line of libmosquitto's log at `second` (monotonic whole seconds, as libmosquitto counts).
    public mutating func heard(_ line: String, at second: Int64) {
        if line.contains(" sending PINGREQ") {
            // libmosquitto counts the ping as both: it gives the broker a keepalive to answer in.
            lastSent = second
            lastReceived = second
        } else if line.hasPrefix("Client ") && line.contains(" sending ") {
            lastSent = second
        } else if line.hasPrefix("Client ") && line.contains(" received ") {
            lastReceived = second
        }
    }

    /// A new connection is being made: what was heard belongs to the old one.
    public mutating func reset() {
        lastSent = nil
        lastReceived = nil
    }

    /// How long the next `mosquitto_loop` may wait, in milliseconds, at `nanoseconds` on the
    /// monotonic clock: until the second the PINGREQ is due, 5 ms into it (at least 1 s when it
    /// is due already and was not sent), or a third of the keepalive before anything was heard.
    public func waitMilliseconds(atMonotonicNanoseconds nanoseconds: Int64) -> Int32 {
        guard let lastSent, let lastReceived else {
            return Int32(clamping: keepaliveSeconds * 1000 / 3)
        }
        let due = min(lastSent, lastReceived) + keepaliveSeconds
        let untilDue = due * 1_000_000_000 - nanoseconds
        guard untilDue > 0 else { return 1000 }
        let milliseconds = (untilDue + 999_999) / 1_000_000 + 5
        return Int32(clamping: min(milliseconds, keepaliveSeconds * 1000))
    }
}
