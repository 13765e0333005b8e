/// The identity of a push message's bytes: two 64-bit FNV-1a hashes (different offsets) as 32
/// hex digits. With the target (token or kind) and `aps.timestamp` it tells a redelivered
/// message (QoS 1 resend, a retained message at every restart) from a new one sent in the same
/// second; it is not a security measure (whoever holds a token can send anything anyway).
public enum PushMessageDigest {
    /// The digest of `bytes`.
    public static func of(_ bytes: [UInt8]) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        for byte in bytes {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return hex(first) + hex(second)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
