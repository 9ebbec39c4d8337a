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
                found += Self.spacedLinks(inLine: line, line: body.line + offset)
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

    /// The links of one line whose address has a space. The line is looked at as bytes (every
    /// line with a link passes here: a paragraph of a long text is one line): the marks are ASCII,
    /// which UTF-8 never holds inside another character; only a link whose address holds a space
    /// or a tab becomes text.
    private static func spacedLinks(inLine bytes: UnsafeBufferPointer<UInt8>, line: Int) -> [SpacedLink] {
        var found: [SpacedLink] = []
        let closing = Self.closingBrackets(bytes)
        var index = 0
        while index < bytes.count {
            let close = bytes[index] == 0x5B ? closing[index] : -1
            guard close >= 0, close + 1 < bytes.count, bytes[close + 1] == 0x28,
                  let end = (close + 2..<bytes.count).first(where: { bytes[$0] == 0x29 || bytes[$0] == 0x28 || bytes[$0] == 0x3C }),
                  bytes[end] == 0x29
            else {
                index += 1
                continue
            }
            defer { index = end + 1 }
            guard bytes[(close + 2)..<end].contains(where: { $0 == 0x20 || $0 == 0x09 }) else { continue }
            var address = String(decoding: UnsafeBufferPointer(rebasing: bytes[(close + 2)..<end]), as: UTF8.self).trimmingCharacters(in: .whitespaces)
            // A title after the address ("…" or '…') is Markdown as it should be: set it aside.
            var title = ""
            if let last = address.last, last == "\"" || last == "'",
               let open = address.dropLast().lastIndex(of: last), open > address.startIndex,
               address[address.index(before: open)] == " " {
                title = String(address[address.index(before: open)...])
                address = String(address[..<address.index(before: open)]).trimmingCharacters(in: .whitespaces)
            }
            if address.contains(where: { $0 == " " || $0 == "\t" }) {
                let image = index > 0 && bytes[index - 1] == 0x21
                let start = image ? index - 1 : index
                let before = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<start]), as: UTF8.self)
                found.append(SpacedLink(written: String(decoding: UnsafeBufferPointer(rebasing: bytes[start...end]), as: UTF8.self), address: address,
                                        title: title, image: image, line: line, column: before.count + 1))
            }
        }
        return found
    }

    /// For each `[` of a line, the index of the `]` that closes it (brackets may nest; -1 where
    /// none does), found in one pass: a line of many unclosed brackets costs what its length does.
    private static func closingBrackets(_ bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var closing = [Int](repeating: -1, count: bytes.count)
        var open: [Int] = []
        for index in bytes.indices {
            if bytes[index] == 0x5B {
                open.append(index)
            } else if bytes[index] == 0x5D, let opened = open.popLast() {
                closing[opened] = index
            }
        }
        return closing
    }
}
