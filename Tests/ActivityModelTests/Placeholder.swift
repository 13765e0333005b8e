import Testing

@Test func placeholderActivityModelTests() { #expect(Bool(true)) }
