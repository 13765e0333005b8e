/// The notification server the cards go to, as the card thread knows it: the watch of its
/// name, the filter that reads the answers to routine replaces, the owner in use (nil while
/// there is none, `reported` once the daemon was told either way) and the server's profile.
/// One value, so the engine's sending and its server signals read the same state.
struct ServerLink {
    var watch: ServerWatch?
    /// The answers to routine replaces, read on GDBus's worker thread.
    var replies: RoutineReplyFilter?
    /// The unique bus name of the server in use; nil while there is none.
    var owner: String?
    /// The daemon was told which server is in use (or that there is none).
    var reported = false
    var profile = ServerProfile.fallback
}
