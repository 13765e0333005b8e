/// What the tray item shows (label, tooltip, menu), from the same model reads as the compact text.
extension ActivityService {
    /// The most relevant live activity's card and icon, with the compact text as the label.
    var trayState: TrayState { trayState(at: clock()) }

    func trayState(at now: Double) -> TrayState {
        guard let top = registry.live.first, let current = snapshot(top.id.rawValue, now: now) else { return .idle }
        let card = current.rendered
        let menu = registry.live.compactMap { activity in
            snapshot(activity.id.rawValue, now: now).map { live in
                TrayMenuSection(activityID: activity.id.rawValue, title: live.rendered.title, body: live.rendered.body,
                                actions: ActivityActions.of(live))
            }
        }
        return TrayState(isLive: true, cardTitle: card.title, cardBody: card.body, iconName: card.iconName,
                         label: compactText(at: now), menu: menu)
    }
}
