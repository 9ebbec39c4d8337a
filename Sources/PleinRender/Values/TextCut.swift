/// Short texts made from longer ones.
enum TextCut {
    /// Text cut at a word boundary near `limit` characters.
    static func summary(_ text: String, limit: Int) -> String {
        // Counting every character of a long text is slow; a text has at most as many
        // characters as bytes, and only the first `limit` are walked. Where the first `limit`
        // + 1 bytes are ASCII (and not a carriage return), each byte is a character.
        guard text.utf8.count > limit else { return text }
        let limitIndex: String.Index
        if text.utf8.prefix(limit + 1).allSatisfy({ $0 < 0x80 && $0 != 13 }) {
            limitIndex = text.utf8.index(text.startIndex, offsetBy: limit)
        } else {
            guard let index = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex), index < text.endIndex
            else { return text }
            limitIndex = index
        }
        let cut = text[..<limitIndex]
        let end = cut.lastIndex(of: " ") ?? cut.endIndex
        return String(cut[..<end]) + "…"
    }

    /// `Anna de Vries` → `AV`.
    /// The first and last of the words' first letters, of those that are capitals if any are
    /// (made for every member chip on every page: no array of letters, and an ASCII letter's case
    /// without Unicode's tables).
    static func initials(_ name: String) -> String {
        var capitals: (first: Character?, last: Character?) = (nil, nil)
        var any: (first: Character?, last: Character?) = (nil, nil)
        for word in name.split(separator: " ") {
            guard let letter = word.first else { continue }
            if any.first == nil { any.first = letter } else { any.last = letter }
            let capital = letter.asciiValue.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ?? letter.isUppercase
            if capital { if capitals.first == nil { capitals.first = letter } else { capitals.last = letter } }
        }
        let (first, last) = capitals.first != nil ? capitals : any
        return (first.map(String.init) ?? "") + (last.map(String.init) ?? "")
    }

    /// Percent-encodes a query value (RFC 3986 unreserved characters pass).
    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 15)])
            }
        }
        return out
    }
}
