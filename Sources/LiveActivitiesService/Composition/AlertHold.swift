/// An alert's title and body, kept on the card until `until` (unix seconds): the live text
/// keeps updating below them, and a routine update in that time (a ticking timer) must not
/// wipe the alert out before it could be read.
struct AlertHold: Equatable, Sendable {
    let title: String
    let body: String
    let until: Double

    /// How long an alert's text stays on the card.
    static let seconds = 15.0
}
