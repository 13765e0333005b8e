/// What the tray item shows (label, tooltip, menu), from the same reads as the compact text
/// (`CardComposer.tray`).
extension ActivityService {
    /// The tray now (when the item starts).
    var trayState: TrayState {
        let view = readView()
        return CardComposer.tray(live: view.live, compactText: view.compactText)
    }
}
