/// Where the daemon's cards go. The daemon's is `CardPresenter` (libnotify on a thread of its
/// own); tests put a recorder here, so the service runs in-process and they read every card it
/// sent, with its alert, without a notification server or any real time passing.
public protocol CardSink: AnyObject {
    /// Shows or replaces the card of activity `id`; `alert` pops it up again (nil: a quiet update).
    func show(id: String, card: Card, alert: CardAlert?)
    /// Closes the card of `id` and forgets it.
    func close(id: String)
    /// Takes back the card a previous run showed for `id` under `notificationID`.
    func adopt(id: String, notificationID: UInt32)
    /// Closes every card but remembers them (`Enabled` switched off).
    func hideAll()
    /// Shows every remembered card again.
    func showAll()
    /// The notification server in use, if any.
    var serverInfo: ServerInfo? { get }
    /// How cards render for that server.
    var profile: ServerProfile { get }
}

extension CardPresenter: CardSink {}
