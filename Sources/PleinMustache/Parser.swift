/// Parses template bytes into nodes. Standalone tags (alone on their line but for spaces)
/// leave no trace in the output; the whitespace before a standalone partial or block becomes
/// its indentation.
struct TemplateParser {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    struct Failure: Error {
        let message: String
    }

    /// Where parsing is, as we go into a section, a parent or a block.
    struct State {
        var sectionName: String?
        var newLine = true
        /// Inside a parent (`{{<name}}`): `{{$block}}` tags there define overrides.
        var isPartialDefinition = false
        /// Directly inside a parent, not inside one of its blocks.
        var isPartialDefinitionTopLevel = false
        /// The indentation of the first line of a block definition, removed from every line.
        var partialDefinitionIndent: Int?
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)

        func entering(section name: String, newLine: Bool) -> State {
            var state = self
            state.sectionName = name
            state.isPartialDefinitionTopLevel = false
            if !newLine { state.newLine = false }
            return state
        }

        func entering(parent name: String) -> State {
            var state = self
            state.sectionName = name
            state.newLine = true
            state.isPartialDefinition = true
            state.isPartialDefinitionTopLevel = true
            return state
        }
    }

    mutating func parseTemplate() throws(Failure) -> [Node] {
        try parse(State())
    }

    func syntaxError(_ failure: Failure) -> TemplateSyntaxError {
        let at = min(position, bytes.count)
        let lineStart = bytes[..<at].lastIndex(of: 10).map { $0 + 1 } ?? 0
        let line = bytes[..<lineStart].reduce(1) { $0 + ($1 == 10 ? 1 : 0) }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        let column = bytes[lineStart..<at].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return TemplateSyntaxError(message: failure.message, line: line, column: column)
    }

    // MARK: - The main loop

    private mutating func parse(_ entered: State) throws(Failure) -> [Node] {
        var nodes: [Node] = []
        var state = entered
        var whitespaceBefore: [UInt8] = []
        while position < bytes.count {
            if state.newLine {
                let whitespace = readSpaces()
                if state.isPartialDefinition, !state.isPartialDefinitionTopLevel {
                    if let indent = state.partialDefinitionIndent {
                        whitespaceBefore = Array(whitespace.dropFirst(indent))
                    } else {
                        state.partialDefinitionIndent = whitespace.count
                    }
                } else {
                    whitespaceBefore = Array(whitespace)
                }
            }
            let (text, stop) = readText(state)
            if case .newline(let width) = stop {
                nodes.append(.text(whitespaceBefore + text + bytes[position..<(position + width)]))
                position += width
                state.newLine = true
                continue
            }
            if !text.isEmpty {
                nodes.append(.text(whitespaceBefore + text))
                whitespaceBefore = []
                state.newLine = false
            }
            guard case .tag = stop else { break }
            var setNewLine = false
            let kind = position < bytes.count ? bytes[position] : 0
            switch kind {
            case UInt8(ascii: "#"), UInt8(ascii: "^"):
                position += 1
                let name = try readName(state)
                if isStandalone(state) {
                    setNewLine = true
                } else if !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                    whitespaceBefore = []
                }
                let body = try parse(state.entering(section: name, newLine: setNewLine))
                nodes.append(kind == UInt8(ascii: "#") ? .section(Path(name), body) : .inverted(Path(name), body))

            case UInt8(ascii: "/"):
                position += 1
                let start = position
                let name = try readName(state)
                guard name == state.sectionName else {
                    position = start
                    if let open = state.sectionName {
                        throw Failure(message: "'\(name)' is closed here, but the open section is '\(open)'")
                    }
                    throw Failure(message: "'\(name)' is closed here but was never opened")
                }
                if !isStandalone(state), !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                }
                return nodes

            case UInt8(ascii: "!"):
                position += 1
                try skipComment(state)
                setNewLine = isStandalone(state)

            case UInt8(ascii: "{"), UInt8(ascii: "&"):
                if !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                    whitespaceBefore = []
                }
                position += 1
                let name = try readName(state, closing: kind != UInt8(ascii: "{"))
                if kind == UInt8(ascii: "{") {
                    // `{{{name}}}`, or `<%{name}%>` with other delimiters: `}` then the delimiter.
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "}") else {
                        throw Failure(message: "'{{{' is not closed with '}}}'")
                    }
                    position += 1
                    guard bytes[position...].starts(with: state.close) else {
                        position += zip(bytes[position...], state.close).prefix { $0 == $1 }.count
                        throw Failure(message: "'{{{' is not closed with '}}}'")
                    }
                    position += state.close.count
                }
                nodes.append(.variable(Path(name), escaped: false))

            case UInt8(ascii: ">"):
                position += 1
                let (name, dynamic) = try readPartialName(state, dynamicAllowed: true)
                if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                let standalone = isStandalone(state)
                if standalone { setNewLine = true }
                let indentation = standalone ? whitespaceBefore : []
                if dynamic {
                    nodes.append(.dynamicPartial(Path(name), indentation: indentation))
                } else {
                    nodes.append(.partial(name, indentation: indentation, overrides: nil))
                }
                whitespaceBefore = []

            case UInt8(ascii: "<"):
                position += 1
                let (name, _) = try readPartialName(state, dynamicAllowed: false)
                if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                if isStandalone(state) { setNewLine = true }
                let start = position
                let body = try parse(state.entering(parent: name))
                var overrides: [String: [Node]] = [:]
                for node in body {
                    switch node {
                    case .blockDefinition(let block, let content): overrides[block] = content
                    case .text: break
                    default:
                        position = start
                        throw Failure(message: "only {{$block}} tags may stand inside the parent '{{<\(name)}}'")
                    }
                }
                nodes.append(.partial(name, indentation: whitespaceBefore, overrides: overrides))
                whitespaceBefore = []

            case UInt8(ascii: "$"):
                position += 1
                let name = try readName(state)
                if state.isPartialDefinitionTopLevel {
                    if isStandalone(state) { setNewLine = true }
                    let body = try parse(state.entering(section: name, newLine: setNewLine))
                    nodes.append(.blockDefinition(name, body))
                } else {
                    if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                    let standalone = isStandalone(state)
                    if standalone { setNewLine = true }
                    let body = try parse(state.entering(section: name, newLine: setNewLine))
                    nodes.append(.block(name, body, indentation: whitespaceBefore, intrinsic: standalone ? Self.indentation(of: body) : nil))
                    whitespaceBefore = []
                }

            case UInt8(ascii: "="):
                position += 1
                state = try setDelimiters(state)
                setNewLine = isStandalone(state)

            case UInt8(ascii: "%"):
                throw Failure(message: "pragmas ({{% …}}) are not supported")

            default:
                if !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                    whitespaceBefore = []
                }
                let name = try readName(state)
                nodes.append(.variable(Path(name), escaped: true))
            }
            state.newLine = setNewLine
        }
        if let open = state.sectionName {
            throw Failure(message: "'\(open)' is opened but never closed (expected {{/\(open)}})")
        }
        return nodes
    }

    /// The spaces and tabs that start the first line of `nodes`, if any.
    static func indentation(of nodes: [Node]) -> [UInt8]? {
        guard case .text(let bytes)? = nodes.first else { return nil }
        let spaces = Array(bytes.prefix { $0 == 32 || $0 == 9 })
        return spaces.isEmpty || spaces.count == bytes.count ? nil : spaces
    }

    // MARK: - Reading

    private enum Stop {
        /// At a line break of `width` bytes (`\n` or `\r\n`), not yet read.
        case newline(width: Int)
        /// Just after an opening delimiter.
        case tag
        case end
    }

    private func newlineWidth(at index: Int) -> Int? {
        guard index < bytes.count else { return nil }
        if bytes[index] == 10 { return 1 }
        if bytes[index] == 13, index + 1 < bytes.count, bytes[index + 1] == 10 { return 2 }
        return nil
    }

    /// Reads text up to a line break, an opening delimiter (which it reads too) or the end.
    private mutating func readText(_ state: State) -> ([UInt8], Stop) {
        let start = position
        let open = state.open
        while position < bytes.count {
            if let width = newlineWidth(at: position) {
                return (Array(bytes[start..<position]), .newline(width: width))
            }
            if bytes[position] == open[0], matches(open, at: position) {
                let text = Array(bytes[start..<position])
                position += open.count
                return (text, .tag)
            }
            position += 1
        }
        return (Array(bytes[start..<position]), .end)
    }

    private func matches(_ delimiter: [UInt8], at index: Int) -> Bool {
        index + delimiter.count <= bytes.count && bytes[index..<(index + delimiter.count)].elementsEqual(delimiter)
    }

    private mutating func readSpaces() -> ArraySlice<UInt8> {
        let start = position
        while position < bytes.count, bytes[position] == 32 || bytes[position] == 9 { position += 1 }
        return bytes[start..<position]
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == 11 || byte == 12
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    private static func isNameByte(_ byte: UInt8, partial: Bool) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "?"), UInt8(ascii: "*"):
            return true
        case UInt8(ascii: "/"):
            return partial
        default:
            return false
        }
    }

    private mutating func readClose(_ state: State, _ what: String) throws(Failure) {
        guard matches(state.close, at: position) else {
            if position < bytes.count, bytes[position] == UInt8(ascii: "(") {
                throw Failure(message: "function calls in tags are not supported")
            }
            throw Failure(message: "\(what) is not closed with '\(String(decoding: state.close, as: UTF8.self))'")
        }
        position += state.close.count
    }

    /// A tag's name, between optional whitespace, then the closing delimiter.
    private mutating func readName(_ state: State, closing: Bool = true) throws(Failure) -> String {
        skipWhitespace()
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position], partial: false) { position += 1 }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        skipWhitespace()
        if closing { try readClose(state, "the tag") }
        return name
    }

    /// A partial's name; `{{>*name}}` names it by a value (dynamic names), read up to the
    /// closing delimiter and looked up like any dotted name.
    private mutating func readPartialName(_ state: State, dynamicAllowed: Bool) throws(Failure) -> (String, dynamic: Bool) {
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "*") {
            guard dynamicAllowed else { throw Failure(message: "dynamic parent names are not supported") }
            position += 1
            skipWhitespace()
            let start = position
            while position < bytes.count, bytes[position] > 32, !bytes[position...].starts(with: state.close) { position += 1 }
            let name = String(decoding: bytes[start..<position], as: UTF8.self)
            skipWhitespace()
            try readClose(state, "the partial tag")
            return (name, true)
        }
        let start = position
        while position < bytes.count, Self.isNameByte(bytes[position], partial: true) { position += 1 }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        skipWhitespace()
        try readClose(state, "the partial tag")
        return (name, false)
    }

    private mutating func skipComment(_ state: State) throws(Failure) {
        let start = position
        while position < bytes.count {
            if matches(state.close, at: position) {
                position += state.close.count
                return
            }
            position += 1
        }
        position = start
        throw Failure(message: "the comment is not closed with '\(String(decoding: state.close, as: UTF8.self))'")
    }

    /// `{{=<% %>=}}`: two delimiters without whitespace in them.
    private mutating func setDelimiters(_ state: State) throws(Failure) -> State {
        let failure = Failure(message: "a delimiter change is written like {{=<% %>=}}")
        skipWhitespace()
        let openStart = position
        while position < bytes.count, !Self.isWhitespace(bytes[position]) { position += 1 }
        guard position < bytes.count else { throw failure }
        let open = Array(bytes[openStart..<position])
        skipWhitespace()
        let closeStart = position
        while position < bytes.count, !Self.isWhitespace(bytes[position]), bytes[position] != UInt8(ascii: "=") { position += 1 }
        guard position < bytes.count else { throw failure }
        let close = Array(bytes[closeStart..<position])
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else { throw failure }
        position += 1
        guard matches(state.close, at: position) else { throw failure }
        position += state.close.count
        guard !open.isEmpty, !close.isEmpty else { throw failure }
        var next = state
        next.open = open
        next.close = close
        next.isPartialDefinitionTopLevel = false
        return next
    }

    /// A tag is standalone when it began a line (but for spaces) and only spaces follow it up
    /// to the line break, which is then read.
    private mutating func isStandalone(_ state: State) -> Bool {
        guard state.newLine else { return false }
        if position >= bytes.count { return true }
        var index = position
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 { index += 1 }
        guard let width = newlineWidth(at: index) else { return false }
        position = index + width
        return true
    }
}
