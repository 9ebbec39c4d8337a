import Foundation
import PleinCore
import Testing

/// docs/content.md is written for people, by hand; these tests keep it from drifting away from
/// the field definitions the checker uses.
@Suite struct DocumentationTests {
    static let doc = (try? String(contentsOfFile: Repo.root + "/docs/content.md", encoding: .utf8)) ?? ""

    /// Every field, nested ones with their parent's name (`privacy.location_precision_km`).
    static func names(_ type: FieldType, prefix: String = "") -> [String] {
        switch type {
        case .object(let fields):
            return fields.flatMap { field -> [String] in
                let name = prefix.isEmpty ? field.name : prefix + "." + field.name
                if case .object = field.type, prefix.isEmpty, ["privacy", "feeds", "map", "images", "app", "websub"].contains(field.name) {
                    return names(field.type, prefix: field.name)
                }
                return [name]
            }
        case .list(let element):
            return names(element, prefix: prefix)
        default:
            return []
        }
    }

    @Test(arguments: Schemas.all.map(\.kind))
    func everyFieldIsDocumented(_ kind: String) {
        let schema = Schemas.all.first { $0.kind == kind }!
        for name in Self.names(schema.root) {
            #expect(Self.doc.contains("`\(name)`"), "docs/content.md does not describe \(kind).\(name)")
        }
    }

    @Test func everyCategoryIsDocumented() {
        for category in Schemas.categories { #expect(Self.doc.contains("`\(category)`")) }
    }

    @Test func theReadmeShowsTheTwoCommands() throws {
        let readme = try String(contentsOfFile: Repo.root + "/README.md", encoding: .utf8)
        #expect(readme.contains("make site"))
        #expect(readme.contains("make test"))
        #expect(readme.contains("docs/content.md"))
    }
}
