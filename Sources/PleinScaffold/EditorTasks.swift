extension Scaffold {
    /// `.vscode/tasks.json` for a new site. The YAML language server checks only `.yaml` files
    /// (it does not read front matter in Markdown), so plein itself marks the problems: "plein
    /// serve" runs in the background and its problem matcher reads each rebuild's diagnostics
    /// (`file:line:column: error|warning: message`) into the editor, for Markdown and YAML alike
    /// and with every check plein makes, not only the schemas'. A rebuild starts with `changed:`
    /// (or the line about lost file events) and ends with `built`/`rebuilt`, or with the summary
    /// that says the last good build is still served. `NO_COLOR` keeps colour codes out of the
    /// lines the matcher reads, since a task runs in a terminal.
    static let editorTasks = #"""
        {
          "version": "2.0.0",
          "tasks": [
            {
              "label": "plein serve",
              "detail": "Shows the site on http://localhost:1313 and marks the problems in every file each time you save",
              "type": "shell",
              "command": "plein serve",
              "options": { "env": { "NO_COLOR": "1" } },
              "isBackground": true,
              "runOptions": { "runOn": "folderOpen" },
              "group": "build",
              "problemMatcher": {
                \#(problems),
                "background": {
                  "activeOnStart": true,
                  "beginsPattern": "^(changed: |some file events were lost)",
                  "endsPattern": "^(built |rebuilt )|; (every page shows them until they are fixed|still serving the last good build)$"
                }
              }
            },
            {
              "label": "plein check",
              "detail": "Marks the problems in every file once",
              "type": "shell",
              "command": "plein check",
              "options": { "env": { "NO_COLOR": "1" } },
              "group": { "kind": "test", "isDefault": true },
              "problemMatcher": {
                \#(problems)
              }
            }
          ]
        }

        """#

    /// How a task's problem matcher reads plein's diagnostics (relative to the site's folder).
    private static let problems = #"""
        "owner": "plein",
                "source": "plein",
                "fileLocation": ["relative", "${workspaceFolder}"],
                "pattern": {
                  "regexp": "^(.+?):(\\d+):(\\d+): (error|warning): (.*)$",
                  "file": 1, "line": 2, "column": 3, "severity": 4, "message": 5
                }
        """#
}
