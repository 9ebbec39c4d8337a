#!/usr/bin/env python3
"""What Pagefind's service takes for one part of the search index: the reports of an area (their
texts without front matter, as plein sends them), added to a new index, then its files asked for.

    python3 tools/bench/pagefind_part.py CONTENT AREA COUNT [RUNS]

Prints, for each run, milliseconds to start the service, to add the records, to get the files,
then how many files and the largest four (bytes, path)."""
import base64, glob, json, os, subprocess, sys, time

import pagefind_bin


def texts(content, area, count):
    files = sorted(glob.glob(os.path.join(content, "reports", area, "*", "index.md")) + glob.glob(os.path.join(content, "reports", area, "*.md")))
    out = []
    for path in files[:count]:
        text = open(path, encoding="utf-8").read()
        out.append(text.split("---", 2)[2] if text.startswith("---") else text)
    return out


def run(exe, records):
    service = subprocess.Popen([exe, "--service"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    pending = [b""]

    def message(number, payload):
        return base64.b64encode(json.dumps({"message_id": number, "payload": payload}).encode()) + b","

    def answer(wanted):
        while True:
            chunk = service.stdout.read1(1 << 20)
            if not chunk:
                sys.exit("pagefind closed its output")
            pending[0] += chunk
            parts = pending[0].split(b",")
            pending[0] = parts[-1]
            for part in parts[:-1]:
                reply = json.loads(base64.b64decode(part))
                if reply["message_id"] == wanted:
                    return reply

    start = time.time()
    service.stdin.write(message(1, {"type": "NewIndex", "config": {"force_language": "nl"}}))
    service.stdin.flush()
    index = answer(1)["payload"]["index_id"]
    started = time.time()
    batch = b"".join(message(2 + i, {"type": "AddRecord", "index_id": index, "url": f"/r/{i}/", "content": text, "language": "nl",
                                     "meta": {"title": f"Report {i}"}, "filters": {"area": ["a"]}, "sort": {"date": "2026-01-01"}})
                     for i, text in enumerate(records))
    service.stdin.write(batch)
    service.stdin.flush()
    answer(1 + len(records))
    added = time.time()
    service.stdin.write(message(1_000_000, {"type": "GetFiles", "index_id": index}))
    service.stdin.flush()
    files = answer(1_000_000)["payload"]["files"]
    done = time.time()
    service.stdin.close()
    service.wait()
    largest = sorted(((len(f["content"]) * 3 // 4, f["path"]) for f in files), reverse=True)[:4]
    return round((started - start) * 1000), round((added - started) * 1000), round((done - added) * 1000), len(files), largest


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    content, area, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    runs = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    records = texts(content, area, count)
    if not records:
        sys.exit(f"no reports in {content}/reports/{area}")
    print(f"{len(records)} reports, {sum(map(len, records)) // len(records)} bytes each on average")
    exe = str(pagefind_bin.get_executable())
    for _ in range(runs):
        print(run(exe, records))


if __name__ == "__main__":
    main()
