import ActivityModel
import DBus

/// The buttons a panel (GNOME extension, Plasma applet, tray menu) shows for one activity, in
/// display order: the kind's own buttons as the card has them, Pause or Resume where the
/// activity has a timer, then End, unless the kind's buttons already end it (a focus session's
/// Complete and Cancel, a fast's End fast): a second way out would only make the row ambiguous.
/// Panels read this list (the `Actions` property) instead of knowing kinds, and press a button
/// with `InvokeAction`, which does what the card does.
enum ActivityActions {
    static let pauseLabel = "Pause"
    static let resumeLabel = "Resume"
    static let endLabel = "End"
    /// Kind button actions that end the activity.
    static let endingKeys: Set<String> = ["end", "complete", "cancel"]

    /// The buttons of `snapshot`; none once it is no longer live. The kind's own End button
    /// keeps its label and comes last.
    static func of(_ snapshot: ActivitySnapshot) -> [CardButton] {
        let activity = snapshot.activity
        guard activity.isLive else { return [] }
        let kindButtons = snapshot.rendered.buttons
        var buttons = kindButtons.filter { $0.key != "end" }
        if let timer = activity.timer {
            let (key, label) = timer.isRunning ? ("pause", pauseLabel) : ("resume", resumeLabel)
            if !buttons.contains(where: { $0.key == key }) { buttons.append(CardButton(key: key, label: label)) }
        }
        if let ownEnd = kindButtons.first(where: { $0.key == "end" }) {
            buttons.append(ownEnd)
        } else if !kindButtons.contains(where: { endingKeys.contains($0.key) }) {
            buttons.append(CardButton(key: "end", label: endLabel))
        }
        return buttons
    }

    /// As the `Actions` property: `a(ss)` of action key and label.
    static func value(of snapshot: ActivitySnapshot) -> DBusValue {
        .array(elementSignature: "(ss)", of(snapshot).map { .structure([.string($0.key), .string($0.label)]) })
    }
}

/// The one button path: `InvokeAction` (a panel), the tray menu, the media player and the
/// card's own buttons (`handleAction`) all press a button here.
extension ActivityService {
    /// Does what pressing the button `action` on the card of `id` does. Refused (changing
    /// nothing) when the activity is unknown (`NotFound`), no longer live (`NotActive`), or
    /// does not offer `action` now (`InvalidArgs` naming the keys it offers).
    func invokeAction(id: String, action: String) throws(DBusError) {
        _ = try mapped { () throws(ActivityError) in try ActivityID(id) }
        guard registry.activity(id) != nil else {
            throw DBusError(name: BusNames.errorPrefix + "NotFound", message: "no activity with id \"\(id)\"")
        }
        let now = environment.clock.now
        guard let current = readView(at: now).snapshot(id) else {
            throw DBusError(name: BusNames.errorPrefix + "NotFound", message: "no activity with id \"\(id)\"")
        }
        guard current.activity.isLive else {
            throw DBusError(name: BusNames.errorPrefix + "NotActive",
                            message: "activity \"\(id)\" is \(current.activity.status.rawValue); only live activities have actions")
        }
        let offered = ActivityActions.of(current).map(\.key)
        guard offered.contains(action) else {
            throw .invalidArgs("action \"\(action)\": activity \"\(id)\" offers \(offered.joined(separator: ", "))")
        }
        if try focus.chooseAwayTime(id: id, key: action, now: now) { return }
        try transact(at: now) { (now: Double) throws(ActivityError) in ((), try registry.invoke(action: action, id: id, now: now)) }
    }
}
