import DBus
import Foundation

/// The observation sequences of ActivityKit, fed by the daemon's own signals: a timer that
/// completes the activity, a card button, another program's `liveactivity end` all arrive here,
/// not only this process's calls. Each iterator listens from the moment it is made; a
/// sequence finishes once the activity is dismissed (or the bus connection is lost).
extension Activity {
    /// The activity's life-cycle states as they change (not the current one).
    public var activityStateUpdates: ActivityStateUpdates { ActivityStateUpdates(activity: self) }

    /// The activity's content each time the daemon reports a change (an update from any
    /// program, the final content at the end).
    public var contentUpdates: ContentUpdates { ContentUpdates(activity: self) }

    /// The push token once, when the activity has one (the daemon's token does not rotate).
    public var pushTokenUpdates: PushTokenUpdates { PushTokenUpdates(token: pushToken) }

    /// Activities of this type started from now on, by any process (ActivityKit: by push).
    public static var activityUpdates: ActivityUpdates { ActivityUpdates() }

    /// The activity's state each time the daemon reports a change, ending once it is dismissed.
    public struct ActivityStateUpdates: AsyncSequence, Sendable {
        public typealias Element = ActivityState
        let activity: Activity

        public func makeAsyncIterator() -> Iterator {
            let id = activity.id
            let stream = SignalStream<ActivityState>.make(link: activity.link) { signal, continuation in
                guard case .status(id, let status) = signal else { return }
                continuation.yield(ActivityState(status: status))
                if status == "dismissed" { continuation.finish() }
            }
            return Iterator(base: stream.makeAsyncIterator())
        }

        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<ActivityState>.Iterator
            public mutating func next() async -> ActivityState? { await base.next() }
        }
    }

    /// The activity's content each time the daemon reports an update.
    public struct ContentUpdates: AsyncSequence, Sendable {
        public typealias Element = ActivityContent<ContentState>
        let activity: Activity

        public func makeAsyncIterator() -> Iterator {
            let id = activity.id
            let link = activity.link
            let stream = SignalStream<DaemonSnapshot?>.make(link: link) { signal, continuation in
                switch signal {
                case .updated(id), .status(id, "ended"):
                    link.callAsync("Get", [.string(id)]) { result in
                        if case .success(let reply) = result { continuation.yield(DaemonSnapshot(getReply: reply)) }
                    }
                case .status(id, "dismissed"):
                    continuation.finish()
                default:
                    break
                }
            }
            return Iterator(base: stream.makeAsyncIterator(), activity: activity)
        }

        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<DaemonSnapshot?>.Iterator
            let activity: Activity

            public mutating func next() async -> ActivityContent<ContentState>? {
                while let snapshot = await base.next() {
                    if let content = snapshot?.content(ContentState.self) {
                        activity.setContent(content)
                        return content
                    }
                }
                return nil
            }
        }
    }

    /// The activity's push token, yielded once when it has one.
    public struct PushTokenUpdates: AsyncSequence, Sendable {
        public typealias Element = Data
        let token: Data?
        public func makeAsyncIterator() -> Iterator { Iterator(token: token) }

        public struct Iterator: AsyncIteratorProtocol {
            var token: Data?
            public mutating func next() async -> Data? {
                defer { token = nil }
                return token
            }
        }
    }

    /// Activities of this type that start after the sequence is made, by any process.
    public struct ActivityUpdates: AsyncSequence, Sendable {
        public typealias Element = Activity<Attributes>

        public func makeAsyncIterator() -> Iterator {
            guard let link = try? DaemonLink.current() else { return Iterator(base: nil, link: nil) }
            let stream = SignalStream<String>.make(link: link) { signal, continuation in
                if case .started(let id, _) = signal { continuation.yield(id) }
            }
            return Iterator(base: stream.makeAsyncIterator(), link: link)
        }

        public struct Iterator: AsyncIteratorProtocol {
            var base: AsyncStream<String>.Iterator?
            let link: DaemonLink?

            public mutating func next() async -> Activity<Attributes>? {
                guard let link else { return nil }
                while let id = await base?.next() {
                    if let activity = Activity.restore(id: id, link: link) { return activity }
                }
                return nil
            }
        }
    }
}

/// An AsyncStream fed by the daemon's signals: subscribes at once, unsubscribes when the
/// stream ends, finishes when the connection is lost.
enum SignalStream<Element: Sendable> {
    static func make(link: DaemonLink,
                     _ handle: @escaping @Sendable (DaemonSignal, AsyncStream<Element>.Continuation) -> Void) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let hub = link.hub
        let token = hub.subscribe { signal in
            if signal == .disconnected {
                continuation.finish()
            } else {
                handle(signal, continuation)
            }
        }
        continuation.onTermination = { _ in hub.unsubscribe(token) }
        if !hub.isConnected { continuation.finish() }
        return stream
    }
}
