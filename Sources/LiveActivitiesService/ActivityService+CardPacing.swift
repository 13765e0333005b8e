import Notifications

/// The card's pace on the daemon's side: a routine card (no alert) goes to the sink at most
/// once per `cardInterval` per activity, the presenter's own rule, the latest one winning; a
/// card that comes sooner waits on the loop's timer for its slot. So a flood of updates wakes
/// the notification thread only when a card is actually due, not once per update. An alert
/// goes at once, and takes the place of a card waiting.
extension ActivityService {
    /// Hands `card` to `sink` now, or holds it until its slot opens.
    func hand(_ card: Card, alert: CardAlert?, of id: String, to sink: CardSink) {
        let now = clock.monotonicNow
        if alert == nil, cardInterval > 0, let sent = records[id]?.cardSentAt,
           now - sent < cardInterval * Self.slotTolerance {
            let waiting = records[id]?.heldCard != nil
            records[id]?.heldCard = card
            if !waiting {
                clock.wake(afterSeconds: sent + cardInterval - now) { [weak self] in self?.sendHeldCard(id) }
            }
            return
        }
        records[id, default: ActivityRecord()].heldCard = nil
        records[id]?.cardSentAt = now
        sink.show(id: id, card: card, alert: alert)
    }

    /// A card due within this fraction of the interval goes at once: a tick a second after the
    /// last card is on time, not early (the presenter keeps the exact rule).
    static let slotTolerance = 0.9

    /// The slot opened: the card waiting goes (unless it was withdrawn, its activity went, or
    /// cards were switched off meanwhile).
    private func sendHeldCard(_ id: String) {
        guard let card = records[id]?.heldCard else { return }
        records[id]?.heldCard = nil
        guard let presenter, registry.enabled else { return }
        records[id]?.cardSentAt = clock.monotonicNow
        presenter.show(id: id, card: card, alert: nil)
    }
}
