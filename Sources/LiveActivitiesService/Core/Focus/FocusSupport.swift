import ActivityFiles
import ActivityModel
import DBus
import Idle
import Quiet

/// What the daemon keeps for focus that quiets the desktop and idle-aware sessions (issue 21):
/// the Do Not Disturb controller, the idle source and what it watches for, and the time away
/// of each live session. Attached by the daemon (`FocusCoordinator.attach`);
/// a service without it (most tests) neither quiets nor pauses.
final class FocusSupport {
    /// What the idle source is asked to watch for.
    enum Watch: Equatable {
        case nothing
        /// A pausing session runs: tell when the user has been idle `idlePauseAfter`.
        case idle
        /// A session waits for the user: tell when they are back.
        case userReturn
    }

    let quieter: DesktopQuieter?
    /// Seconds idle before a running session pauses; 0: never.
    let idlePauseAfter: Double
    /// Finds the desktop's idle source, skipping the kinds given (nil: none now).
    let findIdleSource: (Set<IdleSourceKind>) -> (any IdleSource)?
    var idleSource: (any IdleSource)?
    /// No idle monitor was found, and none has come since (`ownerWatch`): not looked for again
    /// at every settling (each look is a blocking call on the bus, once a second under a
    /// seconds countdown).
    var idleSourceMissing = false
    /// Sources that said they cannot tell here (NotSupported, a compositor gone), skipped until
    /// an idle monitor's name changes owner.
    var unusableSources: Set<IdleSourceKind> = []
    /// The `IdleSource` property's value last announced.
    var announcedSource = ""
    var watching = Watch.nothing
    var ledger: AwayLedger
    /// The handler that hears idle monitors come and go (kept so it stays registered).
    var ownerWatch: DBusConnection.HandlerToken?

    init(quieter: DesktopQuieter?, idlePauseAfter: Double, stateDirectory: String,
         findIdleSource: @escaping (Set<IdleSourceKind>) -> (any IdleSource)?) {
        self.quieter = quieter
        self.idlePauseAfter = idlePauseAfter
        self.findIdleSource = findIdleSource
        ledger = AwayLedger(stateDirectory: stateDirectory)
    }

    /// The keys and labels of the two buttons a session paused for idleness offers.
    static let keepKey = "keep-away", discardKey = "discard-away"
    static let keepLabel = "Keep away time", discardLabel = "Discard away time"
}
