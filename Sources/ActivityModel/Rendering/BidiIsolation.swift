/// Client text set among the daemon's own text (a task in a title, a label in `SegmentText`, a
/// body after "Paused · ", the parts of the compact text) is shown as the client's text only:
/// a right-to-left override inside it must not reverse the words around it, and a Hebrew title
/// must not turn a panel's whole label right-to-left. Text that could do so (right-to-left
/// letters, bidi controls, unbalanced isolates) is wrapped in FSI (U+2068) … PDI (U+2069), as
/// UAX #9 advises, each paragraph on its own; a stray PDI in it is dropped and an isolate it
/// leaves open is closed, so nothing can end the wrapping early or keep it open. Everything
/// else, plain ASCII included, is returned exactly as it is.
public enum BidiIsolation {
    static let firstStrongIsolate: Unicode.Scalar = "\u{2068}"
    static let popDirectionalIsolate: Unicode.Scalar = "\u{2069}"

    /// `text` ready to stand among other text.
    public static func isolated(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: mayReachOutside) else { return text }
        var result = String.UnicodeScalarView()
        var paragraph: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if isParagraphSeparator(scalar) {
                append(paragraph, to: &result)
                result.append(scalar)
                paragraph = []
            } else {
                paragraph.append(scalar)
            }
        }
        append(paragraph, to: &result)
        return String(result)
    }

    /// One paragraph: as it is when nothing in it reaches outside, else isolated and balanced.
    private static func append(_ paragraph: [Unicode.Scalar], to result: inout String.UnicodeScalarView) {
        var depth = 0
        var reachesOut = false
        for scalar in paragraph {
            if isIsolateInitiator(scalar) {
                depth += 1
            } else if scalar == popDirectionalIsolate {
                if depth == 0 { reachesOut = true } else { depth -= 1 }
            } else if depth == 0, mayReachOutside(scalar) {
                reachesOut = true
            }
        }
        guard reachesOut || depth > 0 else {
            result.append(contentsOf: paragraph)
            return
        }
        result.append(firstStrongIsolate)
        depth = 0
        for scalar in paragraph {
            if isIsolateInitiator(scalar) {
                depth += 1
            } else if scalar == popDirectionalIsolate {
                guard depth > 0 else { continue }  // would close our isolate early
                depth -= 1
            }
            result.append(scalar)
        }
        result.append(contentsOf: repeatElement(popDirectionalIsolate, count: depth))  // isolates left open
        result.append(popDirectionalIsolate)
    }

    /// LRI, RLI, FSI.
    private static func isIsolateInitiator(_ scalar: Unicode.Scalar) -> Bool {
        (0x2066...0x2068).contains(scalar.value)
    }

    /// A right-to-left letter or a bidi control. Everything below U+0590 is neither, so the
    /// daemon's own text (digits, "·", "⏱" aside) is told apart by one comparison a scalar.
    private static func mayReachOutside(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x0590 && (isRightToLeft(scalar) || isBidiControl(scalar))
    }

    /// The explicit formatting characters and marks of UAX #9, Unicode's `Bidi_Control`
    /// (PropList.txt): ALM, LRM, RLM, LRE…RLO, LRI…PDI. Listed, not looked up: the standard
    /// library's lookup, on every scalar of every text each tick, was most of what isolating
    /// cost, and the set is closed (`BidiIsolationTests` checks the list against the lookup
    /// over every scalar).
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// A letter of a right-to-left script (bidi classes R and AL): the blocks Unicode assigns
    /// them by default (Hebrew to the Arabic extensions, their presentation forms, and the
    /// right-to-left ranges of the supplementary planes). Swift exposes no bidi class, and a
    /// digit or mark of these blocks being taken for one only isolates a text that needed none.
    private static func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFE, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }

    /// Where UAX #9 ends a paragraph (bidi class B); isolation does not reach across it.
    private static func isParagraphSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x1C...0x1E, 0x85, 0x2029: return true
        default: return false
        }
    }
}
