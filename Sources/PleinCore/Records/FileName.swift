/// A file name's stem and extension: `IMG_2034.JPG` → (`IMG_2034`, `JPG`); a leading dot is
/// part of the stem.
public enum FileName {
    public static func split(_ name: String) -> (stem: String, ext: String) {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return (name, "") }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}

/// Photo pages are named after their file: `IMG_2034.JPG` → `img-2034`.
public enum PhotoName {
    public static func slug(_ file: String) -> String {
        let stem = FileName.split(file).stem
        let slug = Slug.make(stem)
        return slug.isEmpty ? "photo" : slug
    }
}
