import PleinMarkdown
import Foundation
public import Mustache

/// What a template sees: named values of a few known kinds. Page renderers build these from the
/// typed model; this is the only place model values meet the template engine.
public struct TemplateContext: MustacheParent, Sendable, ExpressibleByDictionaryLiteral {
    private var storage: [String: TemplateValue] = [:]

    public init() {}

    public init(dictionaryLiteral elements: (String, TemplateValue?)...) {
        for (key, value) in elements { storage[key] = value }
    }

    public subscript(key: String) -> TemplateValue? {
        get { storage[key] }
        set { storage[key] = newValue }
    }

    public func child(named name: String) -> Any? {
        storage[name]?.templateObject
    }
}

/// The kinds of values a template can hold. `{{x}}` escapes text; only `.html` values are meant
/// for `{{{x}}}`.
public enum TemplateValue: Sendable {
    case text(String)
    /// Markup produced by plein itself (rendered Markdown, inline SVG): already safe.
    case html(String)
    case flag(Bool)
    case number(Int)
    case object(TemplateContext)
    case list([TemplateContext])

    /// Optional text: nil (so sections stay closed) when absent or empty.
    public static func text(_ value: String?) -> TemplateValue? {
        guard let value, !value.isEmpty else { return nil }
        return .text(value)
    }

    var templateObject: Any {
        switch self {
        case .text(let s), .html(let s): return s
        case .flag(let b): return b
        case .number(let n): return n
        case .object(let c): return c
        // An empty list must be falsy for `{{#list}}` and truthy for `{{^list}}`: arrays are.
        case .list(let items): return items
        }
    }
}
