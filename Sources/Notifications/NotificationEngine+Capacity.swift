/// Servers that show only a few bubbles at a time (notification-daemon shows one and queues
/// the rest behind a never-expiring card, so they would never appear): at most
/// `ServerProfile.maxVisibleCards` cards are on the server; the others wait. An alert makes
/// room by taking the place of the card that has been up longest; when a card leaves (its
/// activity ended, or the user closed it), the next waiting card takes the free place.
/// And servers that keep few notifications per source (GNOME before 48 keeps 3): each card
/// takes a source slot of its own (`freeSourceSlot`).
extension NotificationEngine {
    /// Whether the card of `id` may be sent now; makes room for an alert.
    func makeRoom(for id: String, alert: Bool) -> Bool {
        let limit = link.profile.maxVisibleCards
        guard limit > 0, cards[id]?.notification == nil else { return true }
        let shown = cardOrder.filter { cards[$0]?.notification != nil }
        guard shown.count >= limit else { return true }
        guard alert, let oldest = shown.first else { return false }
        let notification = cards[oldest]?.notification
        cards[oldest]?.notification = nil
        closeOnServer(notification)
        return true
    }

    /// Gives free places to waiting cards, oldest first.
    func fillFreePlace() {
        let limit = link.profile.maxVisibleCards
        guard limit > 0 else { return }
        var free = limit - cardOrder.filter { cards[$0]?.notification != nil }.count
        for id in cardOrder where free > 0 {
            guard let live = cards[id], live.notification == nil, !live.closedByUser,
                  scheduler.waiting(id) == nil else { continue }
            scheduler.submit(id: id, card: live.card, alert: nil)
            free -= 1
        }
    }

    /// The lowest source slot no live card of that app name holds (the first card of each app
    /// keeps its plain name).
    func freeSourceSlot(appName: String) -> Int {
        let taken = Set(cards.values.filter { $0.card.appName == appName }.map(\.sourceSlot))
        return (0...).first { !taken.contains($0) } ?? 0
    }
}
