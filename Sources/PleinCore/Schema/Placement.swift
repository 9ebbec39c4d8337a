/// Fields that say where a file belongs: `area` in a report, `area` and `report` in a reply,
/// `group` in an album, a goal or an event. plein takes a record's place from its folder; these
/// fields are what a git-based CMS needs to put a new file in the right folder (it builds the path
/// from the entry's fields), so they may be written, and when they are they must agree with it.
public enum Placement {
    /// The field's sentence for documentation and editors.
    static func summary(_ field: String) -> String {
        "The \(field) the file is in, as its folder is named (optional; the CMS writes it to place a new file). It must agree with the folder."
    }

    /// The problems of the placement fields of a record whose folders name `expected`
    /// (field → the folder's name), with `folder` the folder shown in the message.
    public static func problems(_ o: ObjectValue, expected: KeyValuePairs<String, String>, folder: String, in file: String) -> [Diagnostic] {
        expected.compactMap { field, value in
            guard let given = o.string(field), given != value, let span = o.span(field) else { return nil }
            return Diagnostic(.misplaced(field: field, value: given, folder: folder), in: file, at: span)
        }
    }
}
