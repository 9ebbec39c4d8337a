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

    /// The page slug of each file of an album. A video named like a photo beside it (an iPhone's
    /// Live Photo exports `IMG_0042.HEIC` and `IMG_0042.MOV`) gets `-video` after its name, so
    /// both have a page; other files with the same slug are the author's to rename.
    public static func slugs(_ files: [String]) -> [String: String] {
        let photos = Set(files.filter { !FileRole.isVideo(FileName.split($0).ext) }.map(slug))
        var slugs: [String: String] = [:]
        for file in files {
            let plain = slug(file)
            slugs[file] = FileRole.isVideo(FileName.split(file).ext) && photos.contains(plain) ? plain + "-video" : plain
        }
        return slugs
    }
}
