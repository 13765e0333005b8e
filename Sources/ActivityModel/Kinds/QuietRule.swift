/// When a kind's live sessions ask the desktop to hold back other notifications (its Do Not
/// Disturb), from the kind file key `quiets-desktop`: `true` (while the timer runs), or a list
/// of phase names (while the running timer is in one of them). Exists so the service can ask
/// one question of any activity without knowing kinds.
public enum QuietRule: Sendable, Equatable {
    case never
    /// While the activity is `active` (its timer running, not paused, stale or ended).
    case whileRunning
    /// While the activity is `active` and in one of these phases.
    case inPhases(Set<String>)

    /// Whether `activity` quiets the desktop now (its phase as last ticked).
    public func quiets(_ activity: Activity) -> Bool {
        guard activity.status == .active else { return false }
        switch self {
        case .never: return false
        case .whileRunning: return true
        case .inPhases(let names):
            guard activity.phases.indices.contains(activity.phaseIndex) else { return false }
            return names.contains(activity.phases[activity.phaseIndex].name)
        }
    }

    static func compile(_ file: QuietsDesktopFile?, phaseNames: [String]) throws(KindDefinitionError) -> QuietRule {
        switch file {
        case nil, .flag(false)?: return .never
        case .flag(true)?: return .whileRunning
        case .phases(let names)?:
            guard !names.isEmpty else { throw KindDefinitionError("quiets-desktop", "expected true, false or a list of phase names, got []") }
            for name in names where !phaseNames.contains(name) {
                throw KindDefinitionError("quiets-desktop", "no phase named \(Quoted.text(name)); the kind's phases: \(phaseNames.joined(separator: ", "))")
            }
            return .inPhases(Set(names))
        }
    }
}

/// `quiets-desktop` as written: a boolean or a list of phase names.
enum QuietsDesktopFile: Decodable {
    case flag(Bool)
    case phases([String])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            self = .flag(flag)
        } else {
            self = .phases(try container.decode([String].self))
        }
    }
}
