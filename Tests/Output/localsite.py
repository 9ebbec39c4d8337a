"""A built site served on 127.0.0.1, for the checks that open it in a browser."""
import functools, http.server, threading


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site):
    """Serves the folder `site` on a free port of 127.0.0.1 from a thread of its own. Returns the
    server: `server_address[1]` is its port, `shutdown()` stops it."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
