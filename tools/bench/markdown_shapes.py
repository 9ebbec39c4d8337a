#!/usr/bin/env python3
"""How long a fresh build takes over one report whose text is a shape Markdown libraries are
slow on (cmark's pathological tests, and issue 58's): `python3 tools/bench/markdown_shapes.py
--plein .build/release/plein [NAME …]`. Each body is 50–200 KB; a shape plein bounds
(`MarkdownBounds`) ends with exit status 1 and its error at the line. Prints seconds per shape."""
import argparse, os, shutil, subprocess, tempfile, time

N = 50000
SHAPES = {
    "nested +": "+ " * N, "nested 1.": "1. " * N, "nested >": "> " * N,
    "nested strong emph": "*a **a " * (N // 10) + "b" + " a** a*" * (N // 10),
    "many emph closers": "a**" * N, "many emph openers": "**a" * N, "mismatched openers/closers": "*a_ " * N,
    "many link closers": "a]" * N, "many link openers": "[a" * N, "nested brackets": "[" * N + "a" + "]" * N,
    "nested image": "![" * N + "a" + "]" * N, "unclosed links A": "[a](<b" * (N // 2), "unclosed links B": "[a](b" * (N // 2),
    "backticks": "".join("e" + "`" * i for i in range(1, 600)), "unclosed <!--": "</" + "<!--" * N,
    "link refs": "[x]: u\n" * (N // 5) + "[x]" * (N // 5), "table rows": "|a|b|\n|-|-|\n" + "|a|b|\n" * (N // 5),
    "table cols": "|" + "a|" * (N // 10) + "\n|" + "-|" * (N // 10) + "\n", "autolinks": "www.a.com/" + "(" * N,
    "strikethrough": "~~a" * N, "task items": "- [ ] a\n" * (N // 5), "footnotes": "[^a]" * N + "\n\n[^a]: x\n",
    "underscores": "_a " * N, "inline html": "<a " * N, "entity": "&" * N + "#",
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", required=True)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    plein = os.path.abspath(args.plein)
    work = tempfile.mkdtemp(prefix="plein-md-shapes-")
    try:
        subprocess.run([plein, "new", "site", "s", "--title", "S", "--language", "en", "--sections", "members,reports"],
                       cwd=work, capture_output=True, check=True, stdin=subprocess.DEVNULL)
        site = os.path.join(work, "s")
        with open(os.path.join(site, "content/users/joan.md"), "w") as f:
            f.write("---\nname: Joan\n---\nx\n")
        os.makedirs(os.path.join(site, "content/reports/bs6"))
        for name, body in SHAPES.items():
            if args.names and name not in args.names:
                continue
            with open(os.path.join(site, "content/reports/bs6/2026-11-03-x.md"), "w") as f:
                f.write("---\ntitle: X\ncategory: attention\nat: 2026-11-03T21:00:00Z\nauthor: joan\n"
                        "location: {lat: 51.46, lon: -2.6}\n---\n" + body + "\n")
            start = time.monotonic()
            try:
                status = subprocess.run([plein, "build", "--fresh"], cwd=site, capture_output=True, timeout=120,
                                        env=dict(os.environ, PLEIN_PAGEFIND="none")).returncode
            except subprocess.TimeoutExpired:
                status = "timed out"
            print(f"{name:28s} {len(body):7d} bytes {time.monotonic() - start:7.2f} s  exit {status}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
