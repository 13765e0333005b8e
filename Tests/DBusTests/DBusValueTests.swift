import Testing
import DBus

/// The convenience accessors and descriptions used by services to read loosely typed input.
@Suite(.timeLimit(.minutes(5))) struct DBusValueTests {
    @Test func vardictSortsKeysAndUnwrapsOneLevel() {
        let value = DBusValue.vardict(["b": .int32(2), "a": .variant(.string("x"))])
        guard case .dictionary("s", "v", let entries) = value else { Issue.record("not a{sv}"); return }
        #expect(entries.map(\.key) == [.string("a"), .string("b")])
        #expect(value.vardict?["b"] == .int32(2))
        #expect(value.vardict?["a"] == .variant(.string("x")))
        #expect(DBusValue.string("x").vardict == nil)
    }

    @Test func integerAcceptsEveryIntegerType() {
        let values: [DBusValue] = [.byte(5), .int16(5), .uint16(5), .int32(5), .uint32(5), .int64(5), .uint64(5)]
        #expect(values.map(\.integer) == Array(repeating: 5, count: values.count))
        #expect(DBusValue.uint64(UInt64.max).integer == nil)
        #expect(DBusValue.double(5).integer == nil)
        #expect(DBusValue.variant(.variant(.int16(-3))).integer == -3)
    }

    @Test func typedAccessors() {
        #expect(DBusValue.variant(.string("s")).string == "s")
        #expect(DBusValue.objectPath("/x").string == nil)
        #expect(DBusValue.boolean(true).bool == true)
        #expect(DBusValue.double(1.5).double == 1.5)
        #expect(DBusValue.int32(1).double == nil)
        #expect(DBusValue.variant(.variant(.byte(1))).unwrapped == .byte(1))
    }

    @Test func typeDescriptionsForErrorMessages() {
        #expect(DBusValue.string("abc").typeDescription == "string \"abc\"")
        #expect(DBusValue.int32(5).typeDescription == "int32 5")
        #expect(DBusValue.double(1.5).typeDescription == "double 1.5")
        #expect(DBusValue.boolean(true).typeDescription == "boolean true")
        #expect(DBusValue.array(elementSignature: "s", []).typeDescription == "array of s")
        #expect(DBusValue.vardict([:]).typeDescription == "dictionary a{sv}")
        #expect(DBusValue.variant(.uint32(2)).typeDescription == "variant holding uint32 2")
        #expect(DBusValue.string(String(repeating: "x", count: 100)).typeDescription.count < 80)
    }
}
