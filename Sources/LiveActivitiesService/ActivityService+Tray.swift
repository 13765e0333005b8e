/// What the tray item shows (label, tooltip, menu), from the same reads as the compact text
/// (`CardComposer.tray`).
extension ActivityService {
    /// The tray now (when the item starts).
    var trayState: TrayState {
        let now = clock.now
        return trayState(at: now, compactText: compactText(at: now))
    }

    func trayState(at now: Double, compactText: String) -> TrayState {
        CardComposer.tray(live: registry.live.compactMap { snapshot($0.id.rawValue, now: now) }, compactText: compactText)
    }
}
