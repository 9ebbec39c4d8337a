import Foundation
import PleinCore
import PleinRender

/// Leaflet for interactive maps, from Debian's libjs-leaflet (not vendored into the project).
/// Published under a folder named by its hash, so it can be cached forever.
struct Leaflet {
    static let defaultFolder = "/usr/share/javascript/leaflet"

    let assets: LeafletAssets
    let files: [OutputFile]

    init?(folder: String) {
        let fm = FileManager.default
        let script = fm.contents(atPath: folder + "/leaflet.min.js") ?? fm.contents(atPath: folder + "/leaflet.js")
        guard let script, let css = fm.contents(atPath: folder + "/leaflet.css") else { return nil }
        let base = Routes.leaflet(hash: String(Hashing.sha256Hex(Array(script) + Array(css)).prefix(10)))
        var files = [
            OutputFile(path: base + "leaflet.js", bytes: Array(script)),
            OutputFile(path: base + "leaflet.css", bytes: Array(css)),
        ]
        for name in ((try? fm.contentsOfDirectory(atPath: folder + "/images")) ?? []).sorted() where name.hasSuffix(".png") {
            if let bytes = fm.contents(atPath: folder + "/images/" + name) {
                files.append(OutputFile(path: base + "images/" + name, bytes: Array(bytes)))
            }
        }
        assets = LeafletAssets(script: base + "leaflet.js", stylesheet: base + "leaflet.css")
        self.files = files
    }
}
