import Foundation

extension Scaffold {
    /// The addresses GitHub gives files attached to an issue.
    enum Attachment {
        /// `given` rebuilt from its parts when it is one of GitHub's attachment addresses, with no
        /// dot segment, escape, credentials, port or fragment; nil otherwise. The issue workflow
        /// sends its token with the download, so the address must be the one it appears to be
        /// (`assets/../../<elsewhere>` would take the token anywhere on github.com).
        static func normalised(_ given: String) -> String? {
            guard given.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value < 127 }), !given.contains("%"), !given.contains("\\"),
                  let parts = URLComponents(string: given), parts.scheme?.lowercased() == "https",
                  parts.user == nil, parts.password == nil, parts.port == nil, parts.fragment == nil,
                  let host = parts.host?.lowercased(), parts.path.hasPrefix("/") else { return nil }
            let path = parts.path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            let plain: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
            guard path.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.allSatisfy(plain) }) else { return nil }
            switch host {
            case "github.com":
                guard parts.query == nil, path.first == "user-attachments",
                      (path.count == 3 && path[1] == "assets") || (path.count == 4 && path[1] == "files") else { return nil }
            case "user-images.githubusercontent.com":
                guard parts.query == nil, path.count >= 2 else { return nil }
            case "private-user-images.githubusercontent.com":
                // A signed address: the signature is its query.
                guard path.count >= 2, (parts.query ?? "").allSatisfy({ plain($0) || "=&".contains($0) }) else { return nil }
            default:
                return nil
            }
            return "https://\(host)/" + path.joined(separator: "/") + (parts.query.map { "?" + $0 } ?? "")
        }
    }
}
