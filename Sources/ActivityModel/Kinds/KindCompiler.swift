/// A mistake in a kind file found after decoding, with the key path it is at.
struct KindDefinitionError: Error, Equatable {
    let message: String

    init(_ path: String, _ text: String) {
        message = "\(path): \(text)"
    }
}

extension Kind {
    /// Checks a decoded kind file and compiles its templates and expressions.
    init(compiling file: KindFile) throws(KindDefinitionError) {
        guard !file.name.isEmpty, file.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw KindDefinitionError("name", "expected letters, digits, - or _, got \"\(file.name)\"")
        }
        let attributes = try Self.compileKeys(file.attributes, path: "attributes")
        let state = try Self.compileKeys(file.state, path: "state")
        try Self.checkDerivations(attributes, targets: attributes, path: "attributes")
        try Self.checkDerivations(state, targets: state, path: "state")
        let compiler = TemplateCompiler(attributes: attributes, state: state,
                                        extraAttributes: file.extraAttributes, extraState: file.extraState,
                                        hasTimer: file.timer != nil, hasPhases: !file.phases.isEmpty)
        let timer = try file.timer.map { spec throws(KindDefinitionError) in
            try Self.compileTimer(spec, attributes: attributes, compiler: compiler)
        }
        if !file.phases.isEmpty, timer == nil {
            throw KindDefinitionError("phases", "phases need a timer; add a \"timer\" section")
        }
        var phases: [PhaseSpec] = []
        for (index, phase) in file.phases.enumerated() {
            let path = "phases[\(index)]"
            if phase.duration == nil, index < file.phases.count - 1 {
                throw KindDefinitionError("\(path).duration", "only the last phase may omit its duration")
            }
            phases.append(PhaseSpec(
                name: phase.name, label: phase.label,
                duration: try phase.duration.map { spec throws(KindDefinitionError) in
                    try Self.compileDuration(spec, path: "\(path).duration", attributes: attributes)
                },
                alert: try phase.alert.map { spec throws(KindDefinitionError) in
                    try compiler.alert(spec, path: "\(path).alert")
                },
                templates: try phase.templates.map { spec throws(KindDefinitionError) in
                    try compiler.templates(spec, path: "\(path).templates")
                }))
        }
        var progressSources: [ProgressSource] = []
        for (index, text) in file.progress.enumerated() {
            progressSources.append(try compiler.progressSource(text, path: "progress[\(index)]"))
        }
        if let lifetime = file.maxLifetime, !(lifetime > 0 && lifetime <= InputLimits.longestDuration) {
            throw KindDefinitionError("max-lifetime", "expected a number of seconds above 0 and at most 3155760000 (100 years)")
        }
        self.init(
            name: file.name, displayName: file.displayName ?? file.name,
            attributes: attributes, state: state,
            acceptsExtraAttributes: file.extraAttributes, acceptsExtraState: file.extraState,
            maxLifetime: file.maxLifetime,
            icon: try compiler.template(file.icon ?? "dialog-information", path: "icon"),
            timer: timer, phases: phases, progressSources: progressSources,
            templates: try compiler.templates(file.templates, path: "templates"),
            endedTemplates: try file.endedTemplates.map { spec throws(KindDefinitionError) in
                try compiler.templates(spec, path: "ended-templates")
            },
            buttons: try Self.compileButtons(file.buttons, hasTimer: timer != nil))
        quietRule = try QuietRule.compile(file.quietsDesktop, phaseNames: phases.map(\.name))
        pausesWhenIdle = file.pausesWhenIdle
        showsOnLockScreen = file.lockScreen
        offersMediaPlayer = file.mpris
        if pausesWhenIdle && timer == nil {
            throw KindDefinitionError("pauses-when-idle", "needs a timer to pause")
        }
    }

    private static func compileKeys(_ specs: [String: KeySpecFile], path: String) throws(KindDefinitionError) -> [String: KeySpec] {
        var result: [String: KeySpec] = [:]
        for (name, spec) in specs.sorted(by: { $0.key < $1.key }) {
            let keyPath = "\(path).\(name)"
            let bare = KeySpec(name: name, type: spec.type, required: spec.required, defaultValue: nil,
                               allowed: nil, minimum: spec.min, maximum: spec.max, derived: [:])
            var allowed: [Value]?
            if let listed = spec.allowed {
                allowed = []
                for (index, scalar) in listed.enumerated() {
                    allowed?.append(try check(scalar.value, against: bare, path: "\(keyPath).allowed[\(index)]"))
                }
            }
            let checked = KeySpec(name: name, type: spec.type, required: spec.required, defaultValue: nil,
                                  allowed: allowed, minimum: spec.min, maximum: spec.max, derived: [:])
            var defaultValue: KeySpec.Default?
            if let scalar = spec.defaultValue {
                if spec.type == .time, scalar.value == .string("now") {
                    defaultValue = .now
                } else {
                    defaultValue = .value(try check(scalar.value, against: checked, path: "\(keyPath).default"))
                }
            }
            var derived: [String: [String: Value]] = [:]
            for (chosen, implied) in spec.derive ?? [:] {
                if let allowed, !allowed.contains(where: { $0.displayText == chosen }) {
                    throw KindDefinitionError("\(keyPath).derive.\(chosen)", "\"\(chosen)\" is not one of the allowed values")
                }
                derived[chosen] = implied.mapValues(\.value)
            }
            result[name] = KeySpec(name: name, type: spec.type, required: spec.required, defaultValue: defaultValue,
                                   allowed: allowed, minimum: spec.min, maximum: spec.max, derived: derived)
        }
        return result
    }

    private static func check(_ value: Value, against spec: KeySpec, path: String) throws(KindDefinitionError) -> Value {
        do throws(ActivityError) {
            return try spec.accept(value, role: "value")
        } catch {
            throw KindDefinitionError(path, "expected \(spec.expectation), got \(value.typeDescription)")
        }
    }

    /// Derived values must name declared keys and fit them.
    private static func checkDerivations(_ specs: [String: KeySpec], targets: [String: KeySpec], path: String) throws(KindDefinitionError) {
        for (name, spec) in specs {
            for (chosen, implied) in spec.derived {
                for (target, value) in implied {
                    let targetPath = "\(path).\(name).derive.\(chosen).\(target)"
                    guard let targetSpec = targets[target] else {
                        throw KindDefinitionError(targetPath, "\"\(target)\" is not a declared key")
                    }
                    _ = try check(value, against: targetSpec, path: targetPath)
                }
            }
        }
    }

    private static func compileDuration(_ spec: DurationFile, path: String, attributes: [String: KeySpec]) throws(KindDefinitionError) -> DurationSpec {
        let expression: DurationExpression
        do throws(TemplateSyntaxError) {
            expression = try DurationExpression.parse(spec.expression)
        } catch {
            throw KindDefinitionError(path, error.message)
        }
        for name in expression.attributeNames {
            guard let declared = attributes[name], [.integer, .number].contains(declared.type) else {
                throw KindDefinitionError(path, "\"\(name)\" is not a declared integer or number attribute")
            }
        }
        return DurationSpec(expression: expression, unitSeconds: spec.unitSeconds)
    }

    private static func compileTimer(_ spec: TimerFile, attributes: [String: KeySpec], compiler: TemplateCompiler) throws(KindDefinitionError) -> TimerSpec {
        for (key, name) in [("timer.start", spec.start), ("timer.end", spec.end)] {
            guard let name else { continue }
            guard attributes[name]?.type == .time else {
                throw KindDefinitionError(key, "\"\(name)\" is not a declared attribute of type time")
            }
        }
        if spec.duration != nil, spec.end != nil {
            throw KindDefinitionError("timer", "give either \"duration\" or \"end\", not both")
        }
        guard spec.counts == "up" || spec.counts == "down" else {
            throw KindDefinitionError("timer.counts", "expected \"up\" or \"down\", got \"\(spec.counts)\"")
        }
        let expiry: ExpiryRule
        switch spec.onExpiry.action {
        case "stay": expiry = .stay
        case "end":
            guard let reason = EndReason(rawValue: spec.onExpiry.reason ?? "ended") else {
                throw KindDefinitionError("timer.on-expiry.reason", "expected completed, cancelled or ended")
            }
            expiry = .end(reason)
        default:
            throw KindDefinitionError("timer.on-expiry.action", "expected \"stay\" or \"end\", got \"\(spec.onExpiry.action)\"")
        }
        return TimerSpec(
            startAttribute: spec.start,
            duration: try spec.duration.map { duration throws(KindDefinitionError) in
                try compileDuration(duration, path: "timer.duration", attributes: attributes)
            },
            endAttribute: spec.end, countsDown: spec.counts == "down", expiry: expiry,
            expiryAlert: try spec.onExpiry.alert.map { alert throws(KindDefinitionError) in
                try compiler.alert(alert, path: "timer.on-expiry.alert")
            })
    }

    private static func compileButtons(_ buttons: [ButtonFile], hasTimer: Bool) throws(KindDefinitionError) -> [ButtonSpec] {
        var result: [ButtonSpec] = []
        for (index, button) in buttons.enumerated() {
            let path = "buttons[\(index)]"
            let action: CardAction
            switch button.action {
            case "end": action = .end
            case "complete": action = .complete
            case "cancel": action = .cancel
            case "pause", "resume", "extend":
                guard hasTimer else { throw KindDefinitionError(path, "\"\(button.action)\" needs a timer") }
                if button.action == "extend" {
                    guard let seconds = button.seconds, seconds > 0 else {
                        throw KindDefinitionError("\(path).seconds", "extend needs \"seconds\" above 0")
                    }
                    action = .extend(seconds: seconds)
                } else {
                    action = button.action == "pause" ? .pause : .resume
                }
            case "custom":
                guard let key = button.key, ActivityID.isValid(key), !CardAction.builtInNames.contains(key) else {
                    throw KindDefinitionError("\(path).key", "a custom button needs a \"key\" of letters, digits or underscores that is not a built-in action name")
                }
                action = .custom(key)
            default:
                throw KindDefinitionError("\(path).action", "expected one of end, complete, cancel, pause, resume, extend, custom; got \"\(button.action)\"")
            }
            result.append(ButtonSpec(action: action, label: button.label))
        }
        return result
    }
}
