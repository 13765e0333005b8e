import Glibc

/// Carries an object that lives on an event loop's thread through a `@Sendable` closure that
/// only runs on that loop (posted with `EventLoopRemote.post`), where it is touched. The one
/// such wrapper: the daemon's service, its push bridge and LiveActivityKit's link all use it.
/// Made on the loop's thread; like swift-nio's `NIOLoopBound`, every access checks that it is
/// still there (in debug builds: a release build pays nothing), so a closure that runs
/// elsewhere stops at once instead of racing the loop.
public struct LoopBound<Value: AnyObject>: @unchecked Sendable {
    private let boundValue: Value
    /// The thread that made it: the loop's.
    private let thread: pthread_t

    public init(_ value: Value) {
        boundValue = value
        thread = pthread_self()
    }

    /// The object; only on the loop's thread.
    public var value: Value {
        assert(pthread_equal(thread, pthread_self()) != 0, "LoopBound<\(Value.self)> used off its loop's thread")
        return boundValue
    }
}
