(function () {
  "use strict";
  // The runs table's filters (both the server and the export).
  var runs = document.getElementById("runs");
  if (runs) {
    var selects = document.querySelectorAll("#run-filters select");
    var applyRuns = function () {
      var shown = 0;
      runs.querySelectorAll("tbody tr").forEach(function (row) {
        var ok = true;
        selects.forEach(function (s) {
          if (s.value && row.dataset[s.dataset.col] !== s.value) ok = false;
        });
        row.hidden = !ok;
        if (ok) shown++;
      });
      document.getElementById("shown-count").textContent = shown + " shown";
    };
    selects.forEach(function (s) { s.addEventListener("change", applyRuns); });
    applyRuns();
  }

  // An exported unit page: its search and filters open the unit's table (no server).
  var exported = document.querySelector("form[data-export]");
  if (exported) {
    exported.addEventListener("submit", function (event) {
      event.preventDefault();
      location.href = exported.getAttribute("action") + "#" + formQuery(exported);
    });
  }

  function formQuery(form) {
    var params = new URLSearchParams();
    new FormData(form).forEach(function (value, key) { if (value) params.set(key, value); });
    return params.toString();
  }

  // An exported unit's table of every sample: search, filters, order and pages, in the page.
  var source = document.getElementById("samples-data");
  if (!source) return;
  var data = JSON.parse(source.textContent);
  var form = document.getElementById("sample-filters");
  var body = document.querySelector("#sample-table tbody");
  var PAGE = 50, DAMAGED = 1, INVALID = 2, WRONG = 4;
  var state = {};

  function read() {
    var params = new URLSearchParams(location.hash.slice(1));
    state = {};
    params.forEach(function (value, key) { state[key] = value; });
    form.querySelectorAll("input, select").forEach(function (el) {
      if (el.type === "checkbox") el.checked = state[el.name] === "1";
      else if (el.name && el.type !== "hidden") el.value = state[el.name] || "";
    });
  }

  function number(text) {
    var value = parseFloat(text);
    return isNaN(value) ? null : value;
  }

  function selected() {
    var query = (state.q || "").toLowerCase();
    var label = state.label || "";
    var code = label ? data.labels.indexOf(label) : -1;
    var scorer = state.scorer ? data.scorers.indexOf(state.scorer) : -1;
    var low = number(state.min), high = number(state.max);
    var out = data.rows.filter(function (r) {
      if (state.wrong === "1" && !(r[4] & WRONG)) return false;
      if (state.invalid === "1" && !(r[4] & INVALID)) return false;
      if (state.damaged === "1" && !(r[4] & DAMAGED)) return false;
      if (label && (code < 0 || (r[5] !== code && r[6] !== code))) return false;
      if (low !== null || high !== null) {
        var value = scorer >= 0 ? r[11][scorer] : r[3];
        if (value === null || (low !== null && value < low) || (high !== null && value > high)) return false;
      }
      return !query || r[10].indexOf(query) !== -1;
    });
    var by = state.sort || "line", desc = state.desc === "1";
    var column = {line: 0, id: 1, score: 3}[by];
    var at = data.scorers.indexOf(by);
    if (column !== undefined || at >= 0) {
      var key = function (r) { return at >= 0 && column === undefined ? r[11][at] : r[column]; };
      out.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === null || y === null) return (x === null) - (y === null) || a[0] - b[0];
        var c = x < y ? -1 : x > y ? 1 : a[0] - b[0];
        return desc ? -c : c;
      });
    }
    return out;
  }

  function marked(text, query) {
    var cell = document.createElement("td");
    var lower = text.toLowerCase(), at = 0, found;
    while (query && (found = lower.indexOf(query, at)) !== -1) {
      cell.appendChild(document.createTextNode(text.slice(at, found)));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(found, found + query.length);
      cell.appendChild(mark);
      at = found + query.length;
    }
    cell.appendChild(document.createTextNode(text.slice(at)));
    return cell;
  }

  function render() {
    read();
    var rows = selected();
    var pages = Math.max(1, Math.ceil(rows.length / PAGE));
    var page = Math.min(Math.max(1, parseInt(state.page || "1", 10) || 1), pages);
    var query = (state.q || "").toLowerCase();
    body.textContent = "";
    rows.slice((page - 1) * PAGE, page * PAGE).forEach(function (r) {
      var tr = document.createElement("tr");
      tr.className = r[4] & WRONG ? "bad" : "good";
      tr.dataset.line = r[0];
      var first = document.createElement("td");
      var link = document.createElement("a");
      link.href = "page-" + (Math.floor(r[0] / data.page_size) + 1) + ".html#sample-" + r[0];
      link.textContent = r[0] + 1;
      first.appendChild(link);
      tr.appendChild(first);
      var id = document.createElement("td");
      id.textContent = r[1] + (r[2] !== null ? " r" + r[2] : "");
      tr.appendChild(id);
      [r[7], r[8], r[9]].forEach(function (text) { tr.appendChild(marked(text, query)); });
      var score = document.createElement("td");
      score.className = "num";
      score.textContent = r[3] === null ? "–" : r[3].toFixed(4);
      tr.appendChild(score);
      body.appendChild(tr);
    });
    document.getElementById("match-count").textContent = rows.length + " of " + data.rows.length + " samples";
    document.getElementById("page-of").textContent = "page " + page + " of " + pages;
    step("prev", page > 1 ? page - 1 : 0);
    step("next", page < pages ? page + 1 : 0);
    document.querySelectorAll("#sample-table a.sort").forEach(function (a) {
      var key = a.dataset.sort, now = (state.sort || "line") === key;
      a.parentNode.querySelector(".arrow").textContent = now ? (state.desc === "1" ? "▼" : "▲") : "";
    });
  }

  function go(changes) {
    var params = new URLSearchParams(location.hash.slice(1));
    Object.keys(changes).forEach(function (k) {
      if (changes[k]) params.set(k, changes[k]); else params.delete(k);
    });
    location.hash = params.toString();
  }

  function step(id, page) {
    var link = document.getElementById(id);
    link.hidden = !page;
    link.onclick = function (event) { event.preventDefault(); go({page: String(page)}); };
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    location.hash = formQuery(form);
  });
  document.querySelectorAll("#sample-table a.sort").forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      var key = a.dataset.sort, now = (state.sort || "line") === key;
      go({sort: key, desc: now && state.desc !== "1" ? "1" : "", page: ""});
    });
  });
  window.addEventListener("hashchange", render);
  render();
})();
