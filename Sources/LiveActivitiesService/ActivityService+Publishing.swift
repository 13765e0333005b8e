import ActivityModel
import DBus
import Notifications

/// Fans the model's events out: signals, PropertiesChanged (only for values that changed),
/// object export and removal, the card, history, and the one tick timer.
extension ActivityService {
    func apply(_ events: [ActivityEvent], now: Double) {
        var touched: [String] = []
        var alerts: [String: Alert] = [:]
        for event in events {
            switch event {
            case .started(let id, let kind):
                try? exportActivity(id.rawValue)
                emit("ActivityStarted", [.string(id.rawValue), .string(kind)])
                touched.append(id.rawValue)
            case .updated(let id):
                emit("ActivityUpdated", [.string(id.rawValue)])
                touched.append(id.rawValue)
            case .ended(let id, let reason, _):
                emit("ActivityEnded", [.string(id.rawValue), .string(reason.rawValue)])
                pushActivityEnded(id.rawValue)
                touched.append(id.rawValue)
            case .statusChanged(let id, let status):
                emit("StatusChanged", [.string(id.rawValue), .string(status.rawValue)])
                touched.append(id.rawValue)
            case .alert(let id, let alert):
                alerts[id.rawValue] = alert
                touched.append(id.rawValue)
            case .rendered(let id):
                touched.append(id.rawValue)
            case .dismissed(let id):
                remove(id.rawValue)
            case .actionInvoked(let id, let action):
                emit("ActionInvoked", [.string(id.rawValue), .string(action)])
            }
        }
        var seen = Set<String>()
        for id in touched where seen.insert(id).inserted && registry.activity(id) != nil {
            refresh(id, alert: alerts[id], now: now)
        }
    }

    /// Re-reads one activity: PropertiesChanged for what changed, and its card.
    func refresh(_ id: String, alert: Alert?, now: Double) {
        guard let current = snapshot(id, now: now) else { return }
        let values = ActivityProperty.values(of: current)
        let before = published[id] ?? [:]
        let changed = values.filter { before[$0.key] != $0.value }
        published[id] = values
        if !changed.isEmpty && !before.isEmpty {
            server.emitPropertiesChanged(path: BusNames.activityPath(id), interface: BusNames.activityInterface, values: changed)
        }
        updateJob(current)
        showCard(current, alert: alert)
    }

    /// CompactText and ActiveCount, announced only when they change; the tray follows. Pass
    /// the `now` of a tick to reuse its renders.
    func refreshManager(now: Double? = nil) {
        let now = now ?? clock()
        let values: [String: DBusValue] = ["CompactText": .string(compactText(at: now)), "ActiveCount": .uint32(UInt32(activeCount)),
                                           "NotificationServer": .string(notificationServer),
                                           "StorageStatus": .string(store.status)]
        let changed = values.keys.sorted().filter { values[$0] != publishedManager[$0] }
        publishedManager = values
        if !changed.isEmpty {
            server.emitPropertiesChanged(path: BusNames.managerPath, interface: BusNames.managerInterface, names: changed)
        }
        tray?.update(trayState(at: now))
    }

    /// Announces a change of `StorageStatus` (a write failed, or works again) at once.
    func publishStorageStatus() {
        guard publishedManager["StorageStatus"] != .string(store.status) else { return }
        refreshManager()
    }

    func snapshot(_ id: String, now: Double) -> ActivitySnapshot? {
        guard let activity = registry.activity(id) else { return nil }
        // By id, so a tick's render of the same moment is reused.
        guard let rendered = try? registry.render(id: id, now: now, timeZoneOffset: Self.timeZoneOffset(at: now),
                                                  style: renderStyle) else { return nil }
        return ActivitySnapshot(activity: activity, rendered: rendered, pushToken: announcedPushToken(id))
    }

    var renderStyle: RenderStyle { RenderStyle(showSeconds: presenter?.profile.showsSeconds ?? true) }

    func exportActivity(_ id: String) throws(DBusError) {
        guard !exported.contains(id) else { return }
        try server.export(BusNames.activityPath(id), [ActivityInterface.make(id: id) { [unowned self] id in
            self.snapshot(id, now: self.clock())
        }])
        exported.insert(id)
    }

    func remove(_ id: String) {
        presenter?.close(id: id)
        jobs?.remove(id: id)
        lastCards[id] = nil
        heldAlerts[id] = nil
        notificationIDs[id] = nil
        published[id] = nil
        if exported.remove(id) != nil { server.unexport(BusNames.activityPath(id)) }
    }

    func emit(_ signal: String, _ arguments: [DBusValue]) {
        do {
            try server.emit(path: BusNames.managerPath, interface: BusNames.managerInterface, signal: signal, arguments)
        } catch {
            Log.error("cannot emit \(signal): \(error.message)")
        }
    }

    /// Arms the one timer at the model's next deadline (none when nothing is live).
    func reschedule(now: Double) {
        let deadline = registry.nextDeadline(after: now, timeZoneOffset: Self.timeZoneOffset(at: now), style: renderStyle)
        scheduler.schedule(at: deadline) { [unowned self] in
            self.publishNow()
            let tickNow = self.clock()
            let before = self.registry
            let events = self.registry.tick(now: tickNow, timeZoneOffset: Self.timeZoneOffset(at: tickNow), style: self.renderStyle)
            let lasting = events.filter { if case .rendered = $0 { return false } else { return true } }
            if !lasting.isEmpty { self.persistQuietly(lasting, since: before) }
            self.recordHistory(events, now: tickNow)
            self.apply(events, now: tickNow)
            self.refreshManager(now: tickNow)
            self.reschedule(now: tickNow)
        }
    }
}
