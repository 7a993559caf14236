#!/usr/bin/env python3
"""The inspector under load (issue 22's figure; Benchmarks/README.md, `inspector.page.`): an app
sends 10,000 events a second for 10 seconds to `stateloop-inspect` while the page is open in
headless Chromium.

`make bench` runs it: the figures `inspector.page.*` of stateloop-bench start it with the release
build of the server and, as the app, stateloop-bench itself (`--child-inspected-page URL`: a `Flat`
system attached with `System.inspected`, which prints its pace and its added time per event, then,
once its standard input closes, its peak memory). This script drives the page through chromedriver
and prints one `name value` line per figure, which stateloop-bench holds to its goals:
- app_events_per_s, app_added_ns_per_event, app_peak_rss_mib: the app's own figures;
- page_lag_ms: from the app's last event sent to the page showing its last step (Live);
- page_longest_frame_gap_ms: the longest gap between two animation frames of the page while the
  app sent and the page caught up: how long the page was unresponsive;
- server_rss_mib, server_rss_growth_second_half_mib: the server's resident memory (/proc) at the
  end, and how much it grew over the second half of the sending, once its store is full (I33).

Usage: python3 Scripts/inspector-load.py --server PATH --app PATH [--keep 20000]
The server's standard error goes to .build/inspector-load-server.log.
"""
import argparse, json, os, re, socket, subprocess, sys, threading, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Browser:
    """Headless Chromium through chromedriver (WebDriver over HTTP)."""

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


def cpu_s(pid):
    """The CPU time (user and system) process `pid` has used, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def browser_cpu_s():
    """The CPU time of every Chromium process, in seconds."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as f:
                if f.read().strip().startswith("chrom"):
                    total += cpu_s(pid)
        except OSError:
            pass
    return total


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True, help="the stateloop-inspect executable (the release build)")
    parser.add_argument("--app", required=True, help="the stateloop-bench executable, run as the app")
    parser.add_argument("--keep", type=int, default=20000)
    options = parser.parse_args()
    port = free_port()
    os.makedirs(os.path.join(ROOT, ".build"), exist_ok=True)
    server_log = open(os.path.join(ROOT, ".build/inspector-load-server.log"), "w")
    server = subprocess.Popen([options.server, "--port", str(port), "--keep", str(options.keep)], cwd=ROOT, stdout=subprocess.PIPE, stderr=server_log)
    # The page's address, with this run's token (Docs/Inspector.md I68).
    page = re.search(r"the page is at (\S+) ;", server.stdout.readline().decode()).group(1)
    browser = Browser()
    app = None
    try:
        browser.call("POST", f"/session/{browser.session}/url", {"url": page})
        for _ in range(100):
            if browser.run("return document.getElementById('status').textContent === 'connected';"):
                break
            time.sleep(0.1)
        # The page's responsiveness: the longest gap between animation frames, measured in the page.
        browser.run("window.longest = 0; let last = performance.now();"
                    "function tick(now) { window.longest = Math.max(window.longest, now - last); last = now; requestAnimationFrame(tick); }"
                    "requestAnimationFrame(tick); return true;")
        server_cpu, browser_cpu = cpu_s(server.pid), browser_cpu_s()
        app = subprocess.Popen([options.app, "--child-inspected-page", f"ws://127.0.0.1:{port}/app"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        # The server's memory, twice a second while the app sends (it prints when it is done).
        rss = []
        sending = threading.Event()
        sending.set()

        def sample():
            while sending.is_set():
                rss.append(rss_mib(server.pid))
                time.sleep(0.5)

        sampler = threading.Thread(target=sample)
        sampler.start()
        sent = app.stdout.readline().split()
        done = time.monotonic()
        sending.clear()
        sampler.join()
        if len(sent) != 3:
            raise SystemExit(f"the app printed {sent!r}, not its pace, its added time per event and its last step")
        rate, added, last = float(sent[0]), float(sent[1]), int(sent[2])
        # The page's one instance (the app's), shown at its last step.
        while not browser.run("const i = [...instances.values()][0]; return i !== undefined && i.shown === arguments[0];", last):
            if time.monotonic() - done > 60:
                raise SystemExit(f"the page did not show the app's step {last} within 60 s")
            time.sleep(0.01)
        lag = (time.monotonic() - done) * 1000
        longest = browser.run("return window.longest;")
        received = browser.run("return received;")
        app_cpu = cpu_s(app.pid)
        app.stdin.close()
        app_peak = float(app.stdout.readline())
        app.wait()
        half = len(rss) // 2
        print(f"app_events_per_s {rate}")
        print(f"app_added_ns_per_event {added}")
        print(f"app_peak_rss_mib {app_peak}")
        print(f"page_lag_ms {lag}")
        print(f"page_longest_frame_gap_ms {longest}")
        print(f"server_rss_mib {rss_mib(server.pid)}")
        print(f"server_rss_growth_second_half_mib {rss[-1] - rss[half]}")
        # Where the time went (issue 30, 4.4): each side's CPU time over the run, the messages the
        # page received of the app's steps (those short of them the app's or the server's buffer
        # dropped), and the machine's load (its 1-minute average at the end).
        print(f"cpu_s_server {cpu_s(server.pid) - server_cpu}")
        print(f"cpu_s_browser {browser_cpu_s() - browser_cpu}")
        print(f"cpu_s_app {app_cpu}")
        print(f"page_received_messages {received}")
        print(f"app_steps {last}")
        print(f"load_average {load_average()}")
    finally:
        if app is not None and app.poll() is None:
            app.kill()
        browser.close()
        server.terminate()


if __name__ == "__main__":
    main()
