import ActivityModel
import DBus
import Notifications

/// One activity as the world sees it: its object on the bus, the PropertiesChanged of what
/// moved, its card (composed by `CardComposer`) and its KDE job. All from one render at one moment.
extension ActivityService {
    /// Re-reads one activity at `now`: PropertiesChanged for what changed, its job, its card.
    func refresh(_ id: String, alert: Alert?, now: Double) {
        guard let current = snapshot(id, now: now) else { return }
        var record = records[id] ?? ActivityRecord()
        let values = ActivityProperty.values(of: current)
        let changed = values.filter { record.publishedProperties[$0.key] != $0.value }
        if !changed.isEmpty && !record.publishedProperties.isEmpty {
            server.emitPropertiesChanged(path: BusNames.activityPath(id), interface: BusNames.activityInterface, values: changed)
        }
        record.publishedProperties = values
        records[id] = record
        // A pending activity is on the bus, but has no card and no job until it starts.
        guard current.activity.status != .pending else { return }
        if let jobs {
            jobs.update(id: id, content: CardComposer.job(of: current, kindDisplayName: kindDisplayName(of: current),
                                                          enabled: registry.enabled))
        }
        showCard(current, alert: alert, now: now)
    }

    /// Hands the card to the sink when what it shows changed, or when an alert must pop it up.
    private func showCard(_ current: ActivitySnapshot, alert: Alert?, now: Double) {
        guard let presenter, registry.enabled else { return }
        let id = current.activity.id.rawValue
        let record = records[id] ?? ActivityRecord()
        let composed = CardComposer.compose(current, kindDisplayName: kindDisplayName(of: current),
                                            alert: alert, hold: record.hold, lastCard: record.lastCard,
                                            besideJob: jobs?.covers(id) == true, now: now)
        records[id]?.hold = composed.hold
        if let until = composed.recomposeAt {
            // When the hold ends, the card shows the live text again even if nothing ticks.
            clock.wake(at: until) { [weak self] in
                guard let self, let held = self.records[id]?.hold, held.until <= self.clock.now else { return }
                self.refresh(id, alert: nil, now: self.clock.now)
            }
        }
        switch composed.output {
        case .show(let card, let cardAlert):
            records[id]?.lastCard = card
            presenter.show(id: id, card: card, alert: cardAlert.map(quietAware))
        case .withdraw:
            withdrawCard(id)
        case .unchanged:
            break
        }
    }

    /// The display name of the activity's kind, the card's application name without `app-name`.
    private func kindDisplayName(of current: ActivitySnapshot) -> String? {
        catalog.kinds[current.activity.kind]?.displayName
    }

    /// Takes the card of `id` off the screen while its job shows the activity.
    func withdrawCard(_ id: String) {
        guard records[id]?.lastCard != nil else { return }
        records[id]?.lastCard = nil
        presenter?.close(id: id)
    }

    /// The activity and its texts at `now` (the tick's render of the same moment is reused).
    func snapshot(_ id: String, now: Double) -> ActivitySnapshot? {
        guard let activity = registry.activity(id),
              var rendered = try? registry.render(id: id, now: now, timeZoneOffset: clock.utcOffset(at: now),
                                                  style: renderStyle) else { return nil }
        if focus != nil { rendered.buttons = awayButtons(id) + rendered.buttons }
        return ActivitySnapshot(activity: activity, rendered: rendered, pushToken: announcedPushToken(id))
    }

    /// Puts the object of `id` on the bus, once; its properties are read at the moment of the read.
    func exportActivity(_ id: String) throws(DBusError) {
        guard records[id]?.isExported != true else { return }
        try server.export(BusNames.activityPath(id), [ActivityInterface.make(id: id) { [weak self] id in
            guard let self else { return nil }
            return self.snapshot(id, now: self.clock.now)
        }])
        records[id, default: ActivityRecord()].isExported = true
    }

    /// The activity was dismissed: its card, job and object go, and its record with them.
    func remove(_ id: String) {
        presenter?.close(id: id)
        jobs?.remove(id: id)
        guard let record = records.removeValue(forKey: id) else { return }
        if record.isExported { server.unexport(BusNames.activityPath(id)) }
    }
}
