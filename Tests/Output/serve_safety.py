#!/usr/bin/env python3
"""`plein serve` as its toughest user meets it: the real binary, on a copy of the demo, on 127.0.0.1.

Each check below once failed (issue 17): a symlinked attachment leaked any file the user can
read; any Host and WebSocket Origin was answered; long request lines and headers hung the server;
running out of file descriptors killed the listener; an inotify overflow lost edits; keep-alive
requests took 40 ms; a `touch` reloaded every page; a 50 MB attachment was read whole on every
request; unknown methods got a bare 404; `--host localhost` failed after the build and a port in
use said "Timeout"; a folder moved out of the content kept its watch; killed builds left
temporary files in the cache. Loads are bounded in count and time.

And each once failed a security review of the release binary: If-Range with an old validator got
a part, a suffix range too long for an integer got 416; attachments lacked nosniff; two Host
lines, an absolute target naming a foreign host and an Origin with a user part were answered; a
refusal was answered before the pipelined requests ahead of it, which were lost; clients that
asked for a large file and never read (or live-reload sockets that never answered a ping) held
their connections, and megabytes each, for good.

    python3 Tests/Output/serve_safety.py --plein .build/release/plein
"""
import argparse, http.client, os, re, resource, shutil, signal, socket, subprocess, sys, tempfile, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import media  # noqa: E402  (the media made once per test run)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUNDLE = "reports/1094/2026-10-10-auto-inbraken-celebesstraat"
REPORT = "reports/1094/2026-10-25-omgevallen-boom-timorplein.md"
SECRET = "serve-safety-secret-7f3a"
failures = []


def check(condition, message):
    if condition:
        print(f"  ok: {message}")
    else:
        print(f"  FAILED: {message}")
        failures.append(message)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `plein serve` process on a copy of the demo content."""

    def __init__(self, plein, work, name, port=None, args=(), nofile=None, env=None):
        self.folder = os.path.join(work, name)
        self.content = os.path.join(self.folder, "content")
        self.cache = media.seed(os.path.join(self.folder, "cache"), plein)
        if not os.path.isdir(self.content):
            shutil.copytree(os.path.join(ROOT, "content"), self.content)
        self.port = port or free_port()
        self.log_path = os.path.join(self.folder, "serve.log")
        self.log = open(self.log_path, "w")
        env = dict(os.environ, PLEIN_SECRET=SECRET, NO_COLOR="1", **(env or {}))

        def limit():
            if nofile:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        self.process = subprocess.Popen(
            [plein, "serve", "--content", self.content, "--templates", os.path.join(ROOT, "templates"), "--cache", self.cache,
             "--port", str(self.port), *args],
            stdout=self.log, stderr=subprocess.STDOUT, env=env, preexec_fn=limit)

    def text(self):
        with open(self.log_path, encoding="utf-8", errors="replace") as f:
            return f.read()

    def wait_for(self, needle, timeout=180, count=1):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.text().count(needle) >= count:
                return True
            if self.process.poll() is not None:
                return False
            time.sleep(0.05)
        return False

    def rebuilds(self):
        """How many rebuilds have finished (each ends with one of these lines)."""
        text = self.text()
        return text.count("\nrebuilt ") + text.count("every page shows them until they are fixed")

    def wait_rebuild(self, before, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.rebuilds() > before:
                time.sleep(0.05)
                return True
            time.sleep(0.05)
        return False

    def request(self, path, method="GET", host=None, headers=None, timeout=10):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        connection.putheader("Host", host or f"localhost:{self.port}")
        for name, value in (headers or {}).items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response.status, dict(response.getheaders()), body

    def rss_mib(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def raw(port, data, timeout=10):
    """Sends bytes as they are and returns everything until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        answer = b""
        try:
            while chunk := s.recv(65536):
                answer += chunk
        except (socket.timeout, ConnectionResetError):
            pass
        return answer


def stalled_download(port, path):
    """A client that asks for a file and never reads the answer."""
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: localhost:{port}\r\n\r\n".encode())
    return s


def dropped(s):
    """Whether the server has closed or reset a connection (whose answer is drained unread)."""
    s.settimeout(0.2)
    try:
        while s.recv(1 << 20):
            pass
        return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def websocket(port, origin, host=None):
    request = (f"GET /__plein/reload HTTP/1.1\r\nHost: {host or f'localhost:{port}'}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(request.encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(4096)
        if not chunk:
            break
        head += chunk
    return s, head


def attachments(server):
    print("attachments come only from what the last good build checked")
    status, headers, body = server.request(f"/{BUNDLE}/plan.txt")
    check(status == 200 and body == b"the plan\n", f"an attachment is served ({status})")
    check(headers.get("Content-Type") == "text/plain; charset=utf-8" and headers.get("X-Content-Type-Options") == "nosniff",
          f"with its type and nosniff ({headers.get('Content-Type')}, {headers.get('X-Content-Type-Options')})")
    before = server.rebuilds()
    os.remove(os.path.join(server.content, BUNDLE, "plan.txt"))
    os.symlink("/proc/self/environ", os.path.join(server.content, BUNDLE, "plan.txt"))
    check(server.wait_rebuild(before), "the swap is noticed")
    # The terminal and the browser say the same: every page lists the problems, other files are the last good build's.
    status, _, body = server.request("/")
    feed, _, _ = server.request("/feed.xml")
    check("every page shows them until they are fixed" in server.text() and status == 500 and b"plan.txt" in body and feed == 200,
          f"with a content error, the terminal says what the browser shows (the page {status}, the feed {feed})")
    for host in (f"localhost:{server.port}", "attacker.example"):
        status, _, body = server.request(f"/{BUNDLE}/plan.txt", host=host)
        check(SECRET.encode() not in body and b"PATH=" not in body, f"no environment through a symlinked attachment (Host {host}: {status})")
    check(body == b"" or SECRET.encode() not in body, "nothing of the process leaks")
    status, _, body = server.request(f"/{BUNDLE}/plan.txt")
    check(status == 200 and body == b"the plan\n", "the checked copy of the last good build is served instead")
    # Made while the content is broken: never served.
    before = server.rebuilds()
    os.symlink("/etc/passwd", os.path.join(server.content, BUNDLE, "passwd.txt"))
    server.wait_rebuild(before)
    status, _, body = server.request(f"/{BUNDLE}/passwd.txt")
    check(status == 404 and b"root:" not in body, f"a link made while the content is broken is not served ({status})")
    os.remove(os.path.join(server.content, BUNDLE, "passwd.txt"))
    os.remove(os.path.join(server.content, BUNDLE, "plan.txt"))
    before = server.rebuilds()
    with open(os.path.join(server.content, BUNDLE, "plan.txt"), "w") as f:
        f.write("the plan\n")
    server.wait_rebuild(before)
    check(server.request("/")[0] == 200, "the site builds again")


def hosts(server):
    print("only the served names are answered; the reload socket only from the same origin")
    status, _, body = server.request("/", host="attacker.example")
    check(status == 403 and b"--allow-host attacker.example" in body, f"a foreign Host gets 403 with how to allow it ({status})")
    check(server.request("/", host=f"127.0.0.1:{server.port}")[0] == 200, "127.0.0.1 is answered")
    check(server.request("/", host=f"[::1]:{server.port}")[0] == 200, "[::1] is answered")
    s, head = websocket(server.port, "http://attacker.example")
    s.close()
    check(head.startswith(b"HTTP/1.1 403"), f"a foreign Origin cannot open the reload socket ({head[:20]!r})")
    s, head = websocket(server.port, f"http://attacker.example@localhost:{server.port}")
    s.close()
    check(head.startswith(b"HTTP/1.1 403"), f"nor an Origin with a user part ({head[:20]!r})")
    s, head = websocket(server.port, f"http://localhost:{server.port}")
    s.close()
    check(head.startswith(b"HTTP/1.1 101"), f"the site's own pages can ({head[:20]!r})")
    answer = raw(server.port, f"GET / HTTP/1.1\r\nHost: localhost:{server.port}\r\nHost: attacker.example\r\nConnection: close\r\n\r\n".encode())
    check(answer.startswith(b"HTTP/1.1 400"), f"two Host lines get 400 ({answer[:20]!r})")
    answer = raw(server.port, f"GET http://attacker.example/ HTTP/1.1\r\nHost: localhost:{server.port}\r\nConnection: close\r\n\r\n".encode())
    check(answer.startswith(b"HTTP/1.1 403"), f"an absolute target naming a foreign host gets 403 ({answer[:20]!r})")
    answer = raw(server.port, f"GET http://localhost:{server.port}/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    check(answer.startswith(b"HTTP/1.1 200"), f"one naming this server is answered ({answer[:20]!r})")
    good = f"GET /users/ HTTP/1.1\r\nHost: localhost:{server.port}\r\n\r\n".encode()
    answer = raw(server.port, good * 2 + b"GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n" + good, timeout=5)
    statuses = re.findall(rb"HTTP/1\.1 (\d{3}) ", answer)
    check(statuses == [b"200", b"200", b"403"] and b"Connection: close" in answer.split(b"HTTP/1.1 403")[-1],
          f"pipelined requests before a refused one are answered, then the refusal closes ({statuses})")
    check(all(answer.startswith(b"HTTP/1.1 ") and b"\r\nX-Content-Type-Options: nosniff\r\n" in answer
              for answer in (raw(server.port, b"GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n"),
                             raw(server.port, f"GET /nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode()),
                             raw(server.port, b"GET /" + b"a" * 10_000 + b" HTTP/1.1\r\n\r\n"))),
          "refusals and 404s say nosniff too")


def limits(server):
    print("long request lines and headers are answered at once; the server keeps serving")
    results = {}

    def normal():
        start = time.time()
        results["normal"] = (server.request("/")[0], time.time() - start)

    start = time.time()
    answer = raw(server.port, b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: localhost\r\n\r\n")
    check(answer.startswith(b"HTTP/1.1 414"), f"a 100 KB URL gets 414 ({answer[:20]!r}, {time.time() - start:.2f} s)")
    thread = threading.Thread(target=normal)
    thread.start()
    start = time.time()
    answer = raw(server.port, b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"b" * 1_000_000 + b"\r\n\r\n")
    elapsed = time.time() - start
    thread.join()
    check(answer.startswith(b"HTTP/1.1 431") and elapsed < 8, f"a 1 MB header gets 431 in {elapsed:.2f} s")
    check(results["normal"][0] == 200 and results["normal"][1] < 8, f"another request meanwhile succeeds ({results['normal']})")


def slow_headers(server):
    print("headers sent byte by byte are timed out; other requests go on")
    sockets = []
    for _ in range(100):
        s = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        s.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        sockets.append(s)
    start = time.time()
    served = 0
    while time.time() - start < 13:
        for s in sockets:
            try:
                s.sendall(b"a")
            except OSError:
                pass
        served += server.request("/")[0] == 200
        time.sleep(0.5)
    closed = 0
    for s in sockets:
        s.settimeout(3)
        try:
            data = s.recv(4096)
            closed += data == b"" or data.startswith(b"HTTP/1.1 408")
        except (socket.timeout, OSError) as error:
            # Bytes sent after the server closed make the kernel drop its answer.
            closed += isinstance(error, ConnectionResetError)
        s.close()
    check(closed == len(sockets), f"{closed} of {len(sockets)} slow connections were closed within 13 s")
    check(served >= 20, f"{served} other requests were served meanwhile")


def keepalive(server):
    print("kept-alive requests are quick")
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    times = []
    for _ in range(50):
        start = time.time()
        connection.request("GET", "/users/", headers={"Host": f"localhost:{server.port}"})
        response = connection.getresponse()
        response.read()
        times.append(time.time() - start)
    connection.close()
    median = sorted(times)[len(times) // 2] * 1000
    check(median < 5, f"median {median:.2f} ms per request on one connection")


def touch_reloads_nothing(server):
    print("a touch that changes nothing reloads no page; an edit does")
    s, head = websocket(server.port, f"http://localhost:{server.port}")
    check(head.startswith(b"HTTP/1.1 101"), "a page is connected")
    time.sleep(0.3)
    s.settimeout(2)
    before = server.rebuilds()
    os.utime(os.path.join(server.content, REPORT))
    server.wait_rebuild(before)
    try:
        frame = s.recv(64)
    except socket.timeout:
        frame = b""
    check(b"reload" not in frame, f"no reload after a touch ({frame!r})")
    before = server.rebuilds()
    path = os.path.join(server.content, REPORT)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\nEen aanvulling.\n")
    server.wait_rebuild(before)
    s.settimeout(5)
    try:
        frame = s.recv(64)
    except socket.timeout:
        frame = b""
    check(b"reload" in frame, f"a reload after an edit ({frame!r})")
    s.close()


def big_attachment(server):
    print("a 50 MB attachment is streamed: HEAD, Range and If-None-Match without reading it")
    before = server.rebuilds()
    # Written beside the content and moved in, so no build sees it half written (a build that
    # does copies what it saw, and the write's end starts another; that race is not tested here).
    staged = os.path.join(server.folder, "opname.mp3")
    with open(staged, "wb") as f:
        f.write(b"ID3" + os.urandom((1 << 20) * 50 - 3))  # a sound file, as a report publishes (issue 34)
    os.replace(staged, os.path.join(server.content, BUNDLE, "opname.mp3"))
    server.wait_rebuild(before)
    status, headers, body = server.request(f"/{BUNDLE}/opname.mp3", method="HEAD")
    check(status == 200 and headers.get("Content-Length") == str(50 << 20) and body == b"", f"HEAD gives the length ({status}, {headers.get('Content-Length')})")
    etag = headers.get("ETag")
    status, headers, body = server.request(f"/{BUNDLE}/opname.mp3", headers={"Range": "bytes=1000-1999"})
    check(status == 206 and len(body) == 1000 and headers.get("Content-Range") == f"bytes 1000-1999/{50 << 20}", f"a range ({status}, {len(body)} bytes, {headers.get('Content-Range')})")
    status, _, _ = server.request(f"/{BUNDLE}/opname.mp3", headers={"If-None-Match": etag or ""})
    check(status == 304, f"If-None-Match ({status})")
    status, headers, body = server.request(f"/{BUNDLE}/opname.mp3", headers={"Range": "bytes=1000-1999", "If-Range": etag or ""})
    check(status == 206 and len(body) == 1000, f"If-Range with the current ETag gives the part ({status}, {len(body)} bytes)")
    status, headers, body = server.request(f"/{BUNDLE}/opname.mp3", headers={"Range": "bytes=1000-1999", "If-Range": '"an-old-version"'})
    check(status == 200 and len(body) == 50 << 20 and "Content-Range" not in headers,
          f"If-Range with an old ETag gives the whole file ({status}, {len(body)} bytes)")
    status, headers, body = server.request(f"/{BUNDLE}/opname.mp3", headers={"Range": "bytes=-99999999999999999999"})
    check(status == 206 and len(body) == 50 << 20 and headers.get("Content-Range") == f"bytes 0-{(50 << 20) - 1}/{50 << 20}",
          f"a suffix too long for an integer gives the whole file ({status}, {headers.get('Content-Range')})")
    check(headers.get("Content-Type") == "audio/mpeg" and headers.get("X-Content-Type-Options") == "nosniff",
          f"a sound file is audio/mpeg, nosniff ({headers.get('Content-Type')})")
    base = server.rss_mib()
    peak = [base]
    sizes = []

    def download():
        sizes.append(len(server.request(f"/{BUNDLE}/opname.mp3", timeout=60)[2]))

    threads = [threading.Thread(target=download) for _ in range(6)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        peak.append(server.rss_mib())
        time.sleep(0.02)
    check(sizes == [50 << 20] * 6, f"six parallel downloads are whole ({sizes})")
    check(max(peak) - base < 100, f"memory grew by {max(peak) - base:.0f} MiB for 6 × 50 MB")
    base = server.rss_mib()
    stalled = [stalled_download(server.port, f"/{BUNDLE}/opname.mp3") for _ in range(30)]
    time.sleep(2)
    grown = server.rss_mib() - base
    for s in stalled:
        s.close()
    # Each once held megabytes: the writer queued chunks before it learnt the socket was full.
    check(grown < 40, f"memory grew by {grown:.0f} MiB for 30 clients that asked for 50 MB and read nothing")
    os.remove(os.path.join(server.content, BUNDLE, "opname.mp3"))


def methods(server):
    print("methods other than GET and HEAD get 405 with a reason")
    for method in (b"get", b"FOO", b"POST"):
        answer = raw(server.port, method + b" / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        check(answer.startswith(b"HTTP/1.1 405") and b"GET and HEAD" in answer, f"{method.decode()}: {answer[:24]!r}")


def moved_folder(server):
    print("a folder moved out of the content is no longer watched")
    outside = os.path.join(server.folder, "moved-away")
    before = server.rebuilds()
    shutil.move(os.path.join(server.content, "reports/1018"), outside)
    check(server.wait_rebuild(before), "the move is a rebuild")
    time.sleep(0.5)
    before = server.rebuilds()
    with open(os.path.join(outside, "2026-09-15-boomkap-plantage-middenlaan/index.md"), "a") as f:
        f.write("\nBuiten de inhoud.\n")
    time.sleep(1.5)
    check(server.rebuilds() == before, "an edit in the moved folder rebuilds nothing")
    before = server.rebuilds()
    shutil.move(outside, os.path.join(server.content, "reports/1018"))
    server.wait_rebuild(before)


def overflow(server):
    print("after an inotify queue overflow, an edit made meanwhile still appears")
    with open("/proc/sys/fs/inotify/max_queued_events") as f:
        queue = int(f.read())
    users = os.path.join(server.content, "users")
    server.process.send_signal(signal.SIGSTOP)
    try:
        for number in range(queue // 3 + 500):
            path = os.path.join(users, f"burst-{number}.txt")
            with open(path, "w") as f:
                f.write("x")
            os.remove(path)
        path = os.path.join(server.content, REPORT)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text.replace("title: ", "title: Na de overloop ", 1))
    finally:
        server.process.send_signal(signal.SIGCONT)
    page = "/" + REPORT[:-3] + "/"
    deadline = time.time() + 30
    seen = False
    while time.time() < deadline and not seen:
        seen = b"Na de overloop" in server.request(page)[2]
        time.sleep(0.2)
    check(seen, "the edit is shown")
    check("file events were lost" in server.text(), "the log says events were lost")


def descriptors(plein, work):
    print("running out of file descriptors: the listener survives and says so")
    server = Server(plein, work, "descriptors", nofile=256)
    try:
        check(server.wait_for("serving http"), "serves with ulimit -n 256")
        held = []
        for _ in range(250):
            try:
                held.append(socket.create_connection(("127.0.0.1", server.port), timeout=5))
            except OSError:
                break
        time.sleep(1)
        for s in held:
            s.close()
        ok = False
        deadline = time.time() + 20
        while time.time() < deadline and not ok:
            try:
                ok = server.request("/", timeout=3)[0] == 200
            except OSError:
                time.sleep(0.2)
        check(ok, "a request after 250 connections were held and closed succeeds")
        check("connections are open" in server.text(), "the log says the connection limit was reached")
    finally:
        server.stop()


def stopped_readers(plein, work):
    print("clients that stop reading are dropped after the idle timeout (2 s here), and hold no slot longer")
    content = os.path.join(work, "readers", "content")
    shutil.copytree(os.path.join(ROOT, "content"), content)
    with open(os.path.join(content, BUNDLE, "talk.mp3"), "wb") as f:
        f.write(b"ID3" + os.urandom(1 << 20) * 50)  # an MP3's first bytes: a report publishes only what its name says
    # 72 descriptors leave room for 8 connections (ConnectionCap keeps 64 for everything else).
    server = Server(plein, work, "readers", nofile=72, env={"PLEIN_SERVE_IDLE_TIMEOUT": "2"})
    try:
        check(server.wait_for("serving http"), "serves with ulimit -n 72")
        status, headers, _ = server.request(f"/{BUNDLE}/talk.mp3", method="HEAD")
        check(status == 200 and headers.get("Content-Type") == "audio/mpeg" and headers.get("X-Content-Type-Options") == "nosniff",
              f"an mp3 is audio/mpeg, nosniff ({status}, {headers.get('Content-Type')}, {headers.get('X-Content-Type-Options')})")
        for kind in ("live-reload sockets that answer no ping", "downloads that read nothing"):
            if kind.startswith("live"):
                held = [websocket(server.port, f"http://localhost:{server.port}")[0] for _ in range(8)]
            else:
                held = [stalled_download(server.port, f"/{BUNDLE}/talk.mp3") for _ in range(8)]
                # Each is being answered, so holds a slot: a few bytes read, then no more.
                heads = [s.recv(12) for s in held]
                check(heads == [b"HTTP/1.1 200"] * 8, f"8 downloads are being answered ({heads[0]!r})")
            start = time.time()
            try:
                status = server.request("/", timeout=15)[0]
            except OSError as error:
                status = repr(error)
            elapsed = time.time() - start
            check(status == 200 and elapsed < 6, f"with 8 {kind} holding every slot, a request is answered in {elapsed:.1f} s ({status})")
            time.sleep(1)
            closed = sum(dropped(s) for s in held)
            check(closed == len(held), f"{closed} of {len(held)} {kind} were dropped")
            for s in held:
                s.close()
        # A client that reads slowly but steadily keeps its connection: 20 MB at about 4 MB/s.
        s = stalled_download(server.port, f"/{BUNDLE}/talk.mp3")
        received = 0
        start = time.time()
        try:
            while received < 20 << 20:
                chunk = s.recv(64 * 1024)
                if not chunk:
                    break
                received += len(chunk)
                time.sleep(max(0, received / (4 << 20) - (time.time() - start)))
        except OSError:
            pass
        s.close()
        check(received >= 20 << 20, f"a slow but steady reader got {received >> 20} MB in {time.time() - start:.1f} s")
    finally:
        server.stop()


def addresses(plein, work):
    print("the address is checked before building; a port in use is said plainly")
    server = Server(plein, work, "localhost", args=("--host", "localhost"))
    try:
        check(server.wait_for("serving http://localhost:"), "--host localhost serves")
        check(server.request("/")[0] == 200, "and answers")
        start = time.time()
        busy = subprocess.run([plein, "serve", "--content", server.content, "--templates", os.path.join(ROOT, "templates"),
                               "--cache", server.cache, "--port", str(server.port)], capture_output=True, text=True, timeout=60)
        check(busy.returncode == 2 and f"port {server.port} is in use" in busy.stderr, f"a port in use: {busy.stderr.strip()!r}")
        check(time.time() - start < 5, f"said before building ({time.time() - start:.1f} s)")
    finally:
        server.stop()
    if socket.has_ipv6:
        try:
            with socket.socket(socket.AF_INET6) as s:
                s.bind(("::1", 0))
        except OSError:
            return
        server = Server(plein, work, "ipv6", args=("--host", "::1"))
        try:
            check(server.wait_for("serving http://[::1]:"), "--host ::1 serves")
            connection = http.client.HTTPConnection("::1", server.port, timeout=10)
            connection.request("GET", "/")
            check(connection.getresponse().status == 200, "and answers over IPv6")
        finally:
            server.stop()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plein", default=os.path.join(ROOT, ".build/release/plein"))
    args = parser.parse_args()
    plein = os.path.abspath(args.plein)
    work = tempfile.mkdtemp(prefix="plein-serve-safety-")
    try:
        main_folder = os.path.join(work, "main")
        os.makedirs(main_folder)
        shutil.copytree(os.path.join(ROOT, "content"), os.path.join(main_folder, "content"))
        with open(os.path.join(main_folder, "content", BUNDLE, "plan.txt"), "w") as f:
            f.write("the plan\n")
        leftovers = os.path.join(main_folder, "cache", "images", "vips-8.14.1")
        os.makedirs(leftovers)
        leftover = os.path.join(leftovers, "abc.webp.tmp-999999-12345.webp")
        open(leftover, "w").close()
        server = Server(plein, work, "main")
        try:
            if not server.wait_for("serving http"):
                print(server.text())
                sys.exit("plein serve did not start")
            print("a killed build's temporary files are removed")
            check(not os.path.exists(leftover), "the leftover of a dead process is gone")
            # Search works under serve as on the built site: the page and Pagefind's files are served.
            page, _, text = server.request("/search/")
            shards = re.findall(r"/pagefind/[a-z0-9-]+/", text.decode("utf-8", "replace"))
            status, _, body = server.request(shards[0] + "pagefind.js") if shards else (None, None, b"")
            check(page == 200 and status == 200 and len(body) > 1000, f"/search/ and Pagefind's script are served ({page}, {shards[:1]}: {status})")
            attachments(server)
            hosts(server)
            limits(server)
            methods(server)
            keepalive(server)
            touch_reloads_nothing(server)
            big_attachment(server)
            moved_folder(server)
            overflow(server)
            slow_headers(server)
        finally:
            server.stop()
        descriptors(plein, work)
        stopped_readers(plein, work)
        addresses(plein, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"\n{len(failures)} check(s) failed:")
        for failure in failures:
            print("  - " + failure)
        sys.exit(1)
    print("\nall serve checks passed")


if __name__ == "__main__":
    main()
