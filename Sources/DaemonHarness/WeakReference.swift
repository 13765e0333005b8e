/// Lets work on another thread (a fake server's, a client's event handler) reach an owner
/// without keeping it alive: the one weak box of the tests, the benchmark and their fakes.
public final class WeakReference<Value: AnyObject>: @unchecked Sendable {
    public weak var value: Value?
    public init(_ value: Value? = nil) { self.value = value }
}
