import Testing
import DBus

/// Values written into a message with DBusMessageIter and read back, without any bus.
@Suite(.timeLimit(.minutes(5))) struct MarshallingTests {
    private func roundTrip(_ values: [DBusValue]) throws -> (decoded: [DBusValue], signature: String) {
        let message = try DBusMessage.methodCall(destination: "org.example.Test", path: "/org/example",
                                                 interface: "org.example.Test", member: "Echo")
        try message.append(values)
        return (try message.arguments(), message.signature)
    }

    @Test(arguments: [
        DBusValue.byte(200), .boolean(true), .boolean(false), .int16(-300), .uint16(65000),
        .int32(-70000), .uint32(4_000_000_000), .int64(Int64.min), .uint64(UInt64.max),
        .double(-1.25), .string(""), .string("héllo ⏱ 🍽"), .objectPath("/"), .objectPath("/a/b_c/d1"),
        .signature(""), .signature("a{sv}(ii)"),
    ])
    func basicValueSurvivesRoundTrip(value: DBusValue) throws {
        let result = try roundTrip([value])
        #expect(result.decoded == [value])
        #expect(result.signature == value.signature)
    }

    @Test func containersSurviveRoundTrip() throws {
        let values: [DBusValue] = [
            .variant(.variant(.variant(.int32(7)))),
            .vardict(["title": .string("Focus"), "progress": .double(0.5), "nested": .vardict(["x": .uint32(1)])]),
            .array(elementSignature: "(ssso)", [
                .structure([.string("a"), .string("focus"), .string("active"), .objectPath("/x/a")]),
                .structure([.string("b"), .string("fasting"), .string("ended"), .objectPath("/x/b")]),
            ]),
            .array(elementSignature: "s", []),
            .array(elementSignature: "a{sv}", []),
            .dictionary(keySignature: "s", valueSignature: "v", []),
            .dictionary(keySignature: "u", valueSignature: "as", [
                DBusDictEntry(key: .uint32(1), value: .array(elementSignature: "s", [.string("one")])),
                DBusDictEntry(key: .uint32(2), value: .array(elementSignature: "s", [])),
            ]),
            .structure([.byte(1), .structure([.double(2), .variant(.array(elementSignature: "y", [.byte(3)]))])]),
        ]
        let result = try roundTrip(values)
        #expect(result.decoded == values)
        #expect(result.signature == "va{sv}a(ssso)asaa{sv}a{sv}a{uas}(y(dv))")
    }

    @Test func signaturesOfValues() {
        #expect(DBusValue.vardict([:]).signature == "a{sv}")
        #expect(DBusValue.structure([.string("a"), .int64(1)]).signature == "(sx)")
        #expect([DBusValue.string("k"), .vardict([:])].dbusSignature == "sa{sv}")
    }

    @Test(arguments: [
        DBusValue.string("a\0b"),
        .objectPath("no-slash"), .objectPath("/trailing/"), .objectPath("/a//b"),
        .signature("a{vs}"), .signature("(("),
        .array(elementSignature: "s", [.int32(1)]),
        .array(elementSignature: "ss", []),
        .dictionary(keySignature: "v", valueSignature: "s", []),
        .dictionary(keySignature: "s", valueSignature: "v", [DBusDictEntry(key: .string("k"), value: .string("x"))]),
        .structure([]),
        .vardict(["bad": .string("nul\0inside")]),
    ])
    func invalidValueIsRejectedAndMessageStaysUsable(value: DBusValue) throws {
        let message = try DBusMessage.methodCall(destination: nil, path: "/o", interface: nil, member: "M")
        try message.append([.string("before")])
        #expect(throws: DBusError.self) { try message.append([.int32(1), value]) }
        #expect(message.signature == "s")
        try message.append([.uint32(9)])
        #expect(try message.arguments() == [.string("before"), .uint32(9)])
    }

    @Test func aSignalBuiltBodyFirstCarriesItsNamesArgumentsAndNoReplyFlag() throws {
        let arguments: [DBusValue] = [.string("a.b.Iface"), .vardict(["Body": .string("23:37 left")]),
                                      .array(elementSignature: "s", [.string("Gone")])]
        let signal = try DBusMessage.signal(path: "/a/b", interface: "org.freedesktop.DBus.Properties",
                                            member: "PropertiesChanged", arguments: arguments)
        #expect(signal.kind == .signal)
        #expect(signal.path == "/a/b")
        #expect(signal.interface == "org.freedesktop.DBus.Properties")
        #expect(signal.member == "PropertiesChanged")
        #expect(signal.signature == "sa{sv}as")
        #expect(signal.noReplyExpected)
        #expect(try signal.arguments() == arguments)
        #expect(throws: DBusError.self) {
            try DBusMessage.signal(path: "/a", interface: "a.b", member: "S", arguments: [.objectPath("not a path")])
        }
    }

    @Test func rejectedErrorNamesAndMessages() throws {
        let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        #expect(throws: DBusError.self) {
            try DBusMessage.methodCall(destination: nil, path: "bad", interface: nil, member: "M")
        }
        #expect(throws: DBusError.self) {
            try DBusMessage.methodCall(destination: "not a name", path: "/", interface: nil, member: "M")
        }
        #expect(throws: DBusError.self) { try DBusMessage.signal(path: "/", interface: "noDots", member: "S") }
        do {
            _ = try DBusMessage.signal(path: "/", interface: "a.b", member: "1Bad")
            Issue.record("expected a throw")
        } catch {
            #expect(error.name == invalidArgs)
        }
    }

    @Test func replyCarriesErrorNameAndText() throws {
        let call = try DBusMessage.methodCall(destination: nil, path: "/o", interface: "a.b", member: "M")
        let reply = DBusMessage.error(replyingTo: call, .invalidArgs("got \0 nothing"))
        #expect(reply.kind == .error)
        #expect(reply.asError?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(reply.asError?.message == "got \u{FFFD} nothing")
        let badName = DBusMessage.error(replyingTo: call, DBusError(name: "bad name", message: "x"))
        #expect(badName.errorName == "org.freedesktop.DBus.Error.Failed")
        #expect(DBusMessage.methodReturn(replyingTo: call).kind == .methodReturn)
    }

    @Test func signatureSplitting() {
        #expect(DBusSignature.split("sa{sv}a(ssso)v") == ["s", "a{sv}", "a(ssso)", "v"])
        #expect(DBusSignature.split("") == [])
        #expect(DBusSignature.split("a{") == nil)
        #expect(DBusSignature.isValid("a{sv}"))
        #expect(!DBusSignature.isValid("{sv}"))
    }
}
