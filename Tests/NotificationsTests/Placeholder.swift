import Testing

@Test func placeholderNotificationsTests() { #expect(Bool(true)) }
