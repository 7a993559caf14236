#!/usr/bin/env python3
"""The inspector under load (Docs/Inspector.md, "Figures"): an app sending 10,000 steps a second for
10 seconds to `stateloop-inspect`, with the page open in headless Chromium.

Prints `BENCH <name> <value>` lines, as Scripts/bench.sh does:
- inspector.sent_per_second: the rate the app reached (goal: 10,000);
- inspector.page_lag_ms: from the app's last message to the page having it (goal: under 1,000);
- inspector.page_longest_frame_ms: the longest gap between two animation frames of the page
  while it received (goal: under 200: the page stays responsive);
- inspector.server_rss_mib: the server's resident memory at the end, and its growth over the last
  half of the run, when the store is full (goal: bounded: the growth is small against the first half);
- inspector.kept: the messages the server keeps (its bound: --keep per instance).

Usage: python3 Scripts/inspector-load.py [--rate 10000] [--seconds 10] [--keep 20000]
Needs a build of stateloop-inspect (`swift build -c release --product stateloop-inspect`; --configuration
debug for the debug one), chromium and chromedriver. The server's standard error goes to
.build/inspector-load-server.log.
"""
import argparse, base64, json, os, socket, subprocess, sys, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppSocket:
    """The app side of the wire, as small as it gets: RFC 6455 handshake and masked text frames
    (a zero masking key, which the RFC allows; the load is on the inspector, not here)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /app HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += self.sock.recv(4096)
        assert reply.startswith(b"HTTP/1.1 101"), reply

    @staticmethod
    def frame(text):
        payload = text.encode()
        n = len(payload)
        if n < 126:
            header = bytes([0x81, 0x80 | n])
        elif n < 65536:
            header = bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
        else:
            header = bytes([0x81, 0x80 | 127]) + n.to_bytes(8, "big")
        return header + b"\0\0\0\0" + payload

    def send(self, frames):
        try:
            self.sock.sendall(b"".join(frames))
        except OSError as error:
            # The server closed: say what its close frame (if any) says.
            self.sock.settimeout(1)
            try:
                reply = self.sock.recv(256)
            except OSError:
                reply = b""
            raise SystemExit(f"the inspector closed the app's socket ({error}); it sent {reply!r}")


class Browser:
    def __init__(self):
        self.port = free_port()
        self.driver = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)["value"]

    def run(self, script, *args):
        return self.call("POST", f"/session/{self.session}/execute/sync", {"script": script, "args": list(args)})

    def close(self):
        try:
            self.call("DELETE", f"/session/{self.session}")
        finally:
            self.driver.terminate()


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=int, default=10000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--keep", type=int, default=20000)
    parser.add_argument("--configuration", default="release", help="the build of stateloop-inspect: release or debug")
    options = parser.parse_args()
    server_binary = os.path.join(ROOT, f".build/{options.configuration}/stateloop-inspect")
    port = free_port()
    server_log = open(os.path.join(ROOT, ".build/inspector-load-server.log"), "w")
    server = subprocess.Popen([server_binary, "--port", str(port), "--keep", str(options.keep)], cwd=ROOT, stdout=subprocess.PIPE, stderr=server_log)
    server.stdout.readline()
    browser = Browser()
    try:
        browser.call("POST", f"/session/{browser.session}/url", {"url": f"http://127.0.0.1:{port}/"})
        for _ in range(100):
            if browser.run("return document.getElementById('status').textContent === 'connected';"):
                break
            time.sleep(0.1)
        # The page's responsiveness: the longest gap between animation frames, measured in the page.
        browser.run("window.longest = 0; let last = performance.now();"
                    "function tick(now) { window.longest = Math.max(window.longest, now - last); last = now; requestAnimationFrame(tick); }"
                    "requestAnimationFrame(tick); return true;")
        app = AppSocket(port)
        instance = "TrafficLight#1"
        app.send([AppSocket.frame(json.dumps({"type": "hello", "protocol": 1, "instance": instance, "machine": "TrafficLight",
                                               "spec": "TrafficLight.machine.yml", "parent": None, "journalVersion": None}))])
        modes = ["red", "green", "yellow"]
        total = options.rate * options.seconds
        batch = max(1, options.rate // 100)
        start = time.monotonic()
        rss = []
        sent = 0
        while sent < total:
            frames = []
            for seq in range(sent, min(total, sent + batch)):
                mode = modes[seq % 3]
                frames.append(AppSocket.frame(json.dumps({
                    "type": "step", "instance": instance, "seq": seq, "time": seq / options.rate * 1000,
                    "event": None if seq == 0 else ".pedestrianWaiting", "branches": [] if seq == 0 else [{"id": 4, "line": 26}],
                    "state": f"TrafficLight.State(\n  mode: .{mode},\n  cycles: {seq // 3}\n)", "configuration": [mode]})))
            app.send(frames)
            sent += len(frames)
            # On schedule: `sent` steps by now.
            delay = start + sent / options.rate - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if sent % options.rate < batch:
                rss.append(rss_mib(server.pid))
        elapsed = time.monotonic() - start
        done = time.monotonic()
        while browser.run("return window.document.getElementById('counts').textContent;") != f"{total + 1} messages":
            if time.monotonic() - done > 60:
                print("the page did not get every message in 60 s", file=sys.stderr)
                break
            time.sleep(0.02)
        lag = (time.monotonic() - done) * 1000
        longest = browser.run("return window.longest;")
        stats = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/stats").read())
        half = len(rss) // 2
        print(f"BENCH inspector.sent_per_second {total / elapsed:.0f}")
        print(f"BENCH inspector.page_lag_ms {lag:.0f}")
        print(f"BENCH inspector.page_longest_frame_ms {longest:.0f}")
        print(f"BENCH inspector.server_rss_mib {rss_mib(server.pid):.1f}")
        print(f"BENCH inspector.server_rss_growth_first_half_mib {rss[half] - rss[0]:.1f}")
        print(f"BENCH inspector.server_rss_growth_second_half_mib {rss[-1] - rss[half]:.1f}")
        print(f"BENCH inspector.kept {stats['kept']}")
    finally:
        browser.close()
        server.terminate()


if __name__ == "__main__":
    main()
