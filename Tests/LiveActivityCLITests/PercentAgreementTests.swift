import ActivityModel
import DBus
import Foundation
@testable import KDEJobs
@testable import LiveActivitiesService
@testable import LiveActivityCLI
import Notifications
import Testing

/// Every place that shows a percentage shows the same number for the same activity: the card
/// body, the card's progress hint and text bar, the compact view, `liveactivity get`, `watch
/// --format waybar` and the KDE job. The rule (rounded down) is `ShownPercent.of`.
@Suite(.timeLimit(.minutes(5))) struct PercentAgreementTests {
    static let t0: UnixTime = 1_699_963_200
    static let catalog: KindCatalog = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return KindCatalog.load(directories: [url.appendingPathComponent("data/kinds").path])
    }()

    /// The percent each surface shows for `rendered`, by surface name.
    func shown(_ rendered: RenderedActivity, cardBody: Bool) throws -> [String: Int] {
        let progress = try #require(rendered.progress)
        var numbers: [String: Int] = [:]
        if cardBody {
            let match = try #require(rendered.body.firstMatch(of: /(\d+)%/), "\(rendered.body)")
            numbers["card body"] = Int(match.1)
        } else {
            numbers["compact view"] = Int(rendered.compactTrailing.dropLast())
            numbers["minimal"] = Int(rendered.minimal.dropLast())
        }
        numbers["get"] = Int(OutputFormat.display(.double(progress), key: "progress").dropLast())
        let waybar = WatchFormat.waybar.line(.init(compactText: "x", progress: progress))
        let object = try JSONSerialization.jsonObject(with: Data(waybar.utf8)) as? [String: Any]
        numbers["waybar"] = object?["percentage"] as? Int
        numbers["card hint"] = Int(CardText.percentValue(progress))
        numbers["card text bar"] = Int(CardText.progressBar(progress).split(separator: " ").last?.dropLast() ?? "")
        let job = KDEJobContent.of(title: "t", body: "b", progress: progress, live: true, paused: false)
        numbers["KDE job"] = job.map { Int($0.percent) }
        numbers["rule"] = ShownPercent.of(progress)
        return numbers
    }

    @Test func aFastShowsOnePercentEverywhere() throws {
        for minutes in stride(from: 0, to: 18 * 60, by: 1) {
            var registry = ActivityRegistry(catalog: Self.catalog, idSeed: 1)
            let (id, _) = try registry.start(kind: "fasting", attributes: ["protocol": .string("18:6"),
                                             "start-time": .double(Self.t0 - Double(minutes * 60))], state: [:], now: Self.t0)
            let rendered = try registry.render(id: id.rawValue, now: Self.t0, timeZoneOffset: 0)
            let numbers = try shown(rendered, cardBody: true)
            #expect(Set(numbers.values).count == 1 && numbers.count == 7, "\(minutes) min: \(numbers)")
            if minutes == 180 { #expect(numbers["card body"] == 16 && numbers["get"] == 16, "3 h of 18 h") }
        }
    }

    @Test func aProgressValueShowsOnePercentEverywhere() throws {
        let sweep = stride(from: 0.0, through: 1.0, by: 0.0005).map { $0 } + [0.29, 0.57, 1.0 / 3, 2.0 / 3, 0.995, 0.9999]
        for progress in sweep {
            var registry = ActivityRegistry(catalog: Self.catalog, idSeed: 1)
            let (id, _) = try registry.start(kind: "generic", attributes: [:],
                                             state: ["title": .string("x"), "progress": .double(progress)], now: Self.t0)
            let rendered = try registry.render(id: id.rawValue, now: Self.t0, timeZoneOffset: 0)
            let numbers = try shown(rendered, cardBody: false)
            #expect(Set(numbers.values).count == 1 && numbers.count == 8, "\(progress): \(numbers)")
            if progress == 0.9999 { #expect(numbers["get"] == 99, "100% only when done") }
        }
    }
}
