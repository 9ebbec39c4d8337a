import Foundation
import PleinCore

extension CheckRun {
    /// A link or image in Markdown whose address has a space (`![The lamp](lamp post.jpg)`):
    /// Markdown then shows it as text, as written. Found line by line, outside code blocks.
    struct SpacedLink: Equatable {
        let written: String
        let address: String
        /// The title written after it, with the space before it ("" when none).
        let title: String
        let image: Bool
        let line: Int
        let column: Int
    }

    static func spacedLinks(in body: Body) -> [SpacedLink] {
        var found: [SpacedLink] = []
        var fence: [UInt8]?
        var markdown = body.markdown
        markdown.withUTF8 { bytes in
            // Line by line as bytes (every text of the community passes here on each check): only a
            // line with `](` becomes characters.
            var start = 0, offset = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                defer { start = end + 1; offset += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                var first = 0
                while first < line.count, line[first] == 0x20 { first += 1 }
                let trimmed = line[first...]
                if let open = fence {
                    if trimmed.starts(with: open) { fence = nil }
                    continue
                }
                if trimmed.starts(with: Array("```".utf8)) || trimmed.starts(with: Array("~~~".utf8)) {
                    fence = Array(trimmed.prefix(3))
                    continue
                }
                guard Self.hasLinkOpening(line) else { continue }
                found += Self.spacedLinks(inLine: String(decoding: line, as: UTF8.self), line: body.line + offset)
            }
        }
        return found
    }

    /// Whether a line has `](`.
    private static func hasLinkOpening(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.count >= 2 else { return false }
        for index in 0..<(line.count - 1) where line[index] == 0x5D && line[index + 1] == 0x28 { return true }
        return false
    }

    private static func spacedLinks(inLine text: String, line: Int) -> [SpacedLink] {
        var found: [SpacedLink] = []
        let characters = Array(text)
        let closing = Self.closingBrackets(characters)
        var index = 0
        while index < characters.count {
            guard characters[index] == "[", let close = closing[index],
                  close + 1 < characters.count, characters[close + 1] == "(",
                  let end = characters[(close + 2)...].firstIndex(where: { $0 == ")" || $0 == "(" || $0 == "<" }), characters[end] == ")"
            else {
                index += 1
                continue
            }
            var address = String(characters[(close + 2)..<end]).trimmingCharacters(in: .whitespaces)
            // A title after the address ("…" or '…') is Markdown as it should be: set it aside.
            var title = ""
            if let last = address.last, last == "\"" || last == "'",
               let open = address.dropLast().lastIndex(of: last), open > address.startIndex,
               address[address.index(before: open)] == " " {
                title = String(address[address.index(before: open)...])
                address = String(address[..<address.index(before: open)]).trimmingCharacters(in: .whitespaces)
            }
            if address.contains(where: { $0 == " " || $0 == "\t" }) {
                let image = index > 0 && characters[index - 1] == "!"
                let start = image ? index - 1 : index
                found.append(SpacedLink(written: String(characters[start...end]), address: address, title: title, image: image,
                                        line: line, column: start + 1))
            }
            index = end + 1
        }
        return found
    }

    /// For each `[` of a line, the `]` that closes it (brackets may nest), found in one pass: a
    /// line of many unclosed brackets costs what its length does.
    private static func closingBrackets(_ characters: [Character]) -> [Int: Int] {
        var closing: [Int: Int] = [:]
        var open: [Int] = []
        for (index, character) in characters.enumerated() {
            if character == "[" {
                open.append(index)
            } else if character == "]", let opened = open.popLast() {
                closing[opened] = index
            }
        }
        return closing
    }
}
