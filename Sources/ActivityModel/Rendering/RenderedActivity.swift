/// The texts of one activity at one moment: the card (title, body, progress, icon, buttons)
/// and the compact view (leading, trailing, minimal). Status-aware: a paused card says so,
/// a stale one says it may be out of date, an ended one has no buttons.
public struct RenderedActivity: Equatable, Sendable {
    public var id: ActivityID
    public var status: ActivityStatus
    public var title: String
    public var body: String
    /// 0...1, or nil when the activity shows no progress.
    public var progress: Double?
    public var compactLeading: String
    public var compactTrailing: String
    public var minimal: String
    /// A freedesktop icon name.
    public var iconName: String
    public var buttons: [CardButton]
    /// The progress in segments and points, when the activity has phases or the client gave
    /// segments; moves by whole percents of the bar.
    public var segments: SegmentedProgress? = nil

    /// The progress as the whole percent 0...100 for the `value` notification hint.
    public var progressPercent: Int? { progress.map { TimeFormat.percentStep($0) } }

    /// Whether `other` looks the same: equal texts, icon, buttons and status, and progress at
    /// the same whole percent. A timer's raw progress moves continuously, but what a card or
    /// bar shows moves by the percent, so only that counts as a change.
    public func showsSameAs(_ other: RenderedActivity) -> Bool {
        var rounded = other
        rounded.progress = progress
        return self == rounded && progressPercent == other.progressPercent
    }

    /// `<leading> <trailing>`, either part omitted when empty, each isolated (`BidiIsolation`).
    public var compactPair: String {
        [compactLeading, compactTrailing].filter { !$0.isEmpty }.map(BidiIsolation.isolated).joined(separator: " ")
    }
}

/// Renders an activity with its kind's templates and tells when the rendering next changes.
/// A pending activity is rendered with its live templates as they will read at its start
/// (never its ended ones), after when it starts: `Starts at 14:00 · 25:00 left · ends at 14:25`.
struct ActivityRenderer {
    let evaluator: TemplateEvaluator
    /// The moment of the render, which a pending activity's evaluator is not at.
    private let now: UnixTime

    init(activity: Activity, kind: Kind, now: UnixTime, timeZoneOffset: Double, style: RenderStyle) {
        let shownAt = activity.status == .pending ? max(now, activity.startedAt) : now
        evaluator = TemplateEvaluator(activity: activity, kind: kind, now: shownAt,
                                      timeZoneOffset: timeZoneOffset, showSeconds: style.showSeconds)
        self.now = now
    }

    private var activity: Activity { evaluator.activity }
    private var kind: Kind { evaluator.kind }

    /// The templates in effect: the kind's, under the current phase's, under the ended card's.
    private var templates: TemplateSet {
        var result = kind.templates
        if !activity.phases.isEmpty {
            let phase = activity.phases[activity.phaseIndex(at: evaluator.now)]
            if let overrides = kind.phaseSpec(named: phase.name)?.templates { result = overrides.over(result) }
        }
        if !activity.isLive, activity.status != .pending, let ended = kind.endedTemplates { result = ended.over(result) }
        return result
    }

    /// The rendering and the earliest moment any of its texts or its whole percent could change.
    func render() -> (rendered: RenderedActivity, nextChange: UnixTime?) {
        let set = templates
        var textsChange: UnixTime?
        func fill(_ template: Template?) -> String {
            guard let template else { return "" }
            let filled = evaluator.evaluate(template)
            textsChange = TimedText.earliest(textsChange, filled.nextChange)
            return filled.text.trimmingSpaces
        }
        let title = set.title.map(fill) ?? kind.displayName
        var body = fill(set.body)
        var leading = fill(set.compactLeading)
        let trailing = fill(set.compactTrailing)
        let minimal = fill(set.minimal)
        let icon = fill(kind.icon)
        let progress = evaluator.progress()
        let segmented = SegmentResolver(evaluator: evaluator).resolve()
        let barChange = TimedText.earliest(progress?.nextPercentChange, segmented.nextChange)
        var nextChange = Self.nextChange(texts: textsChange, bar: barChange, showsSeconds: evaluator.showSeconds)
        switch activity.status {
        case .paused:
            body = Self.joined("Paused", body)
            leading = "⏸"
        case .stale:
            body = Self.joined(body, "May be out of date")
        case .ended, .dismissed:
            if kind.endedTemplates == nil { body = Self.joined(body, activity.reason?.label ?? "Ended") }
        case .pending:
            let starts = PendingStart(startsAt: activity.startedAt, now: now, timeZoneOffset: evaluator.timeZoneOffset)
            body = Self.joined(starts.text, body)
            // Texts evaluated at the start do not move before it; only "tomorrow" turns into "today".
            nextChange = starts.nextChange
        case .active:
            break
        }
        let rendered = RenderedActivity(
            id: activity.id, status: activity.status, title: title, body: body,
            progress: progress?.value, compactLeading: leading,
            compactTrailing: trailing, minimal: minimal,
            iconName: icon.isEmpty ? "dialog-information" : icon, buttons: buttons,
            segments: segmented.segmented)
        return (rendered, nextChange)
    }

    /// How long a bar's whole percent may wait for the texts' next change in a style without seconds.
    static let barWaitsForTexts: Double = 60

    /// When the rendering next changes: the texts' next change or the bar's next whole percent,
    /// whichever comes first; but in a style without seconds (GNOME's cards, the MPRIS player's
    /// minutes) a bar's percent that comes at most a minute before the texts change waits for
    /// them, so the card moves once, on its minute, with the bar as of then (issue 29: a 25-minute
    /// Pomodoro's card changed every 15 s, each change a Notify through GNOME's notification
    /// service and a redraw of its list). A bar whose texts change later than that, or never,
    /// moves on its own.
    static func nextChange(texts: UnixTime?, bar: UnixTime?, showsSeconds: Bool) -> UnixTime? {
        guard !showsSeconds, let texts, let bar, texts - bar <= barWaitsForTexts else {
            return TimedText.earliest(texts, bar)
        }
        return texts
    }

    /// An alert from the kind's templates, filled at this moment.
    func alert(_ template: AlertTemplate) -> Alert {
        Alert(title: evaluator.evaluate(template.title).text.trimmingSpaces,
              body: evaluator.evaluate(template.body).text.trimmingSpaces,
              sound: template.sound)
    }

    /// The kind's buttons that apply now: none once ended; pause or resume as the timer is.
    private var buttons: [CardButton] {
        guard activity.isLive else { return [] }
        let paused = activity.timer.map { !$0.isRunning } ?? false
        return kind.buttons.compactMap { button in
            switch button.action {
            case .pause where activity.timer == nil || paused: return nil
            case .resume where activity.timer == nil || !paused: return nil
            case .extend where activity.timer?.duration == nil: return nil
            default: return CardButton(key: button.action.key, label: button.label)
            }
        }
    }

    /// Our status words and a rendered text, the text isolated so a client's part of it cannot
    /// reorder the words (`Paused · ‮abc` would read `Paused · cba` and move "Paused").
    private static func joined(_ first: String, _ second: String) -> String {
        [first, second].filter { !$0.isEmpty }.map(BidiIsolation.isolated).joined(separator: " · ")
    }
}
