// The inspector's page: plain HTML, CSS and JavaScript in one string, nothing loaded from
// elsewhere, so it works offline (I36).

enum InspectorPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>StateLoop inspector</title>
<style>
  body { font: 13px/1.4 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 0; color: #24292f; background: #f6f8fa; }
  header { padding: 8px 14px; background: #24292f; color: #fff; display: flex; gap: 16px; align-items: baseline; }
  header h1 { font-size: 15px; margin: 0; }
  #status { color: #8c959f; }
  #status.connected { color: #7ee787; }
  #instances { display: flex; flex-wrap: wrap; gap: 12px; padding: 12px; align-items: flex-start; }
  #empty { padding: 24px; color: #57606a; }
  .panel { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; width: 640px; display: flex; flex-direction: column; }
  .panel > h2 { font-size: 14px; margin: 0; padding: 8px 10px; border-bottom: 1px solid #d0d7de; display: flex; gap: 8px; align-items: baseline; }
  .panel > h2 .machine { color: #57606a; font-weight: normal; }
  .panel > h2 .ended { color: #cf222e; font-weight: normal; }
  .panel > h2 .journal { color: #57606a; font-weight: normal; font-size: 12px; }
  .mismatch { background: #cf222e; color: #fff; padding: 8px 10px; font-weight: bold; }
  .mismatch pre { background: #fff; color: #24292f; font-weight: normal; padding: 6px; margin: 6px 0 0; max-height: 180px; overflow: auto; }
  .diagram { overflow: auto; max-height: 360px; border-bottom: 1px solid #d0d7de; padding: 4px; }
  .diagram svg { max-width: 100%; height: auto; }
  .diagram .error { color: #cf222e; white-space: pre-wrap; font-family: ui-monospace, Menlo, monospace; font-size: 12px; }
  .diagram g.node.active > path, .diagram g.node.active > polygon, .diagram g.node.active > ellipse { fill: #ffd33d; stroke: #9a6700; stroke-width: 2.5; }
  .diagram g.cluster.active > path, .diagram g.cluster.active > polygon { fill: #fff8c5; stroke: #9a6700; stroke-width: 2.5; }
  .diagram g.edge.taken > path { stroke: #cf222e; stroke-width: 3; }
  .diagram g.edge.taken > polygon { fill: #cf222e; stroke: #cf222e; }
  .diagram g.edge.taken text { fill: #cf222e; font-weight: bold; }
  .controls { display: flex; gap: 8px; padding: 6px 10px; border-bottom: 1px solid #d0d7de; align-items: center; }
  .controls .where { color: #57606a; flex: 1; }
  button { font: inherit; padding: 2px 10px; border: 1px solid #d0d7de; border-radius: 6px; background: #f6f8fa; cursor: pointer; }
  button.on { background: #dafbe1; border-color: #2da44e; }
  .columns { display: flex; min-height: 200px; }
  .timeline { flex: 1 1 55%; max-height: 360px; overflow: auto; border-right: 1px solid #d0d7de; font-family: ui-monospace, Menlo, monospace; font-size: 12px; }
  .entry { padding: 2px 8px; border-bottom: 1px solid #eaeef2; white-space: pre-wrap; }
  .entry .t { color: #8c959f; display: inline-block; min-width: 64px; }
  .step { cursor: pointer; }
  .step:hover { background: #f6f8fa; }
  .step.selected { background: #ddf4ff; }
  .step.in-range { background: #eef8ff; }
  .step.bad { background: #ffebe9; }
  .step.broken { box-shadow: inset 4px 0 #bf8700; }
  .step .broken-note { color: #9a6700; font-weight: bold; }
  .invariant { color: #9a6700; }
  .run, .timer, .child { color: #0969da; padding-left: 30px; }
  .timer { color: #9a6700; }
  .gap { color: #cf222e; font-style: italic; }
  .del { color: #cf222e; }
  .ins { color: #1a7f37; }
  .state { flex: 1 1 45%; max-height: 360px; overflow: auto; margin: 0; padding: 6px 8px; font-family: ui-monospace, Menlo, monospace; font-size: 12px; }
  .export { margin: 0; padding: 8px 10px; border-top: 1px solid #d0d7de; background: #f6f8fa; font-family: ui-monospace, Menlo, monospace; font-size: 12px; white-space: pre; overflow: auto; max-height: 260px; }
  .export:empty { display: none; }
  .more { color: #8c959f; padding: 2px 8px; }
</style>
</head>
<body>
<header><h1>StateLoop inspector</h1><span id="status">connecting…</span><span id="counts"></span></header>
<div id="empty">No machine yet. Attach one: <code>import StateLoopInspector</code> in a debug build, then <code>TrafficLight.system().inspected(TrafficLight.self)</code> (with your machine's name, and its effects: <code>Door.system(effects: effects).inspected(Door.self)</code>; README, "Inspecting a machine").</div>
<div id="instances"></div>
<script>
"use strict";
// How many timeline entries are drawn around the step shown (the rest stay in memory).
const WINDOW = 150;
// How many messages the page keeps per instance, as the server does.
const KEEP = 20000;
const instances = new Map();
let received = 0;
// While messages stream, at most one draw a DRAW_MS (I77): a draw takes tens of milliseconds, and
// one an animation frame took a core that the server and the app needed on a loaded machine. The
// next draw is one timer or frame at most; a draw made at once (a click) cancels it.
const DRAW_MS = 100;
let lastDraw = -Infinity;
let pendingTimer = null, pendingFrame = null;

function scheduleDraw() {
  if (pendingTimer !== null || pendingFrame !== null) return;
  const wait = lastDraw + DRAW_MS - performance.now();
  if (wait <= 0) pendingFrame = requestAnimationFrame(render);
  else pendingTimer = setTimeout(() => { pendingTimer = null; pendingFrame = requestAnimationFrame(render); }, wait);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function instanceFor(name) {
  let inst = instances.get(name);
  if (inst) return inst;
  inst = { name, hello: null, entries: [], steps: new Map(), lastSeq: -1, live: true, shown: -1,
           from: null, to: null, mismatches: [], invariants: [], ended: false, dirty: true, panel: null, pageNote: null };
  instances.set(name, inst);
  return inst;
}

function receive(m) {
  received++;
  const inst = instanceFor(m.instance);
  switch (m.type) {
    case "hello": inst.hello = m; inst.panel = null; break;
    case "bye": inst.ended = true; break;
    case "mismatch": inst.mismatches.push(m); inst.entries.push(m); break;
    case "invariant": inst.invariants.push(m); inst.entries.push(m); break;
    case "step": inst.steps.set(m.seq, m); inst.lastSeq = Math.max(inst.lastSeq, m.seq); inst.entries.push(m); break;
    default: inst.entries.push(m);
  }
  inst.dirty = true;
}

// A frame of the server: a batch of messages (I63), taken in, then each instance trimmed once.
function receiveBatch(batch) {
  for (const m of batch) receive(m);
  for (const inst of instances.values()) trim(inst);
  scheduleDraw();
}

// Past KEEP messages, the oldest go at once, counted in one note at the start (I65).
function trim(inst) {
  const kept = inst.entries.length - (inst.pageNote ? 1 : 0);
  if (kept <= KEEP) return;
  if (!inst.pageNote) {
    inst.pageNote = { type: "dropped", instance: inst.name, count: 0, by: "page" };
    inst.entries.unshift(inst.pageNote);
  }
  const gone = inst.entries.splice(1, kept - KEEP);
  for (const g of gone) if (g.type === "step") inst.steps.delete(g.seq);
  if (gone.some(g => g.type === "invariant")) { const goneSet = new Set(gone); inst.invariants = inst.invariants.filter(b => !goneSet.has(b)); }
  inst.pageNote.count += gone.length;
}

function render() {
  if (pendingTimer !== null) { clearTimeout(pendingTimer); pendingTimer = null; }
  if (pendingFrame !== null) { cancelAnimationFrame(pendingFrame); pendingFrame = null; }
  lastDraw = performance.now();
  document.getElementById("empty").style.display = instances.size ? "none" : "";
  document.getElementById("counts").textContent = received + " messages";
  for (const inst of instances.values()) {
    if (!inst.hello || !inst.dirty) continue;
    inst.dirty = false;
    if (!inst.panel) makePanel(inst);
    if (inst.live) inst.shown = inst.lastSeq;
    drawPanel(inst);
  }
}

function makePanel(inst) {
  const h = inst.hello;
  const panel = el("section", "panel");
  panel.dataset.instance = inst.name;
  const title = el("h2");
  title.append(el("span", "name", inst.name), el("span", "machine", h.machine + (h.parent ? " · child of " + h.parent : "")), el("span", "ended"));
  // A journal read offline (I44, I46): states only where a snapshot holds one, no replay here.
  if (h.journal) title.append(el("span", "journal", "journal " + h.journal + " · states at its snapshots · replay check: " + h.machine + ".replayJournal"));
  const banner = el("div", "mismatch"); banner.hidden = true;
  const diagram = el("div", "diagram", "drawing " + h.spec + "…");
  const controls = el("div", "controls");
  const where = el("span", "where");
  const live = el("button", "live on", "Live");
  live.onclick = () => { inst.live = !inst.live; inst.from = inst.to = null; inst.dirty = true; render(); };
  const exportButton = el("button", "export-button", "Export as a test");
  exportButton.onclick = () => exportSteps(inst);
  controls.append(where, live, exportButton);
  const columns = el("div", "columns");
  const timeline = el("div", "timeline");
  const state = el("pre", "state");
  columns.append(timeline, state);
  const exported = el("pre", "export");
  panel.append(title, banner, diagram, controls, columns, exported);
  // Parents before their children: an instance goes after its parent's panel.
  const box = document.getElementById("instances");
  const parent = h.parent && instances.get(h.parent) && instances.get(h.parent).panel;
  if (parent) parent.root.after(panel); else box.append(panel);
  inst.panel = { root: panel, title, banner, diagram, where, live, timeline, state, exported, svg: null };
  fetch("/diagram?instance=" + encodeURIComponent(h.instance) + "&token=" + token).then(async r => {
    const text = await r.text();
    if (r.ok) { diagram.innerHTML = text; inst.panel.svg = diagram.querySelector("svg"); }
    else { diagram.textContent = ""; diagram.append(el("div", "error", text)); }
    inst.dirty = true; render();
  });
}

function drawPanel(inst) {
  const p = inst.panel;
  p.live.classList.toggle("on", inst.live);
  p.title.querySelector(".ended").textContent = inst.ended ? "stopped" : "";
  const step = inst.steps.get(inst.shown);
  p.where.textContent = step ? "step " + step.seq + (inst.live ? " (live)" : " of " + inst.lastSeq) : "no step";
  p.state.textContent = !step ? "" : step.state !== undefined ? step.state : "(the journal holds no state after this step: its snapshots do)";
  if (inst.mismatches.length) {
    const m = inst.mismatches[inst.mismatches.length - 1];
    p.banner.hidden = false;
    p.banner.textContent = "Replay mismatch at step " + m.seq + ": the reducer gave a different state from the same state and event — it is not deterministic (" + inst.mismatches.length + " so far).";
    const pre = el("pre"); pre.textContent = "recorded:\n" + m.recorded + "\n\nreplayed:\n" + m.replayed;
    p.banner.append(pre);
  }
  highlight(inst, step);
  drawTimeline(inst);
}

function highlight(inst, step) {
  const svg = inst.panel.svg;
  if (!svg) return;
  const active = new Set(step ? step.configuration : []);
  for (const g of svg.querySelectorAll("g.node, g.cluster")) {
    const title = g.querySelector("title");
    const name = title ? title.textContent.replace(/^cluster_/, "") : "";
    g.classList.toggle("active", active.has(name));
  }
  for (const g of svg.querySelectorAll("g.edge.taken")) g.classList.remove("taken");
  for (const b of step ? step.branches : []) {
    // An arrow of its own has the branch's id; a state's loop names its branches as classes (I49).
    for (const edge of svg.querySelectorAll('[id="branch-' + b.id + '"], g.edge.branch-' + b.id)) edge.classList.add("taken");
  }
}

function ms(t) { return t === undefined || t === null ? "" : (t / 1000).toFixed(3) + "s"; }

function drawTimeline(inst) {
  const tl = inst.panel.timeline;
  const entries = inst.entries;
  // The window: the last entries when live, else those around the step shown.
  let end = entries.length;
  if (!inst.live) {
    const at = entries.findIndex(e => e.type === "step" && e.seq === inst.shown);
    if (at >= 0) end = Math.min(entries.length, at + WINDOW / 2);
  }
  const start = Math.max(0, end - WINDOW);
  tl.textContent = "";
  if (start > 0) tl.append(el("div", "more", "… " + start + " earlier entries"));
  const lo = inst.from === null ? null : Math.min(inst.from, inst.to), hi = inst.from === null ? null : Math.max(inst.from, inst.to);
  const bad = new Set(inst.mismatches.map(m => m.seq));
  // I79: the steps whose state broke an invariant, with the invariants' names.
  const broken = new Map();
  for (const b of inst.invariants) broken.set(b.seq, (broken.get(b.seq) || []).concat([b.name]));
  for (let i = start; i < end; i++) tl.append(entry(inst, entries[i], lo, hi, bad, broken));
  if (end < entries.length) tl.append(el("div", "more", "… " + (entries.length - end) + " later entries"));
  const sel = tl.querySelector(".step.selected");
  if (inst.live) tl.scrollTop = tl.scrollHeight; else if (sel) sel.scrollIntoView({ block: "nearest" });
}

function entry(inst, m, lo, hi, bad, broken) {
  switch (m.type) {
    case "step": {
      const e = el("div", "entry step");
      e.dataset.seq = m.seq;
      if (m.seq === inst.shown) e.classList.add("selected");
      if (lo !== null && m.seq >= lo && m.seq <= hi) e.classList.add("in-range");
      if (bad.has(m.seq)) e.classList.add("bad");
      e.append(el("span", "t", ms(m.time)), el("b", "", "#" + m.seq + " "), el("span", "event", m.event === null ? "initial state" : (m.timer || m.event)));
      if (broken.has(m.seq)) {
        e.classList.add("broken");
        e.append(" ", el("span", "broken-note", "⚠ breaks " + broken.get(m.seq).join(", ")));
      }
      for (const line of m.diff || []) {
        if (line.startsWith("− ")) e.append("\n", el("span", "del", line));
        else if (line.startsWith("+ ")) e.append("\n", el("span", "ins", line));
      }
      e.onclick = ev => select(inst, m.seq, ev.shiftKey);
      return e;
    }
    case "run": return el("div", "entry run", "⟳ run " + m.phase + ": " + m.effect + " " + m.key + "  (after #" + m.seq + ")");
    case "timer": return el("div", "entry timer", "◷ timer " + m.phase + ": " + m.name + " at " + ms(m.deadline) + "  (after #" + m.seq + ")");
    case "child": return el("div", "entry child", "❐ child " + m.phase + ": " + m.child + "  (after #" + m.seq + ")");
    case "dropped": return el("div", "entry gap", "⋯ " + m.count + " messages dropped by the " + (m.by || "app") + "'s buffer");
    case "mismatch": return el("div", "entry gap", "✗ replay mismatch at #" + m.seq);
    case "invariant": return el("div", "entry invariant", "⚠ invariant '" + m.name + "' broken at #" + m.seq + ": " + m.expression + "  (" + (inst.hello ? inst.hello.spec : "spec") + ":" + m.line + (m.state ? ", in " + m.state : "") + ")");
    default: return el("div", "entry", JSON.stringify(m));
  }
}

// Time travel: a click shows that step (the diagram and the state then); shift-click selects
// a range of steps for the export.
function select(inst, seq, extend) {
  inst.live = false;
  if (extend && inst.from !== null) inst.to = seq; else { inst.from = seq; inst.to = seq; }
  inst.shown = seq;
  inst.dirty = true;
  render();
}

async function exportSteps(inst) {
  let from = 1, to = inst.lastSeq;
  if (inst.from !== null) { from = Math.max(1, Math.min(inst.from, inst.to)); to = Math.max(inst.from, inst.to); }
  const r = await fetch("/export?instance=" + encodeURIComponent(inst.name) + "&from=" + from + "&to=" + to + "&token=" + token);
  inst.panel.exported.textContent = await r.text();
  inst.panel.exported.classList.toggle("error", !r.ok);
}

// The run's token, from the address stateloop inspect printed: the server asks for it (I68).
const token = encodeURIComponent(new URLSearchParams(location.search).get("token") || "");

function connect() {
  const status = document.getElementById("status");
  const refused = "refused: open the address stateloop inspect printed (http://…/?token=…; the token is new each run)";
  if (!token) { status.textContent = refused; return; }
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/page?token=" + token);
  let opened = false;
  ws.onopen = () => { opened = true; status.textContent = "connected"; status.className = "connected"; };
  // Each frame is a batch: a JSON array of messages (I63).
  ws.onmessage = ev => receiveBatch(JSON.parse(ev.data));
  ws.onclose = () => {
    // Never opened: the server refused this page's token (I68), or is not there.
    status.textContent = opened ? "disconnected: reconnecting…" : refused + " (or the inspector is not running)"; status.className = "";
    // The server sends everything again: start afresh.
    instances.clear(); document.getElementById("instances").textContent = ""; received = 0;
    setTimeout(connect, 1000);
  };
}
connect();
</script>
</body>
</html>
"""#
}
