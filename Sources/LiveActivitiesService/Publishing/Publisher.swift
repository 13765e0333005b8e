import ActivityModel
import DBus
import KDEJobs
import MPRIS
import Notifications
import Tray

/// Everything the world sees of the activities, with the state only that needs: each
/// activity's object and the values last announced, its card (and its pace) and KDE job, the
/// manager's properties as last announced, the tray item, and the pace of settling. It exists so that `ActivityService` holds the model and its persistence only, and
/// tells the publisher what changed through a narrow interface: events to publish
/// (`exportStarted`, then each round's `apply`), activities to re-read (`refresh`, `refreshAll`), the manager's
/// properties (`refreshManager`), and what the card and tray sides report. It is handed
/// values (a `RoundView`, the storage status) and holds no pointer to the service: what it
/// asks later, when a timer of its own fires, goes through `PublisherHooks`.
/// Its parts: rounds (`+Rounds`), one activity's views (`+Views`), the card's pace
/// (`+CardPacing`), the manager's properties and the tray (`+Manager`). Lives on the event
/// loop's thread; the notification server is only reached through its `CardSink`.
final class Publisher {
    /// What the publisher asks of the core later (supplied by Core).
    let hooks: PublisherHooks
    let loop: EventLoop
    let server: DBusObjectServer
    let clock: ServiceClock
    /// Where cards go: the presenter in the daemon, a recorder in tests; nil: no cards.
    let presenter: CardSink?
    /// At most one routine card per activity per this many seconds goes to `presenter`
    /// (`Publisher+CardPacing`); 0: every card at once (tests that read each decision).
    let cardInterval: Double
    /// The shortest time between two publishing rounds under a flood (`+Rounds`); 0: a
    /// round after every batch of messages (tests that read each round).
    let publishInterval: Double
    /// What is published per activity: one record each (read and changed only by the publisher).
    var records: [String: ActivityRecord] = [:]
    /// The manager's properties as last announced.
    var publishedManager: [String: DBusValue] = [:]
    /// The KDE job backend, under Plasma (`DaemonConfig.kdeJobs`); nil when switched off.
    var jobs: KDEJobMirror?
    /// The settling of manager properties.
    var rounds = PublishingRounds()
    /// The tray item, when the config asks for one; kept up to date with the compact text.
    var tray: StatusNotifierItem?
    /// The MPRIS player (`mpris = on`); kept up to date with the most relevant timer.
    var mediaPlayer: MediaPlayer?

    init(hooks: PublisherHooks, loop: EventLoop, server: DBusObjectServer, clock: ServiceClock, presenter: CardSink?,
         cardInterval: Double, publishInterval: Double) {
        self.hooks = hooks
        self.loop = loop
        self.server = server
        self.clock = clock
        self.presenter = presenter
        self.cardInterval = cardInterval
        self.publishInterval = publishInterval
    }

    // MARK: The card side, as the core asks about it

    /// The notification server's name for `NotificationServer` ("" when none is known).
    var notificationServer: String { presenter?.serverInfo?.displayName ?? "" }
    /// The notification server in use, when one is known.
    var serverInfo: ServerInfo? { presenter?.serverInfo }
    /// How the card renders for the server in use (GNOME Shell's cards show no seconds).
    /// Everything on the bus renders in the standard style, with seconds (DESIGN.md).
    var cardStyle: RenderStyle { RenderStyle(showSeconds: presenter?.profile.showsSeconds ?? true) }

    /// The notification ids the server gave the cards, for a full save.
    var notificationIDs: [String: UInt32] { records.compactMapValues(\.notificationID) }

    /// A card's notification id read back from the saved state: a restarted daemon replaces
    /// that card instead of adding a second one.
    func adopt(notificationID: UInt32, of id: String) {
        records[id, default: ActivityRecord()].notificationID = notificationID
        presenter?.adopt(id: id, notificationID: notificationID)
    }

    /// Remembers the server's new id for the card of `id`; false when it is the one known.
    func remember(notificationID: UInt32, of id: String) -> Bool {
        guard records[id]?.notificationID != notificationID else { return false }
        records[id, default: ActivityRecord()].notificationID = notificationID
        return true
    }

    /// Cards were switched off: the presenter hides them all (and keeps them).
    func cardsSwitchedOff() {
        presenter?.hideAll()
    }

    /// Cards were switched on again: they were not sent while off, so the presenter gets each
    /// one as it is now (it keeps them while hidden, and paces them itself), then shows them
    /// all. Handed at once, not held for the daemon's slot (a card held from before is
    /// dropped): the presenter keeps the slot, and a card held here would let it show the card
    /// it had before the switch first.
    func cardsSwitchedOn(in view: RoundView) {
        for id in records.keys {
            records[id]?.lastCard = nil
            records[id]?.cardSentAt = nil
            records[id]?.heldCard = nil
        }
        for activity in view.activities { refresh(activity.id.rawValue, alert: nil, in: view) }
        presenter?.showAll()
    }

    // MARK: Tray and KDE jobs

    /// The tray item to keep up to date from now on.
    func attachTray(_ item: StatusNotifierItem?) {
        tray = item
    }

    /// The MPRIS player to keep up to date from now on.
    func attachMediaPlayer(_ player: MediaPlayer?) {
        mediaPlayer = player
    }

    /// Connects `mirror` and starts it; its cancel button calls `onCancel` with the activity's id.
    func attachJobs(_ mirror: KDEJobMirror, onCancel: @escaping (String) -> Void) {
        jobs = mirror
        mirror.onCancel = onCancel
        mirror.onJobChanged = { [weak self] id in
            guard let self, let view = self.hooks.currentView() else { return }
            self.refresh(id, alert: nil, in: view)
        }
        mirror.start()
    }
}

/// What the publisher asks of the core after the call that handed it values has returned (a
/// timer of its own fires, an exported object is read, a paced round is due), as closures
/// Core supplies: so the publisher never holds the service, and Core alone drives the timer,
/// focus and push.
struct PublisherHooks {
    /// The activities now (at the moment of an ObjectManager report while one is read); nil
    /// once the core is gone.
    let currentView: () -> RoundView?
    /// A paced settling is due: the core settles what depends on every activity, now.
    let settleDue: () -> Void
    /// An alert as the desktop's quiet lets it through (critical under a quiet that shows critical).
    let alertStyle: (CardAlert) -> CardAlert
}

/// The bookkeeping of settling: whether a settling of the manager's properties is already
/// due, and when they last settled (monotonic seconds).
struct PublishingRounds {
    var settlePending = false
    var lastSettle = -Double.infinity
}
