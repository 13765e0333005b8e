import DBus
import Foundation

/// `PushType` as DESIGN.md's Start options (`push-type = "token"`, `push-channel = ID`), and a
/// Start that still succeeds on a daemon without push: it refuses the unknown option with
/// `InvalidArgs`, and the activity is started again without it (local updates only).
enum PushOptions {
    static func start(_ pushType: PushType?) -> [String: DBusValue] {
        guard let pushType else { return [:] }
        if let channel = pushType.channelID { return ["push-channel": .string(channel)] }
        return ["push-type": .string("token")]
    }

    /// Calls Start with `arguments` (kind, attributes, state) and `options`.
    static func start(_ link: DaemonLink, _ arguments: [DBusValue],
                      options: [String: DBusValue]) throws(ActivityAuthorizationError) -> [DBusValue] {
        do {
            return try link.call("Start", arguments + [.vardict(options)])
        } catch where options.keys.contains(where: { $0.hasPrefix("push-") }) && error.message.contains("push-") {
            // A daemon without push refuses the push options (NotSupported while push-broker is
            // unset; InvalidArgs from one that predates push): start the activity locally.
            let local = options.filter { !$0.key.hasPrefix("push-") }
            return try start(link, arguments, options: local)
        } catch where options["app-id"] != nil && error.message.contains("option \"app-id\" is unknown") {
            // A daemon older than `app-id` refuses it as unknown: the card then carries the daemon's own id.
            return try start(link, arguments, options: options.filter { $0.key != "app-id" })
        }
    }

    /// The bytes of a hex string; nil when it is not hex.
    static func bytes(hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
        var bytes = Data()
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
