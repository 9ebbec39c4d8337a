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
        var fence: Substring?
        for (offset, text) in body.markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = text.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = trimmed.prefix(3)
                continue
            }
            guard text.contains("](") else { continue }
            let characters = Array(text)
            var index = 0
            while index < characters.count {
                guard characters[index] == "[", let close = Self.closing(characters, from: index),
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
                                            line: body.line + offset, column: start + 1))
                }
                index = end + 1
            }
        }
        return found
    }

    /// The `]` that closes the `[` at `open`, on the same line (brackets may nest).
    private static func closing(_ characters: [Character], from open: Int) -> Int? {
        var depth = 0
        for index in open..<characters.count {
            switch characters[index] {
            case "[": depth += 1
            case "]":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }
}
