import Foundation
import Testing
@testable import ActivityModel
import ActivityFiles

/// 2023-11-14 12:00:00 UTC, on the minute: the injected clock's origin.
let t0: UnixTime = 1_699_963_200

/// The directory holding the shipped kind files, found from this source file.
let shippedKindsDirectory: String = {
    var url = URL(fileURLWithPath: #filePath)
    url.deleteLastPathComponent()
    url.deleteLastPathComponent()
    url.deleteLastPathComponent()
    return url.appendingPathComponent("data/kinds").path
}()

/// The shipped kinds, loaded from `data/kinds` like the daemon does.
let shippedCatalog = KindCatalog.load(directories: [shippedKindsDirectory])

/// A registry over the shipped kinds.
func shippedRegistry(limits: Limits = Limits()) -> ActivityRegistry {
    ActivityRegistry(catalog: shippedCatalog, limits: limits, idSeed: 7)
}

/// A test kind "probe" with a timer from attributes `start` and `length` (seconds) and the
/// given body; `extra` adds top-level JSON members.
func probeKind(body: String, progress: [String] = [], extra: String = "") throws -> Kind {
    let escapedBody = body.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    let json = """
    {
      "name": "probe",
      "display-name": "Probe",
      "attributes": {
        "start": { "type": "time", "default": "now" },
        "length": { "type": "number", "min": 1 }
      },
      "state": { "label": { "type": "string" }, "missing": { "type": "string" } },
      "timer": { "start": "start", "duration": { "seconds": "length" }, "counts": "down" },
      "progress": \(progress.isEmpty ? "[]" : "[\"" + progress.joined(separator: "\",\"") + "\"]"),
      "templates": { "title": "Probe", "body": "\(escapedBody)" }\(extra)
    }
    """
    return try KindCatalog.parse(Data(json.utf8), file: "probe.json")
}

/// A registry with only the probe kind, and one probe activity started at `t0`.
func probeRegistry(body: String, length: Double = 7200, progress: [String] = [], extra: String = "",
                   start: UnixTime = t0) throws -> (ActivityRegistry, ActivityID) {
    var registry = ActivityRegistry(catalog: KindCatalog(kinds: [try probeKind(body: body, progress: progress, extra: extra)]), idSeed: 1)
    let (id, _) = try registry.start(kind: "probe", attributes: ["start": .double(start), "length": .double(length)],
                                     state: [:], now: t0)
    return (registry, id)
}

/// The error a call throws, if any.
func thrownError<T>(_ body: () throws -> T) -> ActivityError? {
    do {
        _ = try body()
        return nil
    } catch let error as ActivityError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}
