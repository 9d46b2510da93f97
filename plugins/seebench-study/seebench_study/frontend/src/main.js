// The participant's side of a seebench study: consent, pre-survey, coding tasks with an
// editor (inline suggestions or a chat panel, by condition), post-survey and end code.
// All model calls and code runs go to the server; the browser never holds a key.
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { indentUnit, syntaxHighlighting, defaultHighlightStyle } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { Telemetry } from "./telemetry.js";
import { showSuggestion, suggestionExtension, suggestionField } from "./suggestions.js";

const STATE_KEY = "seebench-study-state";
const $ = (id) => document.getElementById(id);
let config = null;
let state = null;
let telemetry = null;
let editor = null;
// Text copied inside the page (editor or chat), the only text that may be pasted; kept in the
// saved state with the chat, so both survive a reload.
const CLIPBOARD_KEEP = 50;

function rememberCopy(text) {
  state.copied = [...(state.copied || []).filter((t) => t !== text), text].slice(-CLIPBOARD_KEEP);
  saveState();
}
let timers = [];

function saveState() {
  localStorage.setItem(STATE_KEY, JSON.stringify(state));
}

async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(reply.error || `HTTP ${response.status}`);
  return reply;
}

function show(section) {
  for (const el of document.querySelectorAll("main > section")) el.hidden = el.id !== section;
  state.phase = section;
  saveState();
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

// -- start and resume -----------------------------------------------------------------------

async function start() {
  const saved = JSON.parse(localStorage.getItem(STATE_KEY) || "null");
  const params = new URLSearchParams(location.search);
  let reply = null;
  if (saved && saved.session) {
    try {
      reply = await api(`api/session/${saved.session}`);
      state = saved;
    } catch (error) {
      reply = null;
    }
  }
  if (!reply) {
    reply = await api("api/session", { participant: params.get("participant") || "" });
    // a participant code already used (another browser) resumes that session at its start
    state = { session: reply.session, phase: reply.finished ? "done" : "consent", taskIndex: 0, code: {}, taskStartedAt: null, startedAt: null };
    saveState();
  }
  config = reply;
  telemetry = new Telemetry(state.session);
  if (reply.resumed === false) {
    telemetry.log("session_started", {
      condition: config.condition,
      kind: config.kind,
      task_set: config.task_set,
      user_agent: navigator.userAgent,
    });
  }
  for (const message of state.chat || []) {
    if (message.role === "user") $("chat-log").append(el("div", { class: "msg user" }, message.content));
    else renderReply(message.content, message.id);
  }
  $("chat-log").addEventListener("copy", onChatCopy);
  $("chat-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) sendChat(event);
  });
  $("hints").textContent = HINTS[config.kind] || "";
  document.body.dataset.kind = config.kind;
  document.body.dataset.session = state.session;
  $("study-title").textContent = config.title;
  renderInstructions();
  if (state.phase === "declined") declined();
  else if (state.phase === "consent") show("consent");
  else if (state.phase === "pre") renderSurvey("pre");
  else if (state.phase === "task") openTask(state.taskIndex, true);
  else if (state.phase === "post") renderSurvey("post");
  else if (state.phase === "done") renderDone(state.endCode);
  setInterval(() => telemetry.flush(), 2000);
  setInterval(updatePending, 500);
}

function updatePending() {
  $("pending").textContent = telemetry.pending() ? `saving ${telemetry.pending()}…` : "saved";
}

function renderInstructions() {
  $("instructions").textContent = config.instructions;
  $("consent-text").textContent = config.consent;
  $("consent-accept").onclick = () => {
    telemetry.log("consent", { accepted: true });
    renderSurvey("pre");
  };
  $("consent-decline").onclick = () => {
    telemetry.log("consent", { accepted: false });
    declined();
  };
}

function declined() {
  $("consent").replaceChildren(el("p", {}, "You declined to take part. You may close this page."));
  show("consent");
  state.phase = "declined";
  saveState();
}

const HINTS = {
  autocomplete: "Suggestions appear in grey after a 2-second pause or with Ctrl+Enter (Cmd+Enter on a Mac): Tab accepts, Esc dismisses.",
  chat: "Ask the assistant on the right (Enter sends, Shift+Enter starts a new line); Copy puts its code on your clipboard.",
  none: "",
};

// -- surveys ----------------------------------------------------------------------------------

function renderSurvey(which) {
  const items = config.surveys[which] || [];
  if (items.length === 0) return which === "pre" ? openTask(state.taskIndex) : finish();
  const form = $(`survey-form`);
  form.replaceChildren();
  $("survey-title").textContent = which === "pre" ? "Before you start" : "After the study";
  for (const item of items) {
    const name = `q-${item.id}`;
    let input;
    if (item.kind === "scale") {
      // no default answer: the slider counts only once it is moved (its value shows then)
      const slider = el("input", { type: "range", min: item.min, max: item.max, name, id: name, class: "untouched" });
      const value = el("output", { for: name, class: "scale-value" }, "not answered");
      const touch = () => {
        slider.dataset.answered = "1";
        slider.classList.remove("untouched");
        value.textContent = slider.value;
      };
      slider.addEventListener("input", touch);
      slider.addEventListener("change", touch);
      input = el("span", { class: "scale" }, el("small", { class: "scale-low" }, `${item.min} ${item.low || ""}`.trim()), slider, el("small", { class: "scale-high" }, `${item.max} ${item.high || ""}`.trim()), value);
    } else if (item.kind === "choice") {
      input = el("select", { name, id: name }, el("option", { value: "" }, "—"), ...item.options.map((o) => el("option", { value: o }, o)));
    } else {
      input = el("textarea", { name, id: name, rows: 2 });
    }
    form.append(el("label", { class: "question" }, el("span", {}, item.text + (item.required ? " *" : "")), input));
  }
  const error = el("p", { class: "error", id: "survey-error" });
  form.append(error, el("button", { type: "submit", id: "survey-submit" }, "Continue"));
  form.onsubmit = (event) => {
    event.preventDefault();
    const answers = [];
    for (const item of items) {
      const field = form.elements[`q-${item.id}`];
      const raw = item.kind === "scale" && !field.dataset.answered ? "" : field.value.trim();
      if (item.required && raw === "") {
        error.textContent = `Please answer: ${item.text}`;
        return;
      }
      if (raw !== "") answers.push([item.id, item.kind === "scale" ? Number(raw) : raw]);
    }
    for (const [id, answer] of answers) telemetry.log("survey_answer", { survey: which, item: id, answer });
    if (which === "pre") openTask(state.taskIndex);
    else finish();
  };
  show("survey");
  state.surveyPhase = which;
  state.phase = which;
  saveState();
  for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== "survey";
}

// -- tasks ------------------------------------------------------------------------------------

function clearTimers() {
  for (const t of timers) clearInterval(t);
  timers = [];
  $("timer").textContent = "";
}

function openTask(index, resumed = false) {
  clearTimers();
  if (index >= config.tasks.length) {
    telemetry.task = null;
    return renderSurvey("post");
  }
  const task = config.tasks[index];
  const tutorial = isTutorial(index);
  state.taskIndex = index;
  // the session clock starts after the tutorial
  if (!state.startedAt && !tutorial) state.startedAt = Date.now();
  if (!resumed || !state.taskStartedAt) state.taskStartedAt = Date.now();
  telemetry.task = task.name;
  if (!resumed) telemetry.log("load_task", tutorial ? { task: task.name, index, tutorial: true } : { task: task.name, index });
  show("task");
  const counted = config.tasks.length - (config.tutorial && config.tasks[0].name === config.tutorial ? 1 : 0);
  const offset = counted === config.tasks.length ? 1 : 0;
  $("task-title").textContent = tutorial ? "Tutorial task (not timed)" : `Task ${index + offset} of ${counted}`;
  $("task-description").textContent = task.description;
  $("output").textContent = "";
  $("output").className = "";
  const code = state.code[task.name] ?? task.starter;
  makeEditor(code);
  $("chat").hidden = config.kind !== "chat";
  $("skip").hidden = true;
  timers.push(setInterval(tick, 1000));
  timers.push(setInterval(() => telemetry.log("snapshot", { code: currentCode() }), config.snapshot_s * 1000));
  tick();
}

function isTutorial(index) {
  return Boolean(config.tutorial) && index === 0 && config.tasks[0].name === config.tutorial;
}

function currentCode() {
  return editor.state.doc.toString();
}

function tick() {
  const now = Date.now();
  $("skip").hidden = now - state.taskStartedAt < config.skip_after_s * 1000;
  if (!state.startedAt) {
    $("timer").textContent = "tutorial: the clock starts after it";
    return;
  }
  const left = Math.max(0, config.session_s * 1000 - (now - state.startedAt));
  const minutes = Math.floor(left / 60000);
  const seconds = Math.floor((left % 60000) / 1000);
  $("timer").textContent = `${minutes}:${String(seconds).padStart(2, "0")} left`;
  if (left === 0) endTask("timeout");
}

function endTask(outcome) {
  const task = config.tasks[state.taskIndex];
  telemetry.log("task_finished", { outcome });
  delete state.code[task.name];
  if (outcome === "timeout") {
    clearTimers();
    telemetry.task = null;
    return renderSurvey("post");
  }
  openTask(state.taskIndex + 1);
}

function makeEditor(code) {
  const onChange = EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    state.code[config.tasks[state.taskIndex].name] = update.state.doc.toString();
    saveState();
    if (config.kind === "autocomplete") scheduleAuto();
  });
  const extensions = [
    lineNumbers(),
    highlightActiveLine(),
    history(),
    indentUnit.of("    "),
    python(),
    syntaxHighlighting(defaultHighlightStyle),
    EditorView.domEventHandlers({ paste: onPaste, copy: onCopy, cut: onCopy, drop: (e) => (e.preventDefault(), true) }),
    onChange,
  ];
  if (config.kind === "autocomplete") extensions.push(suggestionExtension(onDecision, () => requestSuggestion("hotkey")));
  extensions.push(keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]));
  const holder = $("editor");
  holder.replaceChildren();
  editor = new EditorView({ state: EditorState.create({ doc: code, extensions }), parent: holder });
  window.studyEditor = editor;
}

function onCopy(event, view) {
  const text = view.state.sliceDoc(view.state.selection.main.from, view.state.selection.main.to);
  if (text) rememberCopy(text);
  return false;
}

function onPaste(event) {
  const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
  const fromApp = (state.copied || []).includes(text);
  telemetry.log("paste", { length: text.length, blocked: !fromApp, source: fromApp ? "app" : "external" });
  if (fromApp) return false; // the editor pastes it
  event.preventDefault();
  flash("Pasting from outside the study is not allowed.");
  return true;
}

function flash(message, kind = "warning") {
  $("notice").textContent = message;
  $("notice").className = kind;
  setTimeout(() => ($("notice").textContent = ""), 4000);
}

// Text selected in a chat answer and copied (Ctrl+C or the menu): allowed, logged, pastable.
function onChatCopy() {
  const selection = document.getSelection();
  const text = selection ? selection.toString() : "";
  if (!text) return;
  const node = selection.anchorNode && (selection.anchorNode.nodeType === 1 ? selection.anchorNode : selection.anchorNode.parentElement);
  const box = node && node.closest(".msg.assistant");
  rememberCopy(text);
  telemetry.log("chat_copy_code", { message_id: (box && box.dataset.id) || "m-unknown", code: text, how: "selection" });
}

// -- autocomplete -----------------------------------------------------------------------------

let autoTimer = null;
let pendingRequest = null;

function scheduleAuto() {
  clearTimeout(autoTimer);
  autoTimer = setTimeout(() => {
    if (editor.hasFocus && !editor.state.field(suggestionField)) requestSuggestion("auto");
  }, config.suggestion.pause_ms);
}

async function requestSuggestion(trigger) {
  if (editor.state.field(suggestionField) || pendingRequest) return;
  const pos = editor.state.selection.main.head;
  const doc = editor.state.doc.toString();
  const requestId = `r-${crypto.randomUUID()}`;
  const prefix = doc.slice(0, pos);
  const suffix = doc.slice(pos);
  const started = Date.now();
  pendingRequest = requestId;
  $("suggest-status").textContent = "thinking…";
  let reply;
  try {
    reply = await api("api/suggest", { session: state.session, request_id: requestId, prefix, suffix });
  } catch (error) {
    pendingRequest = null;
    $("suggest-status").textContent = "";
    return;
  }
  pendingRequest = null;
  $("suggest-status").textContent = "";
  telemetry.log("suggestion_requested", { request_id: requestId, prefix, suffix, trigger, max_tokens: reply.max_tokens }, started);
  const stale = editor.state.doc.toString() !== doc || editor.state.selection.main.head !== pos;
  if (stale || !reply.suggestion) return;
  telemetry.log("suggestion_shown", { request_id: requestId, suggestion: reply.suggestion, latency_ms: Date.now() - started });
  editor.dispatch({ effects: showSuggestion.of({ text: reply.suggestion, pos, requestId }) });
}

function onDecision(kind, current, reason) {
  if (kind === "accepted") {
    telemetry.log("suggestion_accepted", { request_id: current.requestId, suggestion: current.text });
  } else {
    telemetry.log("suggestion_rejected", { request_id: current.requestId, suggestion: current.text, reason });
  }
}

// -- chat -------------------------------------------------------------------------------------

function renderReply(text, messageId) {
  const box = el("div", { class: "msg assistant" });
  box.dataset.id = messageId || "m-unknown";
  const parts = text.split(/```[a-zA-Z0-9_+-]*\n?/);
  parts.forEach((part, i) => {
    if (i % 2 === 0) {
      if (part.trim()) box.append(el("p", {}, part.trim()));
      return;
    }
    const code = part.replace(/\n$/, "");
    const copy = el("button", { class: "copy", type: "button" }, "Copy");
    copy.onclick = () => {
      rememberCopy(code);
      if (navigator.clipboard) navigator.clipboard.writeText(code).catch(() => {});
      telemetry.log("chat_copy_code", { message_id: messageId, code, how: "button" });
      copy.textContent = "Copied";
    };
    box.append(el("div", { class: "code" }, copy, el("pre", {}, code)));
  });
  $("chat-log").append(box);
  box.scrollIntoView();
}

async function sendChat(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text) return;
  input.value = "";
  const messageId = `m-${crypto.randomUUID()}`;
  telemetry.log("chat_user_message", { message_id: messageId, text, code: currentCode() });
  $("chat-log").append(el("div", { class: "msg user" }, text));
  state.chat = [...(state.chat || []), { role: "user", content: text }];
  saveState();
  const started = Date.now();
  $("chat-send").disabled = true;
  try {
    const messages = state.chat.map(({ role, content }) => ({ role, content }));
    const reply = await api("api/chat", { session: state.session, messages });
    const replyId = `m-${crypto.randomUUID()}`;
    state.chat.push({ role: "assistant", content: reply.text, id: replyId });
    saveState();
    telemetry.log("chat_assistant_response", { message_id: replyId, reply_to: messageId, text: reply.text, latency_ms: Date.now() - started });
    renderReply(reply.text, replyId);
  } catch (error) {
    // the server's neutral message (it never names the model)
    $("chat-log").append(el("div", { class: "msg error" }, error.message));
  }
  $("chat-send").disabled = false;
}

// -- run, submit, skip ------------------------------------------------------------------------

async function execute(mode) {
  const task = config.tasks[state.taskIndex];
  const code = currentCode();
  $("output").textContent = mode === "run" ? "running…" : "checking…";
  $("output").className = "";
  for (const b of document.querySelectorAll(".actions button")) b.disabled = true;
  let reply;
  try {
    reply = await api("api/execute", { session: state.session, task: task.name, code, mode });
  } catch (error) {
    reply = { passed: false, output: `could not run: ${error.message}` };
  }
  for (const b of document.querySelectorAll(".actions button")) b.disabled = false;
  // the server records the verdict itself (a run or submit event of its own)
  $("output").textContent = reply.output || (reply.passed ? "(no output)" : "");
  $("output").className = reply.passed ? "passed" : "failed";
  if (mode === "submit") {
    if (reply.passed) {
      flash("Correct! On to the next task.", "ok");
      endTask("passed");
    } else {
      $("output").textContent = `Not correct yet.\n${reply.output}`;
    }
  }
}

function skip() {
  telemetry.log("skip", { elapsed_s: Math.round((Date.now() - state.taskStartedAt) / 1000) });
  endTask("skipped");
}

// -- the end ----------------------------------------------------------------------------------

async function finish() {
  clearTimers();
  telemetry.task = null;
  const reply = await api(`api/session/${state.session}/finish`, {});
  telemetry.log("session_finished", { end_code: reply.end_code });
  state.endCode = reply.end_code;
  renderDone(reply.end_code);
}

function renderDone(code) {
  $("end-code").textContent = code;
  if (config.completion_url && code) {
    // back to the recruitment platform, with the end code when the URL asks for it
    const link = $("completion-link");
    link.href = config.completion_url.replace("{end_code}", encodeURIComponent(code));
    link.hidden = false;
  }
  show("done");
}

window.addEventListener("DOMContentLoaded", () => {
  $("run").onclick = () => execute("run");
  $("submit").onclick = () => execute("submit");
  $("skip").onclick = skip;
  $("chat-form").onsubmit = sendChat;
  window.studyTelemetry = () => telemetry;
  start().catch((error) => {
    document.body.prepend(el("p", { class: "error" }, `The study could not start: ${error.message}`));
  });
});
