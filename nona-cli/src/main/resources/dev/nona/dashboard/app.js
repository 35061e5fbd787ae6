// The live page: polls /api/state (one consistent snapshot of the topics) and renders it. No framework; uPlot draws.
"use strict";

const POLL_MS = 1000;
const COLORS = ["#4a78c2", "#d1603d", "#2e8b57", "#8a5cc2", "#c2a14a", "#3aa6b5", "#b03a6f", "#6b7385"];
let rateChart = null, rateKeys = "", jctChart = null, jctKeys = "";
let marks = [];

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function num(v, digits) {
  return v === null || v === undefined ? "–" : Number(v).toFixed(digits);
}

function ms(seconds) {
  return seconds === null || seconds === undefined ? "–" : (seconds * 1000).toFixed(1);
}

function time(millis) {
  return new Date(millis).toISOString().substring(11, 19);
}

function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
}

// Vertical lines at drift events (red) and table publications (grey), in the chart's x (epoch seconds).
function markPlugin() {
  return {
    hooks: {
      draw: [u => {
        const ctx = u.ctx, top = u.bbox.top, height = u.bbox.height;
        ctx.save();
        for (const m of marks) {
          const x = u.valToPos(m.timeMillis / 1000, "x", true);
          if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
          ctx.strokeStyle = m.kind === "DRIFT_DETECTED" ? "#b03a2e" : "#9aa1ad";
          ctx.lineWidth = m.kind === "DRIFT_DETECTED" ? 2 : 1;
          ctx.setLineDash(m.kind === "DRIFT_DETECTED" ? [] : [4, 3]);
          ctx.beginPath();
          ctx.moveTo(x, top);
          ctx.lineTo(x, top + height);
          ctx.stroke();
        }
        ctx.restore();
      }]
    }
  };
}

function renderRates(s) {
  const host = document.getElementById("rate-chart");
  const keys = Object.keys(s.rates.values);
  // The newest second is still filling: leave it out rather than draw every line dropping at the end.
  const data = [s.rates.seconds, ...keys.map(k => s.rates.values[k])].map(a => a.slice(0, -1));
  marks = s.marks;
  const width = Math.max(300, host.clientWidth - 4);
  if (rateChart === null || rateKeys !== keys.join()) {
    if (rateChart !== null) rateChart.destroy();
    rateKeys = keys.join();
    rateChart = new uPlot({
      width, height: 240, plugins: [markPlugin()], legend: { live: false },
      scales: { x: { time: true } },
      axes: [{}, { label: "requests/s" }],
      series: [{}, ...keys.map((k, i) => ({ label: k, stroke: COLORS[i % COLORS.length], width: 1.5 }))],
    }, data, host);
  } else {
    rateChart.setData(data);
  }
}

function renderJct(s) {
  const host = document.getElementById("jct-chart");
  const models = s.models.map(m => m.name);
  const data = [models.map((_, i) => i),
    s.models.map(m => m.predictedMeanJctSeconds === null ? null : m.predictedMeanJctSeconds * 1000),
    s.models.map(m => m.observedMeanJctSeconds === null ? null : m.observedMeanJctSeconds * 1000)];
  const width = Math.max(300, host.clientWidth - 4);
  if (jctChart === null || jctKeys !== models.join()) {
    if (jctChart !== null) jctChart.destroy();
    jctKeys = models.join();
    const bars = side => uPlot.paths.bars({ size: [0.35, 40], align: side });
    jctChart = new uPlot({
      width, height: 180, legend: { live: false },
      scales: { x: { time: false, range: (u, min, max) => [min - 0.5, max + 0.5] }, y: { range: (u, min, max) => [0, Math.max(1, max * 1.1)] } },
      axes: [{ values: (u, splits) => splits.map(v => Number.isInteger(v) ? (models[v] || "") : ""), splits: () => models.map((_, i) => i) },
             { label: "mean JCT (ms)" }],
      series: [{ label: "model" }, { label: "predicted", fill: "#4a78c2", stroke: "#4a78c2", paths: bars(-1), points: { show: false } },
                   { label: "observed", fill: "#d1603d", stroke: "#d1603d", paths: bars(1), points: { show: false } }],
    }, data, host);
  } else {
    jctChart.setData(data);
  }
}

function renderModels(s) {
  fill(document.querySelector("#models tbody"), s.models.map(m => el("tr", { "data-model": m.name },
    el("td", {}, m.name),
    el("td", { class: "decisions" }, m.decisions),
    el("td", { class: "rate" }, num(m.ratePerSecond, 1)),
    el("td", { class: "table-rate" }, num(m.tableRatePerSecond, 1)),
    el("td", { class: "outcomes" }, m.outcomes),
    el("td", { class: "jct-requests" }, m.jctRequests),
    el("td", { class: "predicted" }, ms(m.predictedMeanJctSeconds)),
    el("td", { class: "observed" }, ms(m.observedMeanJctSeconds)),
    el("td", { class: "ratio" }, num(m.observedOverPredicted, 2)),
    el("td", { class: "calibration" }, num(m.calibrationRatio, 2)))));
  document.querySelectorAll(".jct-window").forEach(e => { e.textContent = s.jctWindowSeconds; });
}

function renderServers(s) {
  fill(document.querySelector("#servers tbody"), s.servers.map(v => el("tr", { "data-server": v.id },
    el("td", {}, v.id),
    el("td", {}, el("span", { class: "state " + v.state }, v.state)),
    el("td", { class: "stages" }, num(v.stagesPerSecond, 0)),
    el("td", { class: "requests" }, num(v.requestsPerSecond, 1)),
    el("td", {}, v.ongoingRequests),
    el("td", { class: "text" }, v.warmModels.concat(v.partlyHeldModels.map(m => m + " (part)")).join(", ")))));
  document.getElementById("drained").textContent = s.drained;
}

function renderTable(t, role) {
  const card = el("div", { class: "table-card", "data-role": role, "data-version": t.version },
    el("h3", {}, role + " table: version " + t.version + (t.fallback ? " (fallback)" : "")),
    el("div", { class: "meta", title: t.cause }, "published " + time(t.createdAt) + " · cause: "
      + (t.cause.length > 100 ? t.cause.substring(0, 97) + "…" : t.cause) + " · link load ρ " + num(t.linkLoad, 3)));
  for (const m of t.models) {
    const box = el("div", { class: "model" }, el("span", { class: "name" }, m.name),
      " at " + num(m.ratePerSecond, 1) + " req/s, predicted JCT " + ms(m.predictedJctSeconds) + " ms");
    if (m.subgraphs.length === 0 && !t.fallback) {
      box.append(el("div", { class: "choice" }, el("div", {}), el("div", { class: "parts" }, "no subgraph to split: the DAG contracts to one part")));
    }
    m.subgraphs.forEach((g, i) => {
      for (const c of g.choices) {
        const parts = c.parts.map(p => "[" + p.join(" ") + "]").join(" ");
        box.append(el("div", { class: "choice" },
          el("div", { class: "prob" }, (c.probability * 100).toFixed(1) + "%"),
          el("div", {}, el("div", { class: "bar", style: "width:" + Math.max(1, c.probability * 100) + "%" }),
            el("div", { class: "parts", title: parts }, "subgraph " + (i + 1) + ": " + (parts || "one part")))));
      }
      if (g.omitted > 0) box.append(el("div", { class: "choice" }, el("div", {}), el("div", { class: "parts" }, "+ " + g.omitted + " less likely choices")));
    });
    card.append(box);
  }
  return card;
}

function renderTables(s) {
  const host = document.getElementById("tables");
  if (s.tables.length === 0) {
    host.replaceChildren(el("p", { class: "note" }, "no table published yet"));
    return;
  }
  const cards = s.tables.map((t, i) => renderTable(t, i === 0 ? "current" : "previous"));
  if (cards.length === 1) cards.push(el("p", { class: "note" }, "no previous table: the controller has published one table (re-solved tables that do not beat it are rejected, see the events)"));
  host.replaceChildren(...cards);
}

function renderEvents(s) {
  fill(document.getElementById("events"), s.events.map(e => {
    const details = Object.entries(e.details).slice(0, 6).map(([k, v]) => k + "=" + (typeof v === "number" ? +v.toFixed(4) : v)).join(" ");
    return el("li", { class: e.type }, time(e.time) + " ", el("span", { class: "type" }, e.type), " " + details);
  }));
}

function renderStatus(s) {
  const current = s.tables.length > 0 ? s.tables[0].version : "none";
  const status = document.getElementById("status");
  status.replaceChildren("Kafka " + s.bootstrap + " · table version ", el("span", { id: "table-version" }, current),
    " · updated " + time(s.generatedAt));
  const broker = document.getElementById("broker");
  broker.hidden = s.broker.connected;
  broker.textContent = s.broker.connected ? "" : s.broker.sinceMillis === 0 ? "connecting to Kafka " + s.bootstrap + " …"
    : "no connection to Kafka " + s.bootstrap + " since " + time(s.broker.sinceMillis)
      + ": the figures are those read before (last record " + (s.broker.lastRecordAt ? time(s.broker.lastRecordAt) : "none")
      + "), and servers show silent because their reports cannot be read";
  document.getElementById("totals").textContent = Object.entries(s.totals).map(([k, v]) => k + " " + v).join(" · ");
  fill(document.getElementById("positions"), Object.entries(s.positions).map(([tp, o]) => el("li", { "data-tp": tp }, tp + " " + o)));
  document.body.dataset.generatedAt = s.generatedAt;
}

async function poll() {
  try {
    const response = await fetch("/api/state", { cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    const s = await response.json();
    renderStatus(s);
    renderModels(s);
    renderServers(s);
    renderTables(s);
    renderEvents(s);
    renderRates(s);
    renderJct(s);
  } catch (e) {
    document.getElementById("status").textContent = "cannot read /api/state: " + e.message;
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

poll();
