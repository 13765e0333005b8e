import DBus
import Foundation

/// The push side of the CLI: `start --push` (which waits until the daemon announces the
/// token, as ActivityKit's `pushTokenUpdates` would), `push-token ID` and `push-to-start-token KIND`.
extension CommandLineTool {
    /// How long `start --push` waits for the broker to confirm the token's subscription.
    static let pushTokenWait = 10.0

    /// Start options from `--push` and `--push-channel`.
    static func pushStartOptions(_ command: ParsedCommand) -> [String: DBusValue] {
        var options: [String: DBusValue] = [:]
        if command.flags.contains("push") { options["push-type"] = .string("token") }
        if let channel = command.options["push-channel"] { options["push-channel"] = .string(channel) }
        return options
    }

    /// What `start` prints: the id, and with `--push` the token after it.
    func startedLine(id: String, _ command: ParsedCommand, _ client: BusClient) throws(CLIError) -> String {
        guard command.flags.contains("push") else { return id }
        return "\(id) \(try waitForPushToken(of: id, client))"
    }

    /// The announced token of activity `id`; refused when there is none (yet).
    func pushToken(of id: String, _ client: BusClient) throws(CLIError) -> String {
        let token = try client.call("Get", [.string(id)]).first?.vardict?["push-token"]?.string ?? ""
        guard token.isEmpty else { return token }
        let status = (try? client.property("PushStatus").string) ?? "unknown"
        throw .refused("activity \(id) has no push token: it was started without --push, or the broker has not confirmed it yet (PushStatus: \(status))")
    }

    /// Waits (on PropertiesChanged of the activity, not by polling) until its token is announced.
    private func waitForPushToken(of id: String, _ client: BusClient) throws(CLIError) -> String {
        let path = BusClient.managerPath + "/activity/" + id
        let loop: EventLoop
        do {
            loop = try EventLoop()
            client.connection.attach(to: loop)
            try client.connection.addMatch("type='signal',sender='\(BusClient.busName)',interface='org.freedesktop.DBus.Properties',"
                                           + "member='PropertiesChanged',path='\(path)'")
        } catch {
            throw .refused("cannot watch the bus: \(error.message)")
        }
        var token = ""
        var failure: CLIError?
        let read = {
            do throws(CLIError) {
                token = try client.call("Get", [.string(id)]).first?.vardict?["push-token"]?.string ?? ""
            } catch {
                failure = error
            }
        }
        read()
        _ = loop.run(until: { if token.isEmpty && failure == nil { read() }; return !token.isEmpty || failure != nil },
                     timeout: Self.pushTokenWait)
        if let failure { throw failure }
        guard !token.isEmpty else {
            let status = (try? client.property("PushStatus").string) ?? "unknown"
            throw .refused("activity \(id) started, but the broker did not confirm its push token within "
                           + "\(Int(Self.pushTokenWait)) s (PushStatus: \(status)); try 'liveactivity push-token \(id)' later")
        }
        return token
    }
}
