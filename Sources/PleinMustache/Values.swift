public import PleinText

/// What a template sees: named values of a few known kinds. Page renderers build these from the
/// typed model; this is the only place model values meet the template engine.
public struct TemplateContext: Sendable, ExpressibleByDictionaryLiteral {
    var storage: [String: TemplateValue] = [:]
    /// For an item of a list that a section iterates: the bytes the section rendered for it
    /// before, written in place of its body (`kept`); or the id under which the render tells
    /// the bytes it renders for it (`memo`, `TemplateLibrary.render(_:withTemplate:parts:)`).
    public var part: Part?

    /// An item's part of a section's output (see `part`).
    public indirect enum Part: Sendable {
        case kept(ArraySlice<UInt8>)
        case memo(String)
    }

    public init() {}

    /// An item of a list whose part of the section's output is `bytes`, as a render told them.
    public init(kept bytes: ArraySlice<UInt8>) {
        part = .kept(bytes)
    }

    public init(dictionaryLiteral elements: (String, TemplateValue?)...) {
        storage.reserveCapacity(elements.count)
        for (key, value) in elements { storage[key] = value }
    }

    public subscript(key: String) -> TemplateValue? {
        get { storage[key] }
        set { storage[key] = newValue }
    }
}

/// The kinds of values a template can hold.
///
/// Text is escaped by every tag, `{{{x}}}` and `{{&x}}` included: a template cannot write text
/// from content as markup, whatever it says. Only `.html`, markup that plein itself made
/// (rendered Markdown, inline SVG), is written as it is by `{{{x}}}` and `{{&x}}` (and escaped by
/// `{{x}}`).
///
/// In sections, `false`, null and empty lists are falsy; everything present is truthy, the
/// empty text and zero included (as in swift-mustache, which plein used before).
public enum TemplateValue: Sendable {
    case text(String)
    /// Markup produced by plein itself (rendered Markdown, inline SVG): already safe. Only
    /// PleinText's writers and PleinMarkdown make a `TrustedHTML`.
    case html(TrustedHTML)
    case flag(Bool)
    case number(Int)
    case decimal(Double)
    case object(TemplateContext)
    /// A list of objects, each the context of one pass through a section.
    case list([TemplateContext])
    /// A list of any values (`{{.}}` is each of them).
    case values([TemplateValue])
    /// A name that is there with no value: renders nothing, falsy, and hides the same name in
    /// outer contexts.
    case null

    /// Optional text: nil (so sections stay closed) when absent or empty.
    public static func text(_ value: String?) -> TemplateValue? {
        guard let value, !value.isEmpty else { return nil }
        return .text(value)
    }
}
