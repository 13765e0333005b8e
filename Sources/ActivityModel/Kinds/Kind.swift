/// A compiled kind: the declared template of an activity (the `ActivityAttributes` analogue),
/// loaded from a kind file. Everything here is data; no kind runs code.
public struct Kind: Sendable {
    public let name: String
    public let displayName: String
    public let attributes: [String: KeySpec]
    public let state: [String: KeySpec]
    /// Whether attribute or state keys the kind does not declare are accepted (any type).
    public let acceptsExtraAttributes: Bool
    public let acceptsExtraState: Bool
    /// Seconds after Start at which the activity ends by itself, if the kind caps its lifetime.
    public let maxLifetime: Double?

    let icon: Template
    let timer: TimerSpec?
    let phases: [PhaseSpec]
    let progressSources: [ProgressSource]
    let templates: TemplateSet
    let endedTemplates: TemplateSet?
    let buttons: [ButtonSpec]
    /// When the kind's live sessions quiet the desktop (`quiets-desktop`; issue 21).
    public internal(set) var quietRule: QuietRule = .never
    /// Whether a running session pauses itself while the user is away (`pauses-when-idle`).
    public internal(set) var pausesWhenIdle = false
    /// Whether its activities may show on the lock screen at all (`lock-screen`; issue 26).
    public internal(set) var showsOnLockScreen = true
    /// Whether its activities may be published as the MPRIS player (`mpris`; issue 26).
    public internal(set) var offersMediaPlayer = true

    /// Whether the kind has a timer (so Pause, Resume and Extend can apply).
    public var hasTimer: Bool { timer != nil }

    /// The stand-in for an activity whose kind file disappeared after it started: it shows the
    /// `title` and `body` state keys and keeps its stored timer.
    static func missing(named name: String) -> Kind {
        let parse: (String) -> Template = { (try? Template.parse($0)) ?? .empty }
        return Kind(
            name: name, displayName: name, attributes: [:], state: [:],
            acceptsExtraAttributes: true, acceptsExtraState: true, maxLifetime: nil,
            icon: parse("{state.icon ?? 'dialog-information'}"), timer: nil, phases: [],
            progressSources: [.timer, .state("progress")],
            templates: TemplateSet(
                title: parse("{state.title ?? kind}"), body: parse("{state.body}"),
                compactLeading: parse("{state.title ?? kind}"), compactTrailing: parse("{timer|m:ss}"),
                minimal: parse("•")),
            endedTemplates: nil, buttons: [])
    }
}

/// The five texts a kind renders; a phase or the ended card may override some of them.
struct TemplateSet: Sendable {
    var title: Template?
    var body: Template?
    var compactLeading: Template?
    var compactTrailing: Template?
    var minimal: Template?

    /// These templates where set, `base` elsewhere.
    func over(_ base: TemplateSet) -> TemplateSet {
        TemplateSet(title: title ?? base.title, body: body ?? base.body,
                    compactLeading: compactLeading ?? base.compactLeading,
                    compactTrailing: compactTrailing ?? base.compactTrailing,
                    minimal: minimal ?? base.minimal)
    }

    var all: [Template] { [title, body, compactLeading, compactTrailing, minimal].compactMap { $0 } }
}

/// A duration declared as an expression in hours, minutes or seconds.
struct DurationSpec: Sendable {
    let expression: DurationExpression
    let unitSeconds: Double

    /// Seconds, or nil when an attribute it needs is absent.
    func seconds(attributes: [String: Value]) -> Double? {
        expression.evaluate { attributes[$0]?.number }.map { $0 * unitSeconds }
    }
}

/// How the kind's timer is derived from attributes and what happens when it runs out.
struct TimerSpec: Sendable {
    let startAttribute: String?
    let duration: DurationSpec?
    let endAttribute: String?
    let countsDown: Bool
    let expiry: ExpiryRule
    let expiryAlert: AlertTemplate?
}

/// What happens when a timer runs out.
enum ExpiryRule: Sendable, Equatable, Codable {
    /// Nothing: a countdown shows zero, an elapsed timer keeps counting.
    case stay
    /// The activity ends with this reason; the kind's alert (if any) pops up.
    case end(EndReason)
}

/// An alert a kind raises (phase change, timer run out); texts are templates.
struct AlertTemplate: Sendable {
    let title: Template
    let body: Template
    let sound: String?
}

/// One phase of the timer.
struct PhaseSpec: Sendable {
    let name: String
    let label: String
    let duration: DurationSpec?
    let alert: AlertTemplate?
    let templates: TemplateSet?
}

/// Where the activity's progress comes from; the first that has a value wins.
enum ProgressSource: Sendable, Equatable {
    case timer
    case state(String)
}

/// A declared card button.
struct ButtonSpec: Sendable {
    let action: CardAction
    let label: String
}
