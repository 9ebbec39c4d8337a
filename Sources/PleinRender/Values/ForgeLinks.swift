import PleinCore

/// Links to the content repository's forge (GitHub, GitLab): edit a page's file, or open a new
/// file prefilled in the right folder.
struct ForgeLinks: Rendering {
    let inputs: RenderInputs

    /// The forge's edit page for a content file.
    func edit(_ file: String) -> String? {
        guard let repository = site.repository else { return nil }
        let path = "content/" + file
        let branch = site.repositoryBranch
        if repository.contains("gitlab") { return "\(repository)/-/edit/\(branch)/\(path)" }
        return "\(repository)/edit/\(branch)/\(path)"
    }

    /// The forge's new-file page with a name and text filled in.
    func newFile(folder: String, name: String, text: String) -> String? {
        guard let repository = site.repository else { return nil }
        let path = "content/" + folder
        let branch = site.repositoryBranch
        if repository.contains("gitlab") {
            return "\(repository)/-/new/\(branch)/\(path)?file_name=\(TextCut.percentEncode(name))&content=\(TextCut.percentEncode(text))"
        }
        return "\(repository)/new/\(branch)/\(path)?filename=\(TextCut.percentEncode(name))&value=\(TextCut.percentEncode(text))"
    }

    /// The text of a new report or reply: placeholders in the site's language, and the UTC offset
    /// of the site's zone at `moment` (the newest content there, so the link does not depend on
    /// when the site was built).
    func prefill(report: Bool, around moment: Moment?) -> String {
        let offset = SiteClock.offsetText(site.clock.offset(at: moment?.seconds ?? 0))
        let at = strings["prefill_time"] + (offset == "Z" ? "+00:00" : offset)
        let author = strings["thread_your_id"]
        if report {
            return "---\ntitle: \ncategory: message\nat: \(at)\nauthor: \(author)\nlocation: {lat: , lon: }\n---\n\n"
        }
        return "---\nauthor: \(author)\nat: \(at)\n---\n\n"
    }
}
