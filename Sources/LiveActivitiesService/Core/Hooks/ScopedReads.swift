/// The moment an ObjectManager report reads all its objects at (`DBusObjectServer.readScope`),
/// while one is read. It exists so that the read scope, which sets it, and the publisher's
/// `currentView`, which reads it, share one box instead of a property of the service.
final class ScopedReads {
    var view: RoundView?
}
