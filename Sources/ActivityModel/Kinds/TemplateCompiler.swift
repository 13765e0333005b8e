/// Parses a kind's templates and checks that every value they read can exist in that kind.
struct TemplateCompiler {
    let attributes: [String: KeySpec]
    let state: [String: KeySpec]
    let extraAttributes: Bool
    let extraState: Bool
    let hasTimer: Bool
    let hasPhases: Bool

    func template(_ text: String, path: String) throws(KindDefinitionError) -> Template {
        let template: Template
        do throws(TemplateSyntaxError) {
            template = try Template.parse(text)
        } catch {
            throw KindDefinitionError(path, error.message)
        }
        for source in template.sources {
            try check(source, path: path)
        }
        return template
    }

    func templates(_ file: TemplatesFile, path: String) throws(KindDefinitionError) -> TemplateSet {
        func compile(_ text: String?, _ key: String) throws(KindDefinitionError) -> Template? {
            guard let text else { return nil }
            return try template(text, path: "\(path).\(key)")
        }
        return TemplateSet(
            title: try compile(file.title, "title"), body: try compile(file.body, "body"),
            compactLeading: try compile(file.compactLeading, "compact-leading"),
            compactTrailing: try compile(file.compactTrailing, "compact-trailing"),
            minimal: try compile(file.minimal, "minimal"))
    }

    func alert(_ file: AlertFile, path: String) throws(KindDefinitionError) -> AlertTemplate {
        AlertTemplate(title: try template(file.title, path: "\(path).title"),
                      body: try template(file.body ?? "", path: "\(path).body"),
                      sound: file.sound)
    }

    func progressSource(_ text: String, path: String) throws(KindDefinitionError) -> ProgressSource {
        if text == "timer" {
            guard hasTimer else { throw KindDefinitionError(path, "\"timer\" needs a timer section") }
            return .timer
        }
        guard text.hasPrefix("state."), text.count > 6 else {
            throw KindDefinitionError(path, "expected \"timer\" or \"state.<key>\", got \"\(text)\"")
        }
        let key = String(text.dropFirst(6))
        if let spec = state[key], spec.type != .number {
            throw KindDefinitionError(path, "state key \"\(key)\" must be of type number to give progress")
        }
        guard state[key] != nil || extraState else {
            throw KindDefinitionError(path, "\"\(key)\" is not a declared state key")
        }
        return .state(key)
    }

    private func check(_ source: PlaceholderSource, path: String) throws(KindDefinitionError) {
        switch source {
        case .attribute(let key):
            guard attributes[key] != nil || extraAttributes else {
                throw KindDefinitionError(path, "{attr.\(key)}: \"\(key)\" is not a declared attribute")
            }
        case .state(let key):
            guard state[key] != nil || extraState else {
                throw KindDefinitionError(path, "{state.\(key)}: \"\(key)\" is not a declared state key")
            }
        case .live(let value):
            switch value {
            case .elapsed, .remaining, .timer, .goal, .end, .start:
                guard hasTimer else {
                    throw KindDefinitionError(path, "{\(value.rawValue)} needs a timer, and this kind has none")
                }
            case .phase, .phaseElapsed, .phaseRemaining, .phaseEnd, .phaseNext:
                guard hasPhases else {
                    throw KindDefinitionError(path, "{\(value.rawValue)} needs phases, and this kind has none")
                }
            case .progress, .kind, .reason, .app, .status, .now:
                break
            }
        }
    }
}
