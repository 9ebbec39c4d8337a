"""What VS Code does with the `.vscode/tasks.json` that `plein new site` writes, done here by hand.

The task "plein serve" runs in a terminal (here a pseudo-terminal, as VS Code's is) with the task's
environment; its problem matcher reads the output: a background cycle starts at `beginsPattern`,
ends at `endsPattern`, and each line between that matches `pattern.regexp` is a problem at a file,
line and column. The checks: the first build's problems and each rebuild's are found, in Markdown
front matter too, at the right place, and a fixed file's problem goes away in the next cycle.
"""
import json, os, pty, re, select, socket, subprocess, time


def matcher_regex(pattern):
    # VS Code's patterns are JavaScript regular expressions; these use only what Python's share.
    return re.compile(pattern)


class Terminal:
    """A command in a pseudo-terminal, its output read line by line as it comes."""

    def __init__(self, command, cwd, env):
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(command, shell=True, cwd=cwd, env=env, stdin=slave, stdout=slave, stderr=slave,
                                        start_new_session=True)
        os.close(slave)
        self.buffer = ""
        self.lines = []
        self.read = 0  # lines[:read] are taken

    def read_until(self, regex, timeout=180):
        """The lines up to and including the first that matches `regex`, or None after `timeout`."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            for i in range(self.read, len(self.lines)):
                if regex.search(self.lines[i]):
                    taken, self.read = self.lines[self.read:i + 1], i + 1
                    return taken
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536).decode("utf-8", errors="replace")
                except OSError:
                    chunk = ""
                if not chunk and self.process.poll() is not None:
                    # The command ended and said all it had to say (a pseudo-terminal then reads as ended).
                    self.lines += [self.buffer] if self.buffer else []
                    self.buffer = ""
                    return None
                self.buffer += chunk.replace("\r\n", "\n")
                *complete, self.buffer = self.buffer.split("\n")
                self.lines += complete
            elif self.process.poll() is not None:
                return None
        return None

    def stop(self):
        try:
            os.killpg(self.process.pid, 15)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)
        os.close(self.master)


def problems(lines, matcher, site):
    pattern = matcher["pattern"]
    regex = matcher_regex(pattern["regexp"])
    found = []
    for line in lines:
        m = regex.match(line)
        if m:
            path = os.path.join(site, m.group(pattern["file"]))  # fileLocation: relative to the workspace folder
            found.append((os.path.relpath(path, site), int(m.group(pattern["line"])), int(m.group(pattern["column"])),
                          m.group(pattern["severity"]), m.group(pattern["message"]), os.path.exists(path)))
    return found


def check_tasks(plein_folder, site, check):
    """`site` is a new site from `plein new site`; `plein_folder` holds the plein to run as `plein`."""
    with open(os.path.join(site, ".vscode/tasks.json")) as f:
        tasks = {task["label"]: task for task in json.load(f)["tasks"]}
    check(set(tasks) == {"plein serve", "plein check"} and tasks["plein serve"]["isBackground"]
          and tasks["plein serve"]["runOptions"]["runOn"] == "folderOpen",
          "a new site's VS Code tasks: plein serve in the background from the start, and plein check")
    # The environment VS Code gives a task: the user's, without the test suite's NO_COLOR, and the task's own.
    env = {name: value for name, value in os.environ.items() if name != "NO_COLOR"}
    env["PATH"] = plein_folder + os.pathsep + env["PATH"]
    env.update(tasks["plein check"]["options"]["env"])

    member = os.path.join(site, "content/users/tasks-test.md")
    with open(member, "w") as f:
        f.write("---\nname: Task Test\nemail: task@example.org\njoined: last tuesday\n---\nHello.\n")
    result = subprocess.run(tasks["plein check"]["command"], shell=True, cwd=site, env=env, capture_output=True, text=True, timeout=120)
    found = problems((result.stdout + result.stderr).splitlines(), tasks["plein check"]["problemMatcher"], site)
    check(("content/users/tasks-test.md", 4, 9, "error") in [p[:4] for p in found] and all(p[5] for p in found),
          f"the plein check task marks a bad date in a member's front matter at its line and column: {found}")

    serve = tasks["plein serve"]
    matcher = serve["problemMatcher"]
    begins, ends = matcher_regex(matcher["background"]["beginsPattern"]), matcher_regex(matcher["background"]["endsPattern"])
    # A port no one listens on now (a fixed guess may be taken by another process of the machine).
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = str(probe.getsockname()[1])
    terminal = Terminal(serve["command"] + " --port " + port, site, dict(env, **serve["options"]["env"]))
    try:
        first = terminal.read_until(ends)
        found = problems(first or [], matcher, site)
        check(first is not None and [p[:4] for p in found] == [("content/users/tasks-test.md", 4, 9, "error")],
              f"the first build's problems are marked, and only they: {found} {(first or [])[-3:]} {terminal.lines[-5:]} exit {terminal.process.poll()}")
        # Fix the date, break a field name: the next cycle has the new problem and not the old.
        time.sleep(1.1)
        with open(member, "w") as f:
            f.write("---\nname: Task Test\nemail: task@example.org\njoined: 2026-11-01\nfriend: nobody\n---\nHello.\n")
        began = terminal.read_until(begins, timeout=60)
        cycle = terminal.read_until(ends, timeout=60)
        found = problems(cycle or [], matcher, site)
        check(began is not None and cycle is not None and [p[:4] for p in found] == [("content/users/tasks-test.md", 5, 1, "error")]
              and "unknown field 'friend'" in found[0][4],
              f"saving starts a new cycle with the file's new problem only: {found} {(cycle or [])[-3:]}")
        os.remove(member)
        began = terminal.read_until(begins, timeout=60)
        cycle = terminal.read_until(ends, timeout=60)
        check(began is not None and cycle is not None and not problems(cycle, matcher, site) and cycle[-1].startswith("rebuilt "),
              f"with the file gone the problems are gone: {(cycle or [])[-3:]}")
    finally:
        terminal.stop()
