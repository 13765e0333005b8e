import ActivityModel
import DBus
import Notifications

/// One activity as the world sees it: its object on the bus, the PropertiesChanged of what
/// moved, its card (composed by `CardComposer`) and its KDE job. All from one render at one
/// moment (a `RoundView`); only a card for a server without seconds is rendered again, in its style.
extension Publisher {
    /// Re-reads one activity from the renders of `view`: PropertiesChanged for what changed,
    /// its job, its card.
    func refresh(_ id: String, alert: Alert?, in view: RoundView) {
        guard let current = view.snapshot(id) else { return }
        var record = records[id] ?? ActivityRecord()
        let values = ActivityProperty.orderedValues(of: current)
        if record.publishedProperties.count == values.count {
            var changed: [String: DBusValue] = [:]
            for (index, value) in values.enumerated() where record.publishedProperties[index] != value {
                changed[ActivityProperty.all[index].name] = value
            }
            if !changed.isEmpty {
                server.emitPropertiesChanged(path: BusNames.activityPath(id), interface: BusNames.activityInterface, values: changed)
            }
        }
        record.publishedProperties = values
        records[id] = record
        // A pending activity is on the bus, but has no card and no job until it starts.
        guard current.activity.status != .pending else { return }
        if let jobs {
            jobs.update(id: id, content: CardComposer.job(of: current, kindDisplayName: kindDisplayName(of: current, in: view),
                                                          enabled: view.enabled))
        }
        showCard(current, alert: alert, in: view)
    }

    /// Hands the card to the sink when what it shows changed, or when an alert must pop it up.
    /// The card alone follows the server's profile (GNOME Shell's cards show no seconds).
    private func showCard(_ bus: ActivitySnapshot, alert: Alert?, in view: RoundView) {
        guard let presenter, view.enabled else { return }
        let now = view.now
        let current = view.card(of: bus, style: cardStyle)
        let id = current.activity.id.rawValue
        let record = records[id] ?? ActivityRecord()
        let composed = CardComposer.compose(current, kindDisplayName: kindDisplayName(of: current, in: view),
                                            alert: alert, hold: record.hold, lastCard: record.lastCard,
                                            besideJob: jobs?.covers(id) == true, now: now)
        records[id]?.hold = composed.hold
        if let until = composed.recomposeAt {
            // When the hold ends, the card shows the live text again even if nothing ticks.
            clock.wake(at: until) { [weak self] in
                guard let self, let held = self.records[id]?.hold, held.until <= self.clock.now,
                      let view = self.hooks.currentView() else { return }
                self.refresh(id, alert: nil, in: view)
            }
        }
        switch composed.output {
        case .show(let card, let cardAlert):
            records[id]?.lastCard = card
            hand(card, alert: cardAlert.map(hooks.alertStyle), of: id, to: presenter, nextTick: view.nextChange(id).map { $0 - now })
        case .withdraw:
            withdrawCard(id)
        case .unchanged:
            handHeldCard(of: id, to: presenter, nextTick: view.nextChange(id).map { $0 - now })
        }
    }

    /// The display name of the activity's kind, the card's application name without `app-name`.
    private func kindDisplayName(of current: ActivitySnapshot, in view: RoundView) -> String? {
        view.catalog.kinds[current.activity.kind]?.displayName
    }

    /// Takes the card of `id` off the screen while its job shows the activity.
    func withdrawCard(_ id: String) {
        guard records[id]?.lastCard != nil else { return }
        records[id]?.lastCard = nil
        records[id]?.heldCard = nil
        presenter?.close(id: id)
    }

    /// Puts the object of `id` on the bus, once; its properties are read at the moment of the
    /// read, all from one snapshot (the one of a GetManagedObjects' scope when in one).
    private func exportActivity(_ id: String) throws(DBusError) {
        guard records[id]?.isExported != true else { return }
        let currentView = hooks.currentView
        try server.export(BusNames.activityPath(id), [ActivityInterface.make(id: id) { id in currentView()?.snapshot(id) }])
        records[id, default: ActivityRecord()].isExported = true
    }

    /// `exportActivity`, with a failure logged: the activity stays in the model, and its
    /// object is missing from the bus (the log says why) instead of silently.
    func exportActivityOrLog(_ id: String) {
        do {
            try exportActivity(id)
        } catch {
            Log.error("activity \(id) is not on the bus: \(error.message)")
        }
    }

    /// The activity was dismissed: its card, job and object go, and its record with them.
    func remove(_ id: String) {
        presenter?.close(id: id)
        jobs?.remove(id: id)
        guard let record = records.removeValue(forKey: id) else { return }
        if record.isExported { server.unexport(BusNames.activityPath(id)) }
    }
}
