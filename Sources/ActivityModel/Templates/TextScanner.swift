/// The one scanner of the model's small languages: a template (`Template`) and a duration
/// expression (`DurationExpression`) are read by the same position, nesting count and error
/// text; each parser adds its grammar in a private extension of its own.
struct TextScanner {
    let characters: [Character]
    let source: String
    var position = 0
    /// How many nested constructs are open at `position` (a template's `[`, an expression's
    /// parentheses and minus signs), for the depth limits of `InputLimits`.
    var depth = 0

    init(_ source: String) {
        characters = Array(source)
        self.source = source
    }

    /// The error at `position`, quoting the whole source.
    func failure(_ text: String) -> TemplateSyntaxError {
        TemplateSyntaxError(message: "\(text) at position \(position + 1) of \(Quoted.text(source))")
    }

    mutating func skipSpaces() {
        while position < characters.count, characters[position] == " " { position += 1 }
    }
}
