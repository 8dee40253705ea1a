// ragguard review: draws one card at a time from the server's JSON. Every text arrives as
// [text, kind] segments and is put into text nodes only (never markup), so nothing in a
// passage, an answer, an id or a note can run or load.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const cards = new Map();
  const skipped = new Set();
  const history = [];
  const pending = new Set();
  let saves = Promise.resolve();
  let current = null;
  let state = null;
  window.reviewTimings = [];

  function reviewer() { return $("reviewer").value.trim(); }
  function query() { return "?reviewer=" + encodeURIComponent(reviewer()); }

  function put(node, segments) {
    node.replaceChildren();
    for (const [text, kind] of segments) {
      if (kind === "mark") {
        const mark = document.createElement("mark");
        mark.textContent = text;
        node.append(mark);
      } else if (kind === "ctl") {
        const chip = document.createElement("span");
        chip.className = "ctl";
        chip.textContent = text;
        node.append(chip);
      } else {
        node.append(document.createTextNode(text));
      }
    }
  }

  async function getJSON(path) {
    const response = await fetch(path, { cache: "no-store" });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  async function card(number) {
    if (!cards.has(number)) cards.set(number, getJSON("api/card/" + number + query()));
    return cards.get(number);
  }

  function nextNumber(after) {
    if (!state || state.next === null) return null;
    const open = state.open.filter((n) => !pending.has(n));
    for (const n of open) if (n > after && !skipped.has(n)) return n;
    for (const n of open) if (!skipped.has(n)) return n;
    skipped.clear();
    return open.length ? open[0] : null;
  }

  function drawProgress() {
    const total = state.total || 1;
    let labelled = 0;
    for (const choice of ["supported", "unsupported", "not_a_claim"]) {
      const count = state.counts[choice];
      labelled += count;
      $("bar-" + choice).style.width = (100 * count / total) + "%";
    }
    $("progress-text").textContent = labelled + " of " + state.total + " labelled (" +
      state.counts.supported + " supported, " + state.counts.unsupported + " not supported, " +
      state.counts.not_a_claim + " not a claim) · design " + state.design + ", seed " + state.seed;
  }

  function drawCard(data) {
    current = data;
    $("card").hidden = false;
    $("done").hidden = true;
    $("card-number").textContent = String(data.number + 1);
    put($("trace-id"), data.trace_id);
    $("design").textContent = data.design;
    put($("query"), data.query);
    put($("answer"), data.answer);
    const word = $("verdict-word");
    word.textContent = data.supported === false ? "ragguard: not supported" : data.supported ? "ragguard: supported" : "ragguard: no verdict";
    word.className = data.supported === false ? "flag" : "ok";
    $("score").textContent = data.support === null ? "" :
      "support " + Number(data.support).toFixed(3) + " (threshold " + Number(data.threshold).toFixed(3) + ")";
    const reasons = $("reasons");
    reasons.replaceChildren();
    for (const reason of data.reasons) {
      const li = document.createElement("li");
      put(li, reason);
      reasons.append(li);
    }
    const others = data.labels.map((l) => (l.mine ? "you" : l.reviewer) + ": " + l.choice.replace(/_/g, " "));
    $("others").textContent = others.length ? "labels: " + others.join("; ") + (data.disagreement ? " (reviewers disagree)" : "") : "";
    $("others").className = data.disagreement ? "disagree" : "";
    const mine = data.labels.find((l) => l.mine);
    for (const choice of ["supported", "unsupported", "not_a_claim"]) {
      $("b-" + choice).classList.toggle("chosen", Boolean(mine && mine.choice === choice));
    }
    $("note").value = "";
    const items = $("items");
    items.replaceChildren();
    for (const item of data.items) {
      const li = document.createElement("li");
      if (item.evidence) li.className = "evidence";
      const id = document.createElement("span");
      id.className = "item-id";
      put(id, item.id);
      const text = document.createElement("span");
      put(text, item.text);
      li.append(id, document.createTextNode(" "), text);
      if (item.media && item.media.url) {
        const img = document.createElement("img");
        img.alt = "image of this item";
        img.src = item.media.url;
        li.append(img);
      } else if (item.media && item.media.note) {
        const note = document.createElement("span");
        note.className = "media-note";
        note.textContent = " (" + item.media.note + ")";
        li.append(note);
      }
      items.append(li);
    }
  }

  async function show(number, started) {
    if (number === null) {
      current = null;
      $("card").hidden = true;
      $("done").hidden = false;
      return;
    }
    drawCard(await card(number));
    if (started !== undefined) window.reviewTimings.push(performance.now() - started);
    const ahead = nextNumber(number);
    if (ahead !== null) card(ahead);
  }

  async function refreshState() {
    state = await getJSON("api/state" + query());
    drawProgress();
  }

  async function refreshSummary() {
    const figures = await getJSON("api/summary");
    const rows = [
      ["labels", figures.labels + " (" + Object.entries(figures.designs).map(([k, v]) => v + " " + k).join(", ") + ")"],
      ["reviewers", figures.reviewers.join(", ")],
      ["random spans with a label", String(figures.random_spans)],
      ["spans reviewers disagree on", String(figures.disagreements.length)],
      ["precision of the flags", estimate(figures.precision)],
      ["recall of unsupported claims", estimate(figures.recall)],
      ["balanced accuracy", estimate(figures.balanced_accuracy)],
      ["corrected unsupported-span rate", figures.rate.value === null ? "n/a" :
        estimate(figures.rate) + "; lite " + figures.rate.lite.toFixed(3) + " over " + figures.rate.n + " spans"],
    ];
    const body = $("figures").tBodies[0];
    body.replaceChildren();
    for (const [name, value] of rows) {
      const tr = document.createElement("tr");
      for (const text of [name, value]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      tr.dataset.figure = name;
      body.append(tr);
    }
    $("refit").textContent = figures.refit;
    $("reliability").src = "reliability.svg?n=" + figures.labels + "-" + Date.now();
  }

  function estimate(e) {
    if (e.value === null) return "n/a (n " + e.n + ")";
    return e.value.toFixed(3) + " (95% CI " + e.low.toFixed(3) + "-" + e.high.toFixed(3) + "; n " + e.n + ")";
  }

  function send(number, choice, hash, note) {
    // labels are sent one at a time, in the order made (an undo never overtakes its label)
    const sent = saves.then(() => post(number, choice, hash, note));
    saves = sent.catch(() => undefined);
    return sent;
  }

  async function post(number, choice, hash, note) {
    const response = await fetch("api/label", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ number, choice, hash, reviewer: reviewer(), note }),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    cards.delete(number);
    state = data;
    drawProgress();
  }

  async function label(choice) {
    // the next card is drawn at once (it was fetched ahead); the label is saved meanwhile
    if (!current) return;
    const started = performance.now();
    const number = current.number;
    $("status").textContent = "saving…";
    pending.add(number);
    history.push(number);
    const saving = send(number, choice, current.hash, $("note").value);
    await show(nextNumber(number), started);
    try {
      await saving;
      $("status").textContent = "saved: " + choice.replace(/_/g, " ");
    } catch (error) {
      history.pop();
      await show(number);
      throw new Error("card " + (number + 1) + " not saved: " + error.message);
    } finally {
      pending.delete(number);
    }
    refreshSummary();
  }

  async function skip() {
    if (!current) return;
    const started = performance.now();
    skipped.add(current.number);
    await show(nextNumber(current.number), started);
  }

  async function undo() {
    const number = history.pop();
    if (number === undefined) { $("status").textContent = "nothing to undo"; return; }
    const data = await card(number);
    await send(number, "undone", data.hash, "");
    skipped.delete(number);
    $("status").textContent = "undone";
    await show(number, performance.now());
    refreshSummary();
  }

  function guarded(action) {
    return () => action().catch((error) => { $("status").textContent = "error: " + error.message; });
  }

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target && (target.tagName === "TEXTAREA" || target.tagName === "INPUT")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = { s: () => label("supported"), n: () => label("unsupported"), o: () => label("not_a_claim"), " ": skip, u: undo };
    const action = keys[event.key];
    if (action) {
      event.preventDefault();
      guarded(action)();
    }
  });
  for (const choice of ["supported", "unsupported", "not_a_claim"]) {
    $("b-" + choice).addEventListener("click", guarded(() => label(choice)));
  }
  $("b-skip").addEventListener("click", guarded(skip));
  $("b-undo").addEventListener("click", guarded(undo));
  $("reviewer").addEventListener("change", guarded(async () => {
    cards.clear();
    skipped.clear();
    history.length = 0;
    await refreshState();
    await show(state.next);
  }));

  guarded(async () => {
    const first = await getJSON("api/state");
    $("reviewer").value = first.reviewer;
    state = first;
    drawProgress();
    await show(state.next);
    await refreshSummary();
    document.body.dataset.ready = "1";
  })();
})();
