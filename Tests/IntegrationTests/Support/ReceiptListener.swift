import Foundation
import TestSupport

/// A sender's view of the receipts: `mosquitto_sub` on `<prefix>/receipt/#` of a broker, its
/// lines (`topic payload`) read back from a file. Started before the messages are sent (the
/// receipts are not retained).
final class ReceiptListener {
    private let process: ChildProcess
    private let file: URL

    /// `arguments` (a login) are given to mosquitto_sub and to the probe's mosquitto_pub.
    init(port: Int, directory: URL, prefix: String = "liveactivities", arguments: [String] = []) throws {
        file = directory.appendingPathComponent("receipts-\(UUID().uuidString).txt")
        process = try ChildProcess("mosquitto_sub", ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-v",
                                                    "-t", "\(prefix)/receipt/#"] + arguments, output: .file(file))
        // The subscription is in place once the broker delivers a probe published after it.
        let probe = "\(prefix)/receipt/probe-\(UUID().uuidString)"
        _ = waitUntil(timeout: 10) {
            _ = try? runCommand("mosquitto_pub", ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", probe, "-m", "p"] + arguments)
            return lines.contains { $0.hasPrefix(probe) }
        }
    }

    /// Every line so far: `topic payload`.
    var lines: [String] {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The receipts so far as (topic, decoded JSON object).
    var receipts: [(topic: String, body: [String: Any])] {
        lines.compactMap { line in
            guard line.contains("/receipt/"), !line.contains("/receipt/probe-"), let space = line.firstIndex(of: " ") else { return nil }
            let json = Data(line[line.index(after: space)...].utf8)
            guard let body = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else { return nil }
            return (String(line[..<space]), body)
        }
    }

    /// Waits until at least `count` receipts arrived.
    @discardableResult
    func waitFor(_ count: Int, timeout: Double = 20) -> Bool {
        waitUntil(timeout: timeout) { receipts.count >= count }
    }

    deinit { process.stop() }
}
