#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A lexical look at a kind file's JSON before it is decoded: JSON may spell a NUL inside a
/// string as `\u0000`, which decodes fine but can never be sent on the bus, so such a file is
/// refused as a whole (every string of a kind file ends up in a template, a label or a name).
enum KindFileText {
    /// The byte offset of the first `\u0000` escape, or nil. An escaped backslash (`\\u0000`)
    /// is text, not an escape, so each backslash is read with the character after it.
    static func nulEscapeOffset(_ data: Data) -> Int? {
        let bytes = [UInt8](data)
        let nul = Array("u0000".utf8)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\") else { index += 1; continue }
            if index + 5 < bytes.count, Array(bytes[(index + 1)...(index + 5)]) == nul { return index }
            index += 2
        }
        return nil
    }
}
