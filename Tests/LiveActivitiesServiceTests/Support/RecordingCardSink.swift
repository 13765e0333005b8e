import Foundation
import Notifications

/// A card sink that keeps what the service sent, in order: the cards a user would see (with
/// their alerts), closes and the other requests. Stands in for the notification server, so the
/// service's card decisions are read directly, without the presenter's once-a-second rule.
final class RecordingCardSink: CardSink, @unchecked Sendable {
    /// One request the service made.
    enum Request: Equatable {
        case show(id: String, card: Card, alert: CardAlert?)
        case close(id: String)
        case adopt(id: String, notificationID: UInt32)
        case hideAll
        case showAll
    }

    private let lock = NSLock()
    private var recorded: [Request] = []
    private let info: ServerInfo?
    private let serverProfile: ServerProfile

    init(serverInfo: ServerInfo? = ServerInfo(name: "recorder", vendor: "tests", version: "1", specVersion: "1.2",
                                              capabilities: ["body", "actions"]),
         profile: ServerProfile = .fallback) {
        info = serverInfo
        serverProfile = profile
    }

    func show(id: String, card: Card, alert: CardAlert?) { record(.show(id: id, card: card, alert: alert)) }
    func close(id: String) { record(.close(id: id)) }
    func adopt(id: String, notificationID: UInt32) { record(.adopt(id: id, notificationID: notificationID)) }
    func hideAll() { record(.hideAll) }
    func showAll() { record(.showAll) }
    var serverInfo: ServerInfo? { info }
    var profile: ServerProfile { serverProfile }

    private func record(_ request: Request) { lock.withLock { recorded.append(request) } }

    /// Every request so far.
    var requests: [Request] { lock.withLock { recorded } }

    /// The cards shown for `id`, in order, with their alerts.
    func cards(_ id: String) -> [(card: Card, alert: CardAlert?)] {
        requests.compactMap { request in
            if case .show(id, let card, let alert) = request { return (card, alert) }
            return nil
        }
    }

    /// Forgets what was recorded (to look at what follows a moment).
    func clear() { lock.withLock { recorded = [] } }
}
