/// A syntax error in a kind's template or expression; the kind loader adds the file and key.
struct TemplateSyntaxError: Error, Equatable {
    let message: String
}

/// A parsed text template of a kind: literal text, `{placeholders}` and `[optional segments]`.
///
/// - `{source}` or `{source|format}`: a value, e.g. `{state.title}`, `{remaining|m:ss}`.
/// - `{a ?? b ?? 'text'}`: the first alternative that is not empty.
/// - `[ ... ]`: shown only when every placeholder directly inside it is not empty.
/// - `\x`: the character x itself (for literal `{`, `}`, `[`, `]`, `\`).
struct Template: Sendable, Equatable {
    /// One piece of a template.
    indirect enum Part: Sendable, Equatable {
        case text(String)
        case placeholder([Alternative])
        case optional([Part])
    }

    /// One choice inside a placeholder.
    enum Alternative: Sendable, Equatable {
        case literal(String)
        case value(PlaceholderSource, TimeFormat?)
    }

    let parts: [Part]

    static let empty = Template(parts: [])

    /// Parses `source`; throws with the position and what was expected.
    /// Refuses a template over `InputLimits.templateCharacters` or nesting `[` deeper than
    /// `InputLimits.templateDepth`, so a hostile kind file cannot exhaust the stack.
    static func parse(_ source: String) throws(TemplateSyntaxError) -> Template {
        guard source.count <= InputLimits.templateCharacters else {
            throw TemplateSyntaxError(message: "the template has \(source.count) characters; at most "
                                      + "\(InputLimits.templateCharacters) are accepted")
        }
        if let problem = BusText.problem(source, role: "the template") { throw TemplateSyntaxError(message: problem) }
        var scanner = TextScanner(source)
        let parts = try scanner.sequence(closing: nil)
        return Template(parts: parts)
    }

    /// Every value the template reads, for validation and deadlines.
    var sources: [PlaceholderSource] {
        func collect(_ parts: [Part]) -> [PlaceholderSource] {
            parts.flatMap { part -> [PlaceholderSource] in
                switch part {
                case .text: return []
                case .optional(let inner): return collect(inner)
                case .placeholder(let alternatives):
                    return alternatives.compactMap {
                        if case .value(let source, _) = $0 { return source }
                        return nil
                    }
                }
            }
        }
        return collect(parts)
    }
}

/// Walks a template's characters.
private extension TextScanner {
    mutating func sequence(closing: Character?) throws(TemplateSyntaxError) -> [Template.Part] {
        var parts: [Template.Part] = []
        var text = ""
        func flush() {
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
        }
        while position < characters.count {
            let character = characters[position]
            switch character {
            case "\\":
                position += 1
                guard position < characters.count else { throw failure("a \\ must be followed by a character") }
                text.append(characters[position])
                position += 1
            case "{":
                flush()
                position += 1
                parts.append(.placeholder(try placeholder()))
            case "[":
                flush()
                guard depth < InputLimits.templateDepth else {
                    throw failure("optional segments nest deeper than \(InputLimits.templateDepth)")
                }
                position += 1
                depth += 1
                parts.append(.optional(try sequence(closing: "]")))
                depth -= 1
            case "]" where closing == "]":
                position += 1
                flush()
                return parts
            case "]", "}":
                throw failure("unmatched \"\(character)\" (write \\\(character) for the character itself)")
            default:
                text.append(character)
                position += 1
            }
        }
        if closing != nil { throw failure("\"[\" is never closed by \"]\"") }
        flush()
        return parts
    }

    /// Reads `a ?? b|fmt ?? 'text'` up to the closing brace.
    mutating func placeholder() throws(TemplateSyntaxError) -> [Template.Alternative] {
        var alternatives: [Template.Alternative] = []
        while true {
            skipSpaces()
            guard position < characters.count else { throw failure("\"{\" is never closed by \"}\"") }
            let character = characters[position]
            if character == "'" || character == "\"" {
                alternatives.append(.literal(try quoted(by: character)))
            } else {
                var text = ""
                while position < characters.count, characters[position] != "}", !atDoubleQuestionMark {
                    text.append(characters[position])
                    position += 1
                }
                alternatives.append(try alternative(text.trimmingSpaces))
            }
            skipSpaces()
            guard position < characters.count else { throw failure("\"{\" is never closed by \"}\"") }
            if characters[position] == "}" {
                position += 1
                return alternatives
            }
            guard atDoubleQuestionMark else { throw failure("expected ?? or }") }
            position += 2
        }
    }

    var atDoubleQuestionMark: Bool {
        position + 1 < characters.count && characters[position] == "?" && characters[position + 1] == "?"
    }

    mutating func quoted(by quote: Character) throws(TemplateSyntaxError) -> String {
        position += 1
        var literal = ""
        while position < characters.count, characters[position] != quote {
            literal.append(characters[position])
            position += 1
        }
        guard position < characters.count else { throw failure("unterminated quoted text") }
        position += 1
        return literal
    }

    func alternative(_ text: String) throws(TemplateSyntaxError) -> Template.Alternative {
        let pieces = text.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(pieces[0]).trimmingSpaces
        guard !path.isEmpty else { throw failure("empty placeholder") }
        guard let source = PlaceholderSource(path: path) else {
            throw failure("unknown value \"\(path)\"; expected attr.<key>, state.<key> or one of "
                          + LiveValue.allCases.map(\.rawValue).joined(separator: ", "))
        }
        guard pieces.count == 2 else { return .value(source, nil) }
        let formatName = String(pieces[1]).trimmingSpaces
        guard let format = TimeFormat(rawValue: formatName) else {
            throw failure("unknown format \"\(formatName)\"; expected one of "
                          + TimeFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return .value(source, format)
    }
}

/// Where a placeholder's value comes from.
enum PlaceholderSource: Sendable, Equatable {
    case attribute(String)
    case state(String)
    case live(LiveValue)

    init?(path: String) {
        if path.hasPrefix("attr."), path.count > 5 {
            self = .attribute(String(path.dropFirst(5)))
        } else if path.hasPrefix("state."), path.count > 6 {
            self = .state(String(path.dropFirst(6)))
        } else if let live = LiveValue(rawValue: path) {
            self = .live(live)
        } else {
            return nil
        }
    }
}

/// Values the daemon computes: timer, phase and activity facts.
enum LiveValue: String, Sendable, CaseIterable {
    case elapsed, remaining, timer, progress, goal, end, start
    case phase, phaseElapsed = "phase.elapsed", phaseRemaining = "phase.remaining"
    case phaseEnd = "phase.end", phaseNext = "phase.next"
    case kind, reason, app, status, now
}

extension String {
    /// The text without leading and trailing spaces, newlines and tabs.
    var trimmingSpaces: String {
        // Each of them is a character of one byte, and a character starts with its first byte
        // and ends with its last: a text whose first and last bytes are none of them has
        // nothing to trim. It is returned as it is, without walking its characters (every
        // rendered text comes through here, every tick).
        let isSpaceByte: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 }
        guard let firstByte = utf8.first, let lastByte = utf8.last, isSpaceByte(firstByte) || isSpaceByte(lastByte) else {
            return self
        }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
