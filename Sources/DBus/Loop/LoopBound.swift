/// Carries an object that lives on an event loop's thread through a `@Sendable` closure that
/// only runs on that loop (posted with `EventLoopRemote.post`), where it is touched. The one
/// such wrapper: the daemon's service, its push bridge and LiveActivityKit's link all use it.
public struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    public let value: Value
    public init(_ value: Value) { self.value = value }
}
