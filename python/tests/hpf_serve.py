"""`hpf serve` for tests and benchmarks: started on a free port over a directory of archives,
answering once its health route does, stopped at the end."""

import contextlib
import signal
import subprocess
import time
import urllib.request


@contextlib.contextmanager
def running(launcher, root, port, *options):
    """Yields the server's base URL; fails if it does not answer within a minute."""
    server = subprocess.Popen([str(launcher), "serve", str(root), "--port", str(port),
                               *map(str, options)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_health", timeout=5)
                break
            except OSError:
                assert server.poll() is None, "hpf serve ended at its start"
                time.sleep(0.1)
        else:
            raise AssertionError("hpf serve did not answer within a minute")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
