import ActivityModel
import DBus
import Foundation

/// `update --at/--cancel-at/--cancel-all` and `scheduled ID`: the timeline of updates of an
/// activity, from the command line (the bus carries unix seconds; people type 14:00 or +10m).
extension CommandLineTool {
    /// Update's options `at`, `cancel-at` and `cancel-all` from the command's words.
    static func scheduleOptions(_ command: ParsedCommand, clock: HumanTime) throws(CLIError) -> [String: DBusValue] {
        var options: [String: DBusValue] = [:]
        if let at = try command.scheduleTime("at", clock: clock) { options["at"] = .int64(at) }
        if let cancel = try command.time("cancel-at", clock: clock) { options["cancel-at"] = .int64(cancel) }
        if command.flags.contains("cancel-all") { options["cancel-all"] = .boolean(true) }
        return options
    }

    /// Prints the scheduled updates of `id`: one line each, its local time then its content.
    func scheduled(of id: String, _ client: BusClient, json: Bool) throws(CLIError) {
        let value = try client.call("Get", [.string(id)]).first?.vardict?["scheduled-updates"]?.unwrapped
        guard case .array(_, let rows)? = value else {
            throw .refused("the daemon did not report the scheduled updates of \(id) (an older daemon?)")
        }
        if json {
            output(OutputFormat.json(rows.map(OutputFormat.jsonObject)))
            return
        }
        if rows.isEmpty { output("no scheduled updates"); return }
        for row in rows { output(ScheduledUpdateLine.text(row)) }
    }
}

/// One scheduled update as a person reads it: `Dec 1, 2026 at 2:00:00 PM  title=Step 2 [alert-title=…]`.
enum ScheduledUpdateLine {
    static func text(_ row: DBusValue) -> String {
        guard case .structure(let fields) = row, fields.count == 3 else { return row.typeDescription }
        let time = OutputFormat.display(fields[0], key: "due-at")  // "-at": shown as a local time
        let state = OutputFormat.display(fields[1], key: "state")
        let options = OutputFormat.display(fields[2], key: "options")
        return [time, state.isEmpty ? "(no change)" : state, options.isEmpty ? "" : "[\(options)]"]
            .filter { !$0.isEmpty }.joined(separator: "  ")
    }
}
