/// The JSON shape of a kind file, exactly as written in `data/kinds/<name>.json`.
///
/// It is decoded strictly (unknown keys are errors) and then compiled into a `Kind`;
/// `docs/kinds.md` documents every key.
struct KindFile: Decodable {
    var name: String
    var displayName: String?
    var icon: String?
    var attributes: [String: KeySpecFile]
    var state: [String: KeySpecFile]
    var extraAttributes: Bool
    var extraState: Bool
    var timer: TimerFile?
    var phases: [PhaseFile]
    var progress: [String]
    var templates: TemplatesFile
    var endedTemplates: TemplatesFile?
    var buttons: [ButtonFile]
    var maxLifetime: Double?
    var quietsDesktop: QuietsDesktopFile?
    var pausesWhenIdle: Bool
    var lockScreen: Bool
    var mpris: Bool

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, icon, attributes, state, timer, phases, progress, templates, buttons
        case displayName = "display-name", extraAttributes = "extra-attributes"
        case extraState = "extra-state", endedTemplates = "ended-templates"
        case maxLifetime = "max-lifetime"
        case quietsDesktop = "quiets-desktop", pausesWhenIdle = "pauses-when-idle"
        case lockScreen = "lock-screen", mpris
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        icon = try container.decodeIfPresent(String.self, forKey: .icon)
        attributes = try container.decodeIfPresent([String: KeySpecFile].self, forKey: .attributes) ?? [:]
        state = try container.decodeIfPresent([String: KeySpecFile].self, forKey: .state) ?? [:]
        extraAttributes = try container.decodeIfPresent(Bool.self, forKey: .extraAttributes) ?? false
        extraState = try container.decodeIfPresent(Bool.self, forKey: .extraState) ?? false
        timer = try container.decodeIfPresent(TimerFile.self, forKey: .timer)
        phases = try container.decodeIfPresent([PhaseFile].self, forKey: .phases) ?? []
        progress = try container.decodeIfPresent([String].self, forKey: .progress) ?? []
        templates = try container.decodeIfPresent(TemplatesFile.self, forKey: .templates) ?? TemplatesFile()
        endedTemplates = try container.decodeIfPresent(TemplatesFile.self, forKey: .endedTemplates)
        buttons = try container.decodeIfPresent([ButtonFile].self, forKey: .buttons) ?? []
        maxLifetime = try container.decodeIfPresent(Double.self, forKey: .maxLifetime)
        quietsDesktop = try container.decodeIfPresent(QuietsDesktopFile.self, forKey: .quietsDesktop)
        pausesWhenIdle = try container.decodeIfPresent(Bool.self, forKey: .pausesWhenIdle) ?? false
        lockScreen = try container.decodeIfPresent(Bool.self, forKey: .lockScreen) ?? true
        mpris = try container.decodeIfPresent(Bool.self, forKey: .mpris) ?? true
    }
}

/// One declared attribute or state key.
struct KeySpecFile: Decodable {
    var type: ValueType
    var required: Bool
    var defaultValue: JSONScalar?
    var allowed: [JSONScalar]?
    var min: Double?
    var max: Double?
    var derive: [String: [String: JSONScalar]]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type, required, allowed, min, max, derive
        case defaultValue = "default"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        type = try container.decode(ValueType.self, forKey: .type)
        required = try container.decodeIfPresent(Bool.self, forKey: .required) ?? false
        defaultValue = try container.decodeIfPresent(JSONScalar.self, forKey: .defaultValue)
        allowed = try container.decodeIfPresent([JSONScalar].self, forKey: .allowed)
        min = try container.decodeIfPresent(Double.self, forKey: .min)
        max = try container.decodeIfPresent(Double.self, forKey: .max)
        derive = try container.decodeIfPresent([String: [String: JSONScalar]].self, forKey: .derive)
    }
}

/// `{"hours": "fasting-hours"}`: exactly one unit, whose value is an expression over attributes.
struct DurationFile: Decodable {
    var unitSeconds: Double
    var expression: String

    enum CodingKeys: String, CodingKey, CaseIterable { case hours, minutes, seconds }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "expected exactly one of hours, minutes, seconds"))
        }
        unitSeconds = key == .hours ? 3600 : key == .minutes ? 60 : 1
        expression = try container.decode(ExpressionText.self, forKey: key).text
    }
}

/// The kind's timer: where it starts, how long it runs, and what happens when it runs out.
struct TimerFile: Decodable {
    var start: String?
    var duration: DurationFile?
    var end: String?
    var counts: String
    var onExpiry: ExpiryFile

    enum CodingKeys: String, CodingKey, CaseIterable {
        case start, duration, end, counts
        case onExpiry = "on-expiry"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        start = try container.decodeIfPresent(String.self, forKey: .start)
        duration = try container.decodeIfPresent(DurationFile.self, forKey: .duration)
        end = try container.decodeIfPresent(String.self, forKey: .end)
        counts = try container.decodeIfPresent(String.self, forKey: .counts) ?? "up"
        onExpiry = try container.decodeIfPresent(ExpiryFile.self, forKey: .onExpiry) ?? ExpiryFile()
    }
}

/// `{"action": "end", "reason": "completed", "alert": {...}}` or `{"action": "stay"}`.
struct ExpiryFile: Decodable {
    var action: String = "stay"
    var reason: String?
    var alert: AlertFile?

    init() {}

    enum CodingKeys: String, CodingKey, CaseIterable { case action, reason, alert }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        action = try container.decode(String.self, forKey: .action)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        alert = try container.decodeIfPresent(AlertFile.self, forKey: .alert)
    }
}

/// An alert's templates.
struct AlertFile: Decodable {
    var title: String
    var body: String?
    var sound: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case title, body, sound }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        sound = try container.decodeIfPresent(String.self, forKey: .sound)
    }
}

/// One phase of the timer (fasting, then the eating window).
struct PhaseFile: Decodable {
    var name: String
    var label: String
    var duration: DurationFile?
    var alert: AlertFile?
    var templates: TemplatesFile?

    enum CodingKeys: String, CodingKey, CaseIterable { case name, label, duration, alert, templates }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        label = try container.decodeIfPresent(String.self, forKey: .label) ?? name
        duration = try container.decodeIfPresent(DurationFile.self, forKey: .duration)
        alert = try container.decodeIfPresent(AlertFile.self, forKey: .alert)
        templates = try container.decodeIfPresent(TemplatesFile.self, forKey: .templates)
    }
}

/// The texts of the card and of the compact view, each a template.
struct TemplatesFile: Decodable {
    var title: String?
    var body: String?
    var compactLeading: String?
    var compactTrailing: String?
    var minimal: String?

    init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, body, minimal
        case compactLeading = "compact-leading", compactTrailing = "compact-trailing"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        compactLeading = try container.decodeIfPresent(String.self, forKey: .compactLeading)
        compactTrailing = try container.decodeIfPresent(String.self, forKey: .compactTrailing)
        minimal = try container.decodeIfPresent(String.self, forKey: .minimal)
    }
}

/// A card button: a built-in action or a custom key.
struct ButtonFile: Decodable {
    var action: String
    var label: String
    var seconds: Int64?
    var key: String?

    enum CodingKeys: String, CodingKey, CaseIterable { case action, label, seconds, key }

    init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(keyedBy: CodingKeys.self)
        action = try container.decode(String.self, forKey: .action)
        label = try container.decode(String.self, forKey: .label)
        seconds = try container.decodeIfPresent(Int64.self, forKey: .seconds)
        key = try container.decodeIfPresent(String.self, forKey: .key)
    }
}
