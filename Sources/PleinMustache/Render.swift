import PleinText


/// What a partial or block inherits from where it is rendered.
struct Frame {
    /// Added at the start of every line rendered (standalone partials and blocks).
    var indentation: [UInt8] = []
    /// Blocks overridden by the parents being rendered; the outermost override wins.
    var overrides: [String: [Node]]?
    var depth = 0
}

/// One render: the output bytes and the context stack. No dynamic casts, no intermediate strings.
struct RenderState {
    let templates: [String: Template]
    var out: [UInt8] = []
    var stack: [TemplateValue] = []
    /// The bytes of each item with a `memo` (`TemplateContext.part`), when they are its own: a
    /// section rendered it once, and nothing it looked up was looked for below it in the stack
    /// (in the contexts around the list, which the bytes kept would not follow).
    var parts: [String: [UInt8]] = [:]
    /// Items rendered more than once, or that looked below themselves: no part of theirs is told.
    private var unkeepable: Set<String> = []
    /// The place in the stack of the item being rendered with a memo; whether it looked below it.
    private var memoFloor: Int?
    private var lookedBelow = false

    /// Partials nested deeper than this render nothing (a template that includes itself
    /// without end must not crash the build).
    static let maximumDepth = 100

    init(templates: [String: Template]) {
        self.templates = templates
        out.reserveCapacity(32 * 1024)
        stack.reserveCapacity(16)
    }

    mutating func render(_ nodes: [Node], _ frame: Frame) {
        if frame.indentation.isEmpty {
            for node in nodes { render(node, frame) }
            return
        }
        // Indentation goes before anything rendered at the start of a line of this template's
        // own output (not before its very first byte: the caller wrote that indentation).
        let start = out.count
        for node in nodes {
            let before = out.count
            if before > start, out[before - 1] == 10 {
                out.append(contentsOf: frame.indentation)
                let mark = out.count
                render(node, frame)
                if out.count == mark { out.removeLast(frame.indentation.count) }
            } else {
                render(node, frame)
            }
        }
    }

    private mutating func render(_ node: Node, _ frame: Frame) {
        switch node {
        case .text(let bytes):
            out.append(contentsOf: bytes)
        case .variable(let path, let escaped):
            guard let value = lookup(path) else { return }
            switch value {
            case .text(let text): Escaping.appendHTML(text, to: &out)
            case .html(let html): if escaped { Escaping.appendHTML(html.markup, to: &out) } else { out.append(html.markup) }
            case .number(let number): out.append(String(number))
            case .decimal(let number): out.append(String(number))
            case .flag(let flag): out.append(flag ? "true" : "false")
            case .object, .list, .values, .null: break
            }
        case .section(let path, let body):
            guard let value = lookup(path) else { return }
            switch value {
            case .list(let items):
                for item in items {
                    switch item.part {
                    case .kept(let bytes)?:
                        // (Its body rendered at another build, in this place, from the same values.)
                        out.append(contentsOf: bytes)
                    case .memo(let memo)? where memoFloor == nil:
                        let start = out.count
                        (memoFloor, lookedBelow) = (stack.count, false)
                        stack.append(.object(item))
                        render(body, frame)
                        stack.removeLast()
                        memoFloor = nil
                        if lookedBelow || parts[memo] != nil || unkeepable.contains(memo) {
                            unkeepable.insert(memo)
                            parts[memo] = nil
                        } else {
                            parts[memo] = Array(out[start...])
                        }
                    default:
                        stack.append(.object(item))
                        render(body, frame)
                        stack.removeLast()
                    }
                }
            case .values(let items):
                for item in items {
                    stack.append(item)
                    render(body, frame)
                    stack.removeLast()
                }
            case .flag(let flag):
                if flag { render(body, frame) }
            case .null:
                break
            default:
                stack.append(value)
                render(body, frame)
                stack.removeLast()
            }
        case .inverted(let path, let body):
            switch lookup(path) {
            case nil, .flag(false), .null: render(body, frame)
            case .list(let items) where items.isEmpty: render(body, frame)
            case .values(let items) where items.isEmpty: render(body, frame)
            default: break
            }
        case .partial(let name, let indentation, let overrides):
            renderPartial(name, indentation: indentation, overrides: overrides, frame)
        case .dynamicPartial(let path, let indentation):
            switch lookup(path) {
            case .text(let name)?: renderPartial(name, indentation: indentation, overrides: nil, frame)
            case .html(let name)?: renderPartial(name.markup, indentation: indentation, overrides: nil, frame)
            default: break
            }
        case .block(let name, let body, let indentation, let intrinsic):
            var inner = frame
            if let override = frame.overrides?[name] {
                // An override takes the indentation of the default it replaces; the caller
                // wrote the tag's own indentation already.
                let target = intrinsic ?? indentation
                if target.starts(with: indentation) { out.append(contentsOf: target.dropFirst(indentation.count)) }
                inner.indentation += target
                render(override, inner)
            } else {
                inner.indentation += indentation
                render(body, inner)
            }
        case .blockDefinition:
            break
        }
    }

    private mutating func renderPartial(_ name: String, indentation: [UInt8], overrides: [String: [Node]]?, _ frame: Frame) {
        guard let template = templates[name], frame.depth < Self.maximumDepth else { return }
        var inner = frame
        inner.depth += 1
        inner.indentation += indentation
        if let overrides {
            inner.overrides = (frame.overrides ?? [:]).merging(overrides) { outer, _ in outer }
        }
        render(template.nodes, inner)
    }

    /// Finds a dotted name: its first part in the innermost context that has it (or only in
    /// the innermost one for `.name`), the rest inside that value.
    private mutating func lookup(_ path: Path) -> TemplateValue? {
        guard let first = path.parts.first else { return stack.last }
        var value: TemplateValue
        if path.anchored {
            guard case .object(let context)? = stack.last, let found = context.storage[first] else { return nil }
            value = found
        } else {
            var found: TemplateValue?
            for index in stack.indices.reversed() {
                if let floor = memoFloor, index < floor { lookedBelow = true }
                if case .object(let context) = stack[index], let match = context.storage[first] {
                    found = match
                    break
                }
            }
            guard let found else { return nil }
            value = found
        }
        for part in path.parts.dropFirst() {
            guard case .object(let context) = value, let next = context.storage[part] else { return nil }
            value = next
        }
        return value
    }
}
