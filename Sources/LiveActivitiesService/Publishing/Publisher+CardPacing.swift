import Notifications

/// The card's pace on the daemon's side: a routine card (no alert) goes to the sink at most
/// once per `cardInterval` per activity, the presenter's own rule, the latest one winning; a
/// card that comes sooner waits on the loop's timer for its slot. So a flood of updates wakes
/// the notification thread only when a card is actually due, not once per update. An alert
/// goes at once, and takes the place of a card waiting.
///
/// A ticking card keeps in step with its ticks: when the activity ticks again before the slot
/// after the one a card would wait for, that card is not sent at all (the tick's card, a
/// moment later, carries the same state and goes on time). Otherwise a card shown between
/// two ticks (after a Start or an Update) would put every later card a fraction of a second
/// behind its tick, each needing a wake-up of its own.
extension Publisher {
    /// Hands `card` to `sink` now, or holds it until its slot opens, or (`nextTick`: seconds
    /// until the activity's texts change by themselves) until that tick.
    func hand(_ card: Card, alert: CardAlert?, of id: String, to sink: CardSink, nextTick: Double? = nil) {
        let now = clock.monotonicNow
        if alert == nil, cardInterval > 0, let sent = records[id]?.cardSentAt,
           now - sent < cardInterval * Self.slotTolerance {
            records[id]?.heldCard = card
            let slot = sent + cardInterval - now
            // The tick comes before the slot after this one: its round hands the card on time.
            if let nextTick, nextTick < slot + cardInterval { return }
            guard records[id]?.slotWakeArmed == false else { return }
            records[id]?.slotWakeArmed = true
            clock.wake(afterSeconds: slot) { [weak self] in self?.sendHeldCard(id) }
            return
        }
        records[id, default: ActivityRecord()].heldCard = nil
        records[id]?.cardSentAt = now
        sink.show(id: id, card: card, alert: alert)
    }

    /// The card held for `id` when its slot has opened (a round whose own card is unchanged).
    func handHeldCard(of id: String, to sink: CardSink, nextTick: Double?) {
        guard let card = records[id]?.heldCard else { return }
        hand(card, alert: nil, of: id, to: sink, nextTick: nextTick)
    }

    /// A card due within this fraction of the interval goes at once: a tick a second after the
    /// last card is on time, not early (the presenter keeps the exact rule).
    static let slotTolerance = 0.9

    /// The slot opened: the card waiting goes (unless it was withdrawn, its activity went, or
    /// cards were switched off meanwhile).
    private func sendHeldCard(_ id: String) {
        records[id]?.slotWakeArmed = false
        guard let card = records[id]?.heldCard else { return }
        records[id]?.heldCard = nil
        guard let presenter, hooks.currentView()?.enabled == true else { return }
        records[id]?.cardSentAt = clock.monotonicNow
        presenter.show(id: id, card: card, alert: nil)
    }
}
