
// seed report's labelling: each page is marked relevant, not relevant or
// unlabelled with its radio inputs (or the keys y, n and u); the marks
// live in localStorage until exported as labels.jsonl, one
// {"url", "relevant", "title", "labelled_at"} object a line.
(() => {
  "use strict";
  const section = document.getElementById("labelling");
  if (!section) return;
  const items = Array.from(section.querySelectorAll("li[data-page]"));
  const count = document.getElementById("label-count");
  const status = document.getElementById("label-status");
  const storeKey = "focuscrawl-labels:" + section.dataset.key;
  const keys = { y: "yes", n: "no", u: "" };

  const stateOf = (li) => {
    const on = li.querySelector("input:checked");
    return on ? on.value : "";
  };
  const mark = (li, value) => {
    for (const input of li.querySelectorAll("input")) input.checked = input.value === value;
  };

  // The marks of an earlier visit: the states that differ from what the
  // page was made with, and when each was set.
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(storeKey) || "{}") || {};
  } catch (e) {
    saved = {};
  }
  for (const li of items) {
    const s = saved[li.dataset.page];
    if (s && typeof s.v === "string" && ["yes", "no", ""].includes(s.v)) {
      mark(li, s.v);
      li.dataset.at = s.t || "";
    }
  }

  const save = () => {
    const changed = {};
    for (const li of items) {
      const v = stateOf(li);
      if (v !== (li.dataset.prior || "")) changed[li.dataset.page] = { v: v, t: li.dataset.at || "" };
    }
    try {
      localStorage.setItem(storeKey, JSON.stringify(changed));
    } catch (e) {
      // No storage (a private window): the marks last as long as the page.
    }
  };

  const update = () => {
    let yes = 0, no = 0, open = 0, fresh = 0;
    for (const li of items) {
      const v = stateOf(li);
      if (v === "yes") yes++;
      else if (v === "no") no++;
      else if (!li.dataset.line) open++;
      if (!li.dataset.line) fresh++;
    }
    count.textContent = yes + " relevant, " + no + " not relevant: " + (yes + no) +
      " labels to export; " + open + " of the " + fresh + " pages of this sample unlabelled.";
  };

  const set = (li, value) => {
    mark(li, value);
    li.dataset.at = new Date().toISOString();
    save();
    update();
  };

  section.addEventListener("change", (ev) => {
    const li = ev.target.closest("li[data-page]");
    if (li) set(li, stateOf(li));
  });

  // y, n, u mark the page that holds the focus and move to the next one.
  section.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || !Object.hasOwn(keys, ev.key)) return;
    const li = ev.target.closest && ev.target.closest("li[data-page]");
    if (!li) return;
    ev.preventDefault();
    set(li, keys[ev.key]);
    const next = items[items.indexOf(li) + 1];
    if (next) (next.querySelector("input:checked") || next.querySelector("input")).focus();
  });

  // lines are the labels to export: those read from --labels first, in
  // their order and with their own fields (a changed one gets its new
  // verdict and time), then this sample's, as the page shows them.
  const lines = () => {
    const earlier = [], fresh = [];
    for (const li of items) {
      const v = stateOf(li);
      if (v === "") continue;
      const relevant = v === "yes";
      let rec;
      if (li.dataset.line) {
        rec = JSON.parse(li.dataset.line);
        if (rec.relevant !== relevant) {
          rec.relevant = relevant;
          rec.labelled_at = li.dataset.at || new Date().toISOString();
        }
        earlier.push(JSON.stringify(rec));
        continue;
      }
      rec = { url: li.dataset.page, relevant: relevant };
      if (li.dataset.title) rec.title = li.dataset.title;
      rec.labelled_at = li.dataset.at || new Date().toISOString();
      fresh.push(JSON.stringify(rec));
    }
    return earlier.concat(fresh);
  };

  document.getElementById("label-export").addEventListener("click", () => {
    const out = lines();
    const blob = new Blob(out.length ? [out.join("\n") + "\n"] : [], { type: "application/x-ndjson" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "labels.jsonl";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    status.textContent = "Exported " + out.length + " labels as labels.jsonl.";
  });

  section.querySelector(".label-bar").hidden = false;
  update();
})();
