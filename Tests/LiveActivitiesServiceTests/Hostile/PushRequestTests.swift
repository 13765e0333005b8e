import ActivityModel
import DBus
import Push
import Testing
@testable import LiveActivitiesService

/// Issue 27, part 4: a push message is built into the model-level request straight from its
/// JSON (`PushRequests`), no longer spelled as a bus call's D-Bus values. These pin that the
/// two ways in still agree: the same request, and the same refusal in the same words, as the
/// bus call a message used to be spelled as.
@Suite(.timeLimit(.minutes(1))) struct PushRequestTests {
    /// The refusal a bus call's decoding gives, as a push message carries it.
    static func rejection<T>(_ decode: () throws(DBusError) -> T) -> PushRejection? {
        do {
            _ = try decode()
            return nil
        } catch {
            return PushRejection(error.name.split(separator: ".").last.map(String.init) ?? error.name, error.message)
        }
    }

    static func pushRejection<T>(_ build: () throws(PushRejection) -> T) -> PushRejection? {
        do {
            _ = try build()
            return nil
        } catch {
            return error
        }
    }

    @Test func anUpdateIsTheBusUpdate() throws {
        let message = APSMessage(event: .update, timestamp: 1, contentState: ["title": .string("t"), "n": .int(3), "x": .double(0.5),
                                                                              "on": .bool(true), "gone": .null],
                                 staleDate: 2_000_000_000, relevanceScore: 0.25, alert: .init(title: "a", body: "b", sound: "default"))
        let push = try PushRequests.update(message)
        let bus = try UpdateRequest(state: ["title": .string("t"), "n": .int64(3), "x": .double(0.5), "on": .boolean(true)],
                                    options: ["stale-at": .double(2_000_000_000), "relevance": .double(0.25), "alert-title": .string("a"),
                                              "alert-body": .string("b"), "alert-sound": .string("message-new-instant")])
        #expect(push.state == bus.state)
        #expect(push.options == bus.options)
        #expect(push.at == nil && push.cancel == nil)
    }

    @Test func anEndIsTheBusEnd() throws {
        let later = try PushRequests.end(APSMessage(event: .end, timestamp: 1, dismissalDate: 2_000_000_000))
        #expect(later.options == EndRequest(state: [:], options: EndOptions(dismissAt: 2_000_000_000)).options)
        let now = try PushRequests.end(APSMessage(event: .end, timestamp: 1, dismissalDate: 0))
        #expect(now.options == EndOptions(dismissal: "immediate"))
    }

    @Test func aStartIsTheBusStart() throws {
        let message = APSMessage(event: .start, timestamp: 1, contentState: ["title": .string("t")], staleDate: 2_000_000_000,
                                 relevanceScore: 1, attributesType: "generic", attributes: ["a": .int(1)],
                                 inputPushToken: true, inputPushChannel: "chan")
        let push = try PushRequests.start(message, kind: "generic")
        let bus = try StartRequest(kind: "generic", attributes: ["a": .int64(1)], state: ["title": .string("t")],
                                   options: ["stale-at": .double(2_000_000_000), "relevance": .double(1),
                                             "push-type": .string("token"), "push-channel": .string("chan")], method: "Start")
        #expect(push.attributes == bus.attributes && push.state == bus.state && push.options == bus.options)
        #expect(push.pushType == bus.pushType && push.pushChannel == bus.pushChannel && push.reason == nil)
    }

    @Test func refusalsSayWhatTheBusSays() {
        let cases: [(PushRejection?, PushRejection?)] = [
            (Self.pushRejection { () throws(PushRejection) in try PushRequests.update(APSMessage(event: .update, timestamp: 1, staleDate: 9.3e18)) },
             Self.rejection { () throws(DBusError) in try UpdateRequest(state: [:], options: ["stale-at": .double(9.3e18)]) }),
            (Self.pushRejection { () throws(PushRejection) in
                try PushRequests.update(APSMessage(event: .update, timestamp: 1, contentState: ["title": .string("evil\u{0}tail")]))
             },
             Self.rejection { () throws(DBusError) in try UpdateRequest(state: ["title": .string("evil\u{0}tail")], options: [:]) }),
            (Self.pushRejection { () throws(PushRejection) in
                try PushRequests.update(APSMessage(event: .update, timestamp: 1, alert: .init(title: "a\u{0}b")))
             },
             Self.rejection { () throws(DBusError) in try UpdateRequest(state: [:], options: ["alert-title": .string("a\u{0}b")]) }),
            (Self.pushRejection { () throws(PushRejection) in try PushRequests.end(APSMessage(event: .end, timestamp: 1, dismissalDate: 1e300)) },
             Self.rejection { () throws(DBusError) in try EndRequest(state: [:], options: ["dismiss-at": .double(1e300)]) }),
            (Self.pushRejection { () throws(PushRejection) in
                try PushRequests.start(APSMessage(event: .start, timestamp: 1, staleDate: 1e300), kind: "generic")
             },
             Self.rejection { () throws(DBusError) in
                try StartRequest(kind: "generic", attributes: [:], state: [:], options: ["stale-at": .double(1e300)], method: "Start")
             }),
            (Self.pushRejection { () throws(PushRejection) in
                try PushRequests.start(APSMessage(event: .start, timestamp: 1, inputPushChannel: "no spaces"), kind: "generic")
             },
             Self.rejection { () throws(DBusError) in
                try StartRequest(kind: "generic", attributes: [:], state: [:], options: ["push-channel": .string("no spaces")], method: "Start")
             }),
        ]
        for (push, bus) in cases {
            #expect(push != nil)
            #expect(push == bus)
        }
    }
}
