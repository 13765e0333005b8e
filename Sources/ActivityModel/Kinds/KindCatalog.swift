#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A kind file that could not be loaded, and why (with the key path or JSON position).
public struct KindProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path of the file.
    public let file: String
    public let message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}

/// The kinds the daemon knows. Reading them from kind directories (shipped first, the user's
/// after) is `ActivityFiles`' job (`KindCatalog.load`); this target only parses.
public struct KindCatalog: Sendable {
    public private(set) var kinds: [String: Kind]
    /// Files that were skipped, each with the reason; other kinds still load.
    public private(set) var problems: [KindProblem]

    public init(kinds: [Kind] = [], problems: [KindProblem] = []) {
        var byName: [String: Kind] = [:]
        for kind in kinds { byName[kind.name] = kind }
        self.kinds = byName
        self.problems = problems
    }

    /// Kind names, sorted (the `Kinds` property).
    public var names: [String] { kinds.keys.sorted() }

    public func kind(named name: String) -> Kind? { kinds[name] }

    /// The problem of a kind file of `bytes` bytes, if it is over `InputLimits.kindFileBytes`
    /// (asked before reading a file, so a huge one is never read, and again of what was read).
    public static func sizeProblem(bytes: Int, file: String) -> KindProblem? {
        guard bytes > InputLimits.kindFileBytes else { return nil }
        return KindProblem(file: file, message: "the file has \(bytes) bytes; at most \(InputLimits.kindFileBytes) are accepted")
    }

    /// Parses kind JSON; `file` names it in problems.
    /// Refuses a file over `InputLimits.kindFileBytes` and one whose strings hold a NUL
    /// (`\u0000`), which no text on the bus may carry.
    public static func parse(_ data: Data, file: String) throws(KindProblem) -> Kind {
        if let tooLarge = sizeProblem(bytes: data.count, file: file) { throw tooLarge }
        if let offset = KindFileText.nulEscapeOffset(data) {
            throw KindProblem(file: file, message: "byte \(offset + 1): a string holds a NUL character (\\u0000); "
                              + "text on the bus cannot hold NUL")
        }
        let definition: KindFile
        do {
            definition = try JSONDecoder().decode(KindFile.self, from: data)
        } catch let error as DecodingError {
            throw KindProblem(file: file, message: error.kindFileDescription)
        } catch {
            throw KindProblem(file: file, message: "\(error)")
        }
        do throws(KindDefinitionError) {
            return try Kind(compiling: definition)
        } catch {
            throw KindProblem(file: file, message: error.message)
        }
    }
}
