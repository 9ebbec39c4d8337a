"""Runs a job of a GitHub workflow as GitHub would, without GitHub: each `run:` step with bash -e
(GitHub's default shell) and the environment the workflow, the job and the step set; each `uses:`
step replaced by its effect (checkout: a clone of the site's repository; upload and download of
artifacts: copies kept by name; configure-pages: its base_url; cache: what the same workflow's
earlier jobs saved under the key, or a key that starts with a restore key, else nothing). A step's
outputs are read from `$GITHUB_OUTPUT` (`name=value` and `name<<DELIMITER` lines), a job's from its
`outputs:` (`job_outputs`).

A job with a `container:` runs in a Debian root given as `root` (chroot), with the workspace at
GitHub's path inside it; other jobs run on this machine. Expressions `${{ … }}` are evaluated for
the contexts the workflows use (github, env, secrets, steps, runner, needs)."""
import os, re, shutil, subprocess

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class StepFailed(Exception):
    def __init__(self, job, step, output):
        super().__init__(f"{job}: step '{step}' failed:\n{output[-3000:]}")
        self.step, self.output = step, output


class Workflow:
    def __init__(self, path, *, repository, event, secrets=None, token="ghs_test-token", tools=None, pages_url="https://example.github.io/site"):
        import yaml
        with open(path, encoding="utf-8") as f:
            self.doc = yaml.safe_load(f)
        self.repository = repository      # the site's git repository (a folder), what checkout clones
        self.event = event                # the event's JSON file
        self.secrets = secrets or {}
        self.token = token
        self.tools = tools                # a folder of stand-ins put first on PATH (jobs on this machine)
        self.pages_url = pages_url
        self.artifacts = {}               # name -> folder
        self.uploaded_pages = None        # the folder upload-pages-artifact was given
        self.ran = []                     # (job, step name) of every step run
        self.caches = {}                  # key -> folder of the files saved under it
        self.job_outputs = {}             # job -> its outputs, as its `outputs:` says

    def step_name(self, step):
        return step.get("name") or step.get("uses") or step.get("run", "").split("\n")[0][:40]

    def evaluate(self, text, context):
        def value(match):
            expression = match.group(1)
            for alternative in expression.split("||"):
                found = self.lookup(alternative.strip(), context)
                if found not in (None, "", False):
                    return str(found)
            return ""
        return EXPRESSION.sub(value, str(text))

    def lookup(self, path, context):
        if path.startswith("'") and path.endswith("'"):
            return path[1:-1]
        node = context
        for part in path.split("."):
            if isinstance(node, dict) and part in node:
                node = node[part]
            else:
                return None
        return node

    def run_job(self, name, *, root=None, work, needs=None):
        """Runs the job's steps; returns the job's step outputs. `work` is a fresh folder for this
        job's runner (its workspace and temp); with a container, the job runs in `root`."""
        job = self.doc["jobs"][name]
        inside = "container" in job
        if inside and root is None:
            raise ValueError(f"job {name} runs in a container: give a Debian root")
        base = root if inside else work
        workspace_in = "/__w/site/site" if inside else os.path.join(work, "workspace")
        temp_in = "/__w/_temp" if inside else os.path.join(work, "temp")
        home_in = "/github/home" if inside else os.path.join(work, "home")
        event_in = "/github/workflow/event.json" if inside else os.path.join(work, "event.json")
        host = (lambda p: root + p) if inside else (lambda p: p)
        for folder in (workspace_in, temp_in, home_in):
            if inside and folder == workspace_in and os.path.exists(host(folder)):
                shutil.rmtree(host(folder))
            os.makedirs(host(folder), exist_ok=True)
        os.makedirs(os.path.dirname(host(event_in)), exist_ok=True)
        shutil.copy(self.event, host(event_in))
        import json
        with open(self.event, encoding="utf-8") as f:
            event = json.load(f)
        context = {
            "github": {"token": self.token, "repository": "club/site", "sha": "0" * 40, "ref": "refs/heads/main", "ref_name": "main",
                       "event": event, "event_name": "issues" if "issue" in event else "push", "actor": "maintainer"},
            "secrets": self.secrets, "steps": {}, "needs": needs or {},
            "runner": {"temp": temp_in, "os": "Linux"}, "env": {},
        }
        env = {"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workspace_in, "RUNNER_TEMP": temp_in, "HOME": home_in,
               "GITHUB_EVENT_PATH": event_in, "GITHUB_REPOSITORY": "club/site", "GITHUB_SHA": "0" * 40, "LANG": "C.UTF-8"}
        for level in (self.doc.get("env") or {}, job.get("env") or {}):
            for key, text in level.items():
                env[key] = self.evaluate(text, dict(context, env=env))
        context["env"] = env
        failed = None
        self.saving = []                  # (paths, key, workspace) of the job's caches, saved at its end
        for index, step in enumerate(job["steps"]):
            condition = str(step.get("if", "success()"))
            if ("failure()" in condition) != (failed is not None):
                continue
            label = self.step_name(step)
            self.ran.append((name, label))
            step_env = dict(env)
            for key, text in (step.get("env") or {}).items():
                step_env[key] = self.evaluate(text, context)
            output_in = os.path.join(temp_in, f"output-{index}")
            step_env["GITHUB_OUTPUT"] = output_in
            try:
                if "uses" in step:
                    outputs = self.use(step, context, host=host, workspace=host(workspace_in))
                else:
                    self.shell(self.evaluate(step["run"], context), step_env, root=root if inside else None, cwd=workspace_in, name=name, label=label)
                    outputs = self.read_outputs(host(output_in))
            except StepFailed as error:
                if not step.get("continue-on-error"):
                    failed = failed or error
                continue
            if "id" in step:
                context["steps"][step["id"]] = {"outputs": outputs}
        if failed:
            raise failed
        for paths, key, workspace in self.saving:
            self.save_cache(paths, key, workspace)
        self.job_outputs[name] = {k: self.evaluate(v, context) for k, v in (job.get("outputs") or {}).items()}
        return context["steps"]

    @staticmethod
    def read_outputs(path):
        """A step's outputs, as it wrote them to `$GITHUB_OUTPUT`."""
        outputs = {}
        if not os.path.exists(path):
            return outputs
        lines = open(path, encoding="utf-8").read().split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
                key, delimiter = line.split("<<", 1)
                end = lines.index(delimiter, i + 1)
                outputs[key] = "\n".join(lines[i + 1:end])
                i = end
            elif "=" in line:
                key, value = line.split("=", 1)
                outputs[key] = value
            i += 1
        return outputs

    def save_cache(self, paths, key, workspace):
        import glob
        kept = os.path.join(os.path.dirname(self.repository), "caches", re.sub(r"[^A-Za-z0-9._-]", "_", key))
        shutil.rmtree(kept, ignore_errors=True)
        os.makedirs(kept)
        for pattern in filter(None, (p.strip() for p in paths.split("\n"))):
            for found in glob.glob(os.path.join(workspace, pattern), recursive=True):
                target = os.path.join(kept, os.path.relpath(found, workspace))
                if os.path.isdir(found):
                    shutil.copytree(found, target, dirs_exist_ok=True, symlinks=True)
                else:
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    shutil.copy2(found, target)
        self.caches[key] = kept

    def shell(self, script, env, *, root, cwd, name, label):
        if root is None:
            env = dict(env, PATH=(self.tools + os.pathsep if self.tools else "") + os.environ["PATH"])
            command = ["bash", "-e", "-c", script]
            proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=1200)
        else:
            env = dict(env, PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
            command = ["chroot", root, "/usr/bin/env", "-i", *[f"{k}={v}" for k, v in env.items()],
                       "bash", "-e", "-c", f"cd {cwd}\n{script}"]
            proc = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        if proc.returncode != 0:
            raise StepFailed(name, label, proc.stdout + proc.stderr)

    def use(self, step, context, *, host, workspace):
        action = step["uses"].split("@")[0]
        given = {k: self.evaluate(v, context) for k, v in (step.get("with") or {}).items()}
        if action == "actions/checkout":
            if os.path.exists(workspace):
                shutil.rmtree(workspace)
            subprocess.run(["git", "clone", "-q", self.repository, workspace], check=True)
            return {}
        if action == "actions/cache":
            key = given["key"]
            self.saving.append((given["path"], key, workspace))
            prefixes = [p.strip() for p in given.get("restore-keys", "").split("\n") if p.strip()]
            found = key if key in self.caches else next((k for p in prefixes for k in reversed(list(self.caches)) if k.startswith(p)), None)
            if found is None:
                return {"cache-hit": "false"}
            shutil.copytree(self.caches[found], workspace, dirs_exist_ok=True, symlinks=True)
            return {"cache-hit": "true" if found == key else "false"}
        if action == "actions/configure-pages":
            return {"base_url": self.pages_url}
        if action == "actions/upload-pages-artifact":
            self.uploaded_pages = os.path.join(workspace, given.get("path", "_site"))
            return {}
        if action == "actions/upload-artifact":
            source = host(given["path"])
            if not os.path.exists(source):
                if given.get("if-no-files-found") == "ignore":
                    return {}
                raise StepFailed("upload", given["name"], f"nothing at {given['path']}")
            kept = os.path.join(os.path.dirname(self.repository), "artifacts", given["name"])
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(source, kept) if os.path.isdir(source) else (os.makedirs(kept), shutil.copy(source, kept))
            self.artifacts[given["name"]] = kept
            return {}
        if action == "actions/download-artifact":
            if given["name"] not in self.artifacts:
                raise StepFailed("download", given["name"], "no such artifact")
            shutil.copytree(self.artifacts[given["name"]], host(given["path"]), dirs_exist_ok=True)
            return {}
        if action == "actions/deploy-pages":
            return {"page_url": self.pages_url + "/"}
        raise StepFailed("uses", action, f"no stand-in for {action}")

