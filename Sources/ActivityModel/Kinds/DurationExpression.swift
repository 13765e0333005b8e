/// A small arithmetic expression over attributes, used by kinds for durations:
/// `fasting-hours`, `24 - fasting-hours`, `minutes * 60`, `(a + b) / 2`.
///
/// Identifiers are attribute names; a `-` belongs to a name only when a letter follows it,
/// so write spaces around a minus sign.
indirect enum DurationExpression: Sendable, Equatable {
    case constant(Double)
    case attribute(String)
    case negate(DurationExpression)
    case binary(Character, DurationExpression, DurationExpression)

    /// Every attribute the expression reads.
    var attributeNames: [String] {
        switch self {
        case .constant: return []
        case .attribute(let name): return [name]
        case .negate(let inner): return inner.attributeNames
        case .binary(_, let left, let right): return left.attributeNames + right.attributeNames
        }
    }

    /// The value, or nil when an attribute is missing or not a number, or on division by zero.
    func evaluate(_ lookup: (String) -> Double?) -> Double? {
        switch self {
        case .constant(let number): return number
        case .attribute(let name): return lookup(name)
        case .negate(let inner): return inner.evaluate(lookup).map { -$0 }
        case .binary(let operation, let left, let right):
            guard let lhs = left.evaluate(lookup), let rhs = right.evaluate(lookup) else { return nil }
            switch operation {
            case "+": return lhs + rhs
            case "-": return lhs - rhs
            case "*": return lhs * rhs
            default: return rhs == 0 ? nil : lhs / rhs
            }
        }
    }

    /// Parses `text`; the error message says where and what was expected.
    /// Refuses an expression over `InputLimits.expressionCharacters` or nesting deeper than
    /// `InputLimits.expressionDepth`, so a hostile kind file cannot exhaust the stack.
    static func parse(_ text: String) throws(TemplateSyntaxError) -> DurationExpression {
        guard text.count <= InputLimits.expressionCharacters else {
            throw TemplateSyntaxError(message: "the expression has \(text.count) characters; at most "
                                      + "\(InputLimits.expressionCharacters) are accepted")
        }
        var parser = TextScanner(text)
        let result = try parser.parseSum()
        parser.skipSpaces()
        if parser.position < parser.characters.count {
            throw parser.failure("unexpected \"\(parser.characters[parser.position])\"")
        }
        return result
    }
}

/// A recursive-descent parser for `DurationExpression`.
private extension TextScanner {
    /// Counts one more level of nesting, refusing past `InputLimits.expressionDepth`.
    mutating func enter() throws(TemplateSyntaxError) {
        guard depth < InputLimits.expressionDepth else {
            throw failure("parentheses and minus signs nest deeper than \(InputLimits.expressionDepth)")
        }
        depth += 1
    }

    mutating func parseSum() throws(TemplateSyntaxError) -> DurationExpression {
        var result = try parseProduct()
        while true {
            skipSpaces()
            guard position < characters.count, "+-".contains(characters[position]) else { return result }
            let operation = characters[position]
            position += 1
            result = .binary(operation, result, try parseProduct())
        }
    }

    mutating func parseProduct() throws(TemplateSyntaxError) -> DurationExpression {
        var result = try parseFactor()
        while true {
            skipSpaces()
            guard position < characters.count, "*/".contains(characters[position]) else { return result }
            let operation = characters[position]
            position += 1
            result = .binary(operation, result, try parseFactor())
        }
    }

    mutating func parseFactor() throws(TemplateSyntaxError) -> DurationExpression {
        skipSpaces()
        guard position < characters.count else { throw failure("expected a number or an attribute name") }
        let character = characters[position]
        if character == "-" {
            position += 1
            try enter()
            defer { depth -= 1 }
            return .negate(try parseFactor())
        }
        if character == "(" {
            position += 1
            try enter()
            defer { depth -= 1 }
            let inner = try parseSum()
            skipSpaces()
            guard position < characters.count, characters[position] == ")" else { throw failure("expected \")\"") }
            position += 1
            return inner
        }
        if character.isNumber || character == "." {
            let start = position
            while position < characters.count, characters[position].isNumber || characters[position] == "." {
                position += 1
            }
            guard let number = Double(String(characters[start..<position])) else {
                throw failure("malformed number")
            }
            return .constant(number)
        }
        if character.isLetter || character == "_" {
            let start = position
            while position < characters.count {
                let next = characters[position]
                let hyphenInName = next == "-" && position + 1 < characters.count
                    && characters[position + 1].isLetter
                guard next.isLetter || next.isNumber || next == "_" || hyphenInName else { break }
                position += 1
            }
            return .attribute(String(characters[start..<position]))
        }
        throw failure("expected a number or an attribute name, found \"\(character)\"")
    }
}
