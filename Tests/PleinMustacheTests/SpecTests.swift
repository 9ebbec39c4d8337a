import Foundation
import PleinMustache
@_spi(TrustedMarkup) import PleinText
import Testing

/// The official Mustache specification (`Spec/`, MIT): every test of the core modules and of
/// the optional inheritance and dynamic-names modules. Lambdas (`~lambdas.json`) are code in
/// other languages and are not copied: plein's templates call no code.
///
/// The spec's data is JSON, where a string is simply a value; it is given to the engine as
/// `.html`, the kind of value that `{{{x}}}` and `{{&x}}` may write as it is. Text from content
/// is `.text` in plein and is escaped by every tag (see `EscapingTests`).
///
/// Skipped, with the reason:
private let skipped: [String: String] = [:]

private let specFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Spec")

struct SpecCase: CustomTestStringConvertible, Sendable {
    let file: String
    let name: String
    let template: String
    let data: TemplateValue
    let partials: [String: String]
    let expected: String

    var testDescription: String { "\(file): \(name)" }
}

/// JSON as the spec writes it, decoded kind by kind.
private enum JSONValue: Decodable {
    case object([String: JSONValue]), array([JSONValue]), string(String), bool(Bool), int(Int), double(Double), null

    init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() { self = .null; return }
        if let bool = try? single.decode(Bool.self) { self = .bool(bool); return }
        if let int = try? single.decode(Int.self) { self = .int(int); return }
        if let double = try? single.decode(Double.self) { self = .double(double); return }
        if let string = try? single.decode(String.self) { self = .string(string); return }
        if let array = try? single.decode([JSONValue].self) { self = .array(array); return }
        self = .object(try single.decode([String: JSONValue].self))
    }

    var template: TemplateValue {
        switch self {
        case .object(let fields):
            var context = TemplateContext()
            for (key, item) in fields { context[key] = item.template }
            return .object(context)
        case .array(let items): return .values(items.map(\.template))
        case .string(let string): return .html(TrustedHTML(madeByPlein: string))
        case .bool(let bool): return .flag(bool)
        case .int(let int): return .number(int)
        case .double(let double): return .decimal(double)
        case .null: return .null
        }
    }
}

private struct SpecFile: Decodable {
    struct Test: Decodable {
        let name: String
        let template: String
        let data: JSONValue
        let partials: [String: String]?
        let expected: String
    }

    let tests: [Test]
}

func specCases() throws -> [SpecCase] {
    let files = try FileManager.default.contentsOfDirectory(atPath: specFolder.path).filter { $0.hasSuffix(".json") }.sorted()
    return try files.flatMap { file -> [SpecCase] in
        let spec = try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: specFolder.appendingPathComponent(file)))
        return spec.tests.map { test in
            SpecCase(file: file, name: test.name, template: test.template, data: test.data.template, partials: test.partials ?? [:],
                     expected: test.expected)
        }
    }
}

@Suite struct SpecTests {
    @Test func theSpecIsHere() throws {
        let all = try specCases()
        #expect(all.count >= 180, "the spec's JSON files are missing from Tests/PleinMustacheTests/Spec")
        for name in skipped.keys { #expect(all.contains { $0.name == name }, "skipped test \(name) is not in the spec") }
    }

    @Test(arguments: try specCases())
    func specCase(_ test: SpecCase) throws {
        if let reason = skipped[test.name] {
            withKnownIssue(Comment(rawValue: reason)) { Issue.record("skipped") }
            return
        }
        var library = TemplateLibrary()
        library.register(try Template(test.template), named: "spec-main")
        for (name, text) in test.partials { library.register(try Template(text), named: name) }
        let output = String(decoding: library.render(value: test.data, withTemplate: "spec-main") ?? [], as: UTF8.self)
        #expect(output == test.expected, "\(test.file): \(test.name)\ntemplate: \(test.template.debugDescription)")
    }
}
