import Foundation
import PackagePlugin

/// Embeds the default theme (`templates/` at the package root) into the `PleinTheme` target,
/// so that the `plein` binary carries it: installed alone, it can build a site that has no
/// `templates/` folder of its own.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        // The theme, and the documentation `plein help <topic>` prints.
        try [("templates", "BuiltInTheme+Files.swift", "encoded"), ("docs", "BuiltInTheme+Docs.swift", "encodedDocs")].map { folder, file, name in
            let source = context.package.directoryURL.appending(path: folder)
            let output = context.pluginWorkDirectoryURL.appending(path: file)
            var inputs: [URL] = []
            if let walker = FileManager.default.enumerator(at: source, includingPropertiesForKeys: [.isRegularFileKey]) {
                for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
                    inputs.append(url)
                }
            }
            return .buildCommand(
                displayName: "Embedding \(folder)/",
                executable: try context.tool(named: "plein-embed-theme").url,
                arguments: [source.path, output.path, name],
                inputFiles: inputs.sorted { $0.path < $1.path },
                outputFiles: [output]
            )
        }
    }
}
