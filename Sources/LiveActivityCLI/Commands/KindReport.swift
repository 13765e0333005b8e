import ActivityModel
import Foundation

/// `liveactivity kinds`: the kinds the daemon would load (same directories, read by the CLI
/// itself), each with its display name and declared keys, then the kind files that failed,
/// by file and key, so a user can fix a kind file without reading the daemon's log.
struct KindReport {
    let catalog: KindCatalog

    init(paths: DaemonPaths) {
        catalog = KindCatalog.load(directories: paths.kindDirectories)
    }

    var text: String {
        var lines: [String] = []
        for name in catalog.names {
            guard let kind = catalog.kind(named: name) else { continue }
            lines.append("\(kind.name) (\(kind.displayName))")
            lines += section("attributes", kind.attributes, extra: kind.acceptsExtraAttributes)
            lines += section("state", kind.state, extra: kind.acceptsExtraState)
        }
        if !catalog.problems.isEmpty {
            lines += ["", "Problems (these kind files were skipped):"]
            lines += catalog.problems.map { "  \($0.file): \($0.message)" }
        }
        return lines.joined(separator: "\n")
    }

    var json: Any {
        let kinds: [[String: Any]] = catalog.names.compactMap { catalog.kind(named: $0) }.map { kind in
            ["name": kind.name, "display-name": kind.displayName,
             "attributes": kind.attributes.mapValues(Self.jsonObject), "state": kind.state.mapValues(Self.jsonObject),
             "extra-attributes": kind.acceptsExtraAttributes, "extra-state": kind.acceptsExtraState]
        }
        let problems = catalog.problems.map { ["file": $0.file, "message": $0.message] }
        return ["kinds": kinds, "problems": problems]
    }

    private func section(_ title: String, _ keys: [String: KeySpec], extra: Bool) -> [String] {
        var lines = ["  \(title):" + (keys.isEmpty ? (extra ? " any" : " none") : "")]
        let width = (keys.keys.map(\.count).max() ?? 0) + 2
        for name in keys.keys.sorted() {
            guard let spec = keys[name] else { continue }
            lines.append("    " + name.padding(toLength: width, withPad: " ", startingAt: 0) + Self.describe(spec))
        }
        if extra && !keys.isEmpty { lines.append("    (other keys of any type are accepted)") }
        return lines
    }

    /// `integer from 1 to 168, default 16` / `string, one of "16:8", "18:6"; sets fasting-hours`.
    static func describe(_ spec: KeySpec) -> String {
        var parts = [spec.type.rawValue]
        if spec.required { parts.append("required") }
        if spec.allowed != nil { parts.append(spec.expectation) }
        switch (spec.minimum, spec.maximum) {
        case let (low?, high?): parts.append("from \(plain(low)) to \(plain(high))")
        case let (low?, nil): parts.append("at least \(plain(low))")
        case let (nil, high?): parts.append("at most \(plain(high))")
        case (nil, nil): break
        }
        switch spec.defaultValue {
        case .now?: parts.append("default now")
        case .value(let value)?: parts.append("default \(value.displayText)")
        case nil: break
        }
        let derived = Set(spec.derived.values.flatMap(\.keys)).sorted()
        if !derived.isEmpty { parts.append("sets \(derived.joined(separator: ", "))") }
        return parts.joined(separator: ", ")
    }

    private static func plain(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    static func jsonObject(_ spec: KeySpec) -> [String: Any] {
        var object: [String: Any] = ["type": spec.type.rawValue, "required": spec.required]
        if let allowed = spec.allowed { object["allowed"] = allowed.map(\.displayText) }
        if let minimum = spec.minimum { object["min"] = minimum }
        if let maximum = spec.maximum { object["max"] = maximum }
        switch spec.defaultValue {
        case .now?: object["default"] = "now"
        case .value(let value)?: object["default"] = value.displayText
        case nil: break
        }
        return object
    }
}
