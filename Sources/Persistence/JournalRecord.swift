import ActivityModel
import FoundationEssentials

/// One change recorded in the journal (`StateJournal`), so that every acknowledged call costs
/// one small append, whatever the number of other activities: an activity's whole record
/// (started, updated, ended), its removal (dismissed), the manager's settings (`Enabled` and
/// the id generator), or the notification id of a card.
package enum JournalRecord: Equatable {
    case activity(Activity)
    case removed(String)
    case settings(enabled: Bool, idGenerator: ActivityIDGenerator)
    case notificationID(activity: String, number: UInt32?)

    /// The JSON form of the records other than activities (an activity is its bare record,
    /// as in journals of earlier versions).
    struct Operation: Codable {
        var removed: String?
        var settings: Settings?
        var notification: Notification?

        /// The daemon-wide settings a line records.
        struct Settings: Codable {
            var enabled: Bool
            var idGenerator: ActivityIDGenerator
        }

        /// The notification number a line records for one activity.
        struct Notification: Codable {
            var id: String
            var number: UInt32?
        }
    }

    /// The record as one line of JSON (no newline).
    func line(encoder: JSONEncoder) throws -> [UInt8] {
        switch self {
        case .activity(let activity):
            if let record = activity.jsonRecord() { return record }
            return Array(try encoder.encode(activity))
        case .removed(let id):
            return Array(try encoder.encode(Operation(removed: id)))
        case .settings(let enabled, let generator):
            return Array(try encoder.encode(Operation(settings: .init(enabled: enabled, idGenerator: generator))))
        case .notificationID(let id, let number):
            return Array(try encoder.encode(Operation(notification: .init(id: id, number: number))))
        }
    }

    /// Reads one line back; throws a short reason when it is not a record.
    static func parse(_ line: Data, decoder: JSONDecoder) throws(JournalProblem) -> JournalRecord {
        let operation: Operation
        do {
            operation = try decoder.decode(Operation.self, from: line)
        } catch {
            throw .unreadable(DecodingProblem.describe(error))
        }
        if let id = operation.removed { return .removed(id) }
        if let settings = operation.settings { return .settings(enabled: settings.enabled, idGenerator: settings.idGenerator) }
        if let notification = operation.notification {
            return .notificationID(activity: notification.id, number: notification.number)
        }
        let activity: Activity
        do {
            activity = try decoder.decode(Activity.self, from: line)
        } catch {
            throw .unreadable(DecodingProblem.describe(error))
        }
        if let reason = activity.recordProblem { throw .unreadable("activity \"\(activity.id.rawValue)\": \(reason)") }
        return .activity(activity)
    }

    /// Applies the record to a state being restored.
    func apply(to state: inout PersistedState) {
        switch self {
        case .activity(let activity):
            if let index = state.registry.activities.firstIndex(where: { $0.id == activity.id }) {
                state.registry.activities[index] = activity
            } else {
                state.registry.activities.append(activity)
            }
        case .removed(let id):
            state.registry.activities.removeAll { $0.id.rawValue == id }
            state.notificationIDs[id] = nil
        case .settings(let enabled, let generator):
            state.registry.enabled = enabled
            state.registry.idGenerator = generator
        case .notificationID(let id, let number):
            state.notificationIDs[id] = number
        }
    }
}

/// Why a journal line was skipped.
package enum JournalProblem: Error {
    case unreadable(String)
}

/// A short, precise text for a decoding error: where in the record, and what was wrong.
package enum DecodingProblem {
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): missing value of type \(type)"
        case .keyNotFound(let key, let context):
            return "\(path(context, appending: key.stringValue)): missing"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ context: DecodingError.Context, appending last: String? = nil) -> String {
        let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue } + (last.map { [$0] } ?? [])
        return keys.isEmpty ? "record" : "key \"" + keys.joined(separator: ".") + "\""
    }
}
