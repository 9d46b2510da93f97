// The participant's side of a seebench study: consent, screening, pre-survey, coding tasks
// with an editor (inline suggestions or a chat panel, by condition), post-survey and end code.
// The server keeps the participant's place (seebench_study/protocol.py): this page draws the
// place the server says, asks the server for every step, and saves the editor's contents
// there, so the participant resumes in any browser. Only one tab drives a session: another
// tab offers to take over, and a tab that lost the session freezes. All model calls and code
// runs go to the server; the browser never holds a key.
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, highlightActiveLine } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { indentUnit, syntaxHighlighting, defaultHighlightStyle } from "@codemirror/language";
import { python } from "@codemirror/lang-python";
import { marked } from "marked";
import DOMPurify from "dompurify";
import { Telemetry } from "./telemetry.js";
import { showSuggestion, suggestionExtension, suggestionField } from "./suggestions.js";

const STATE_KEY = "seebench-study-state";
// This tab's id for the protocol: kept across reloads of the tab (sessionStorage), new in
// every other tab or window; telemetry numbers each page load's events in its own namespace.
const TAB_KEY = "seebench-study-tab";
const TAB = sessionStorage.getItem(TAB_KEY) || crypto.randomUUID();
sessionStorage.setItem(TAB_KEY, TAB);
const HEARTBEAT_MS = 3000;
const SAVE_AFTER_MS = 800;
// What a participant reads when the assistant fails (the server's 503 says the same).
const UNAVAILABLE = "The assistant is not available right now. Please continue without it.";
const OTHER_TAB = "this study continues in another tab or window";
const $ = (id) => document.getElementById(id);
let config = null;
let progress = null;
let local = null; // {session, copied}: what this browser keeps (the place is on the server)
let telemetry = null;
let editor = null;
let frozen = false;
let timers = [];
let clockEnd = null; // Date.now() value when the session clock runs out (null: not started)
let taskStartedAt = null;
let shownTask = null;
const CLIPBOARD_KEEP = 50;

function saveLocal() {
  localStorage.setItem(STATE_KEY, JSON.stringify(local));
}

// Text copied inside the page (editor or chat), the only text that may be pasted.
function rememberCopy(text) {
  local.copied = [...(local.copied || []).filter((t) => t !== text), text].slice(-CLIPBOARD_KEEP);
  saveLocal();
}

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    if (response.status === 409 && reply.error === OTHER_TAB) freeze();
    throw new ApiError(response.status, reply.error || `HTTP ${response.status}`);
  }
  return reply;
}

// A protocol step: POST to the session's endpoint with this tab, then draw the new place.
async function step(action, body = {}) {
  const reply = await api(`api/session/${local.session}/${action}`, { tab: TAB, ...body });
  render(reply.progress);
  return reply;
}

function show(section) {
  for (const node of document.querySelectorAll("main > section")) node.hidden = node.id !== section;
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

// -- start, resume, tabs --------------------------------------------------------------------

async function start() {
  local = JSON.parse(localStorage.getItem(STATE_KEY) || "null") || {};
  const participant = new URLSearchParams(location.search).get("participant") || "";
  let reply = null;
  if (local.session && !participant) {
    reply = await api(`api/session/${local.session}?tab=${TAB}`).catch(() => null);
  }
  if (!reply) reply = await api("api/session", { participant, tab: TAB });
  if (reply.session !== local.session) local = { session: reply.session, copied: [] };
  saveLocal();
  config = reply;
  telemetry = new Telemetry(local.session);
  for (const message of reply.progress.chat || []) drawMessage(message);
  $("chat-log").addEventListener("copy", onChatCopy);
  $("chat-input").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) sendChat(event);
  });
  $("hints").textContent = HINTS[config.kind] || "";
  document.body.dataset.kind = config.kind;
  document.body.dataset.session = local.session;
  document.body.dataset.tab = TAB;
  $("study-title").textContent = config.title;
  $("instructions").textContent = config.instructions;
  $("consent-text").textContent = config.consent;
  $("consent-accept").onclick = () => step("consent", { accepted: true }).catch(complain);
  $("consent-decline").onclick = () => step("consent", { accepted: false }).catch(complain);
  $("takeover").onclick = takeOver;
  if (reply.progress.active) render(reply.progress);
  else freeze();
  setInterval(() => telemetry.flush(), 2000);
  setInterval(updatePending, 500);
  setInterval(heartbeat, HEARTBEAT_MS);
}

function complain(error) {
  if (error.status !== 409 || error.message !== OTHER_TAB) flash(error.message);
}

// Tell the server this tab is alive, and follow its place (a clock that ran out).
async function heartbeat() {
  if (frozen) return;
  const reply = await api(`api/session/${local.session}?tab=${TAB}`).catch(() => null);
  if (!reply) return;
  if (!reply.progress.active) return freeze();
  if (reply.progress.phase !== progress.phase || reply.progress.task_index !== progress.task_index) render(reply.progress);
}

// Another tab holds the session: stop, and offer to continue here.
function freeze() {
  frozen = true;
  clearTimers();
  if (editor) editor.contentDOM.setAttribute("contenteditable", "false");
  $("frozen").hidden = false;
  document.body.dataset.frozen = "1";
}

async function takeOver() {
  const reply = await api(`api/session/${local.session}/claim`, { tab: TAB });
  frozen = false;
  $("frozen").hidden = true;
  delete document.body.dataset.frozen;
  shownTask = null; // draw the task again, with the code the other tab saved
  render(reply.progress);
}

function updatePending() {
  $("pending").textContent = telemetry.pending() ? `saving ${telemetry.pending()}…` : "saved";
}

const HINTS = {
  autocomplete: "Suggestions appear in grey after a 2-second pause or with Ctrl+Enter (Cmd+Enter on a Mac): Tab accepts, Esc dismisses.",
  chat: "Ask the assistant on the right (Enter sends, Shift+Enter starts a new line); Copy puts its code on your clipboard.",
  none: "",
};

// Draw the place the server says the participant is at.
function render(next) {
  progress = next;
  document.body.dataset.phase = next.phase;
  if (next.phase !== "task") {
    clearTimers();
    shownTask = null;
    telemetry.task = null;
  }
  if (next.phase === "consent") show("consent");
  else if (next.phase === "declined") ended("You declined to take part. You may close this page.");
  else if (next.phase === "screened_out") ended("Thank you. This study is looking for other participants, so it ends here for you. You may close this page.");
  else if (["screening", "pre", "post"].includes(next.phase)) renderSurvey(next.phase, next.items);
  else if (next.phase === "task") openTask(next);
  else if (next.phase === "done") renderDone(next.end_code);
}

function ended(text) {
  $("consent").replaceChildren(el("p", { id: "ended" }, text));
  show("consent");
}

// -- surveys ----------------------------------------------------------------------------------

const SURVEY_TITLES = { screening: "A few questions first", pre: "Before you start", post: "After the study" };

function scaleInput(item, name) {
  // no default answer: the thumb is hidden at the middle until it is moved (its value shows then)
  const slider = el("input", { type: "range", min: item.min, max: item.max, name, id: name, class: "untouched" });
  slider.value = String(Math.round((item.min + item.max) / 2));
  const value = el("output", { for: name, class: "scale-value" }, "not answered");
  const touch = () => {
    slider.dataset.answered = "1";
    slider.classList.remove("untouched");
    value.textContent = slider.value;
  };
  slider.addEventListener("input", touch);
  slider.addEventListener("change", touch);
  return el("span", { class: "scale" }, el("small", { class: "scale-low" }, `${item.min} ${item.low || ""}`.trim()), slider, el("small", { class: "scale-high" }, `${item.max} ${item.high || ""}`.trim()), value);
}

function renderSurvey(which, items) {
  const form = $("survey-form");
  form.replaceChildren();
  $("survey-title").textContent = SURVEY_TITLES[which];
  for (const item of items) {
    const name = `q-${item.id}`;
    let input;
    if (item.kind === "scale") input = scaleInput(item, name);
    else if (item.kind === "choice") input = el("select", { name, id: name }, el("option", { value: "" }, "—"), ...item.options.map((o) => el("option", { value: o }, o)));
    else input = el("textarea", { name, id: name, rows: 2 });
    form.append(el("label", { class: "question" }, el("span", {}, item.text + (item.required ? " *" : "")), input));
  }
  const error = el("p", { class: "error", id: "survey-error" });
  form.append(error, el("button", { type: "submit", id: "survey-submit" }, "Continue"));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const answers = {};
    for (const item of items) {
      const field = form.elements[`q-${item.id}`];
      const raw = item.kind === "scale" && !field.dataset.answered ? "" : field.value.trim();
      if (item.required && raw === "") {
        error.textContent = `Please answer: ${item.text}`;
        return;
      }
      if (raw !== "") answers[item.id] = item.kind === "scale" ? Number(raw) : raw;
    }
    $("survey-submit").disabled = true;
    try {
      await step("survey", { survey: which, answers });
    } catch (problem) {
      error.textContent = problem.message;
      $("survey-submit").disabled = false;
    }
  };
  show("survey");
}

// -- tasks ------------------------------------------------------------------------------------

function clearTimers() {
  for (const t of timers) clearInterval(t);
  timers = [];
  $("timer").textContent = "";
}

function openTask(next) {
  const index = next.task_index;
  const task = config.tasks[index];
  taskStartedAt = Date.now() - next.task_elapsed_ms;
  clockEnd = next.clock_left_ms === null ? null : Date.now() + next.clock_left_ms;
  telemetry.task = task.name;
  if (shownTask === task.name) return; // already on screen: only the clocks were updated
  shownTask = task.name;
  clearTimers();
  show("task");
  const counted = config.tasks.length - (config.tutorial && config.tasks[0].name === config.tutorial ? 1 : 0);
  const offset = counted === config.tasks.length ? 1 : 0;
  $("task-title").textContent = next.tutorial ? "Tutorial task (not timed)" : `Task ${index + offset} of ${counted}`;
  $("task-description").textContent = task.description;
  $("output").textContent = "";
  $("output").className = "";
  makeEditor(next.code ?? task.starter);
  $("chat").hidden = config.kind !== "chat";
  $("skip").hidden = true;
  timers.push(setInterval(tick, 1000));
  timers.push(setInterval(() => telemetry.log("snapshot", { code: currentCode() }), config.snapshot_s * 1000));
  tick();
}

function currentCode() {
  return editor.state.doc.toString();
}

function tick() {
  const now = Date.now();
  $("skip").hidden = now - taskStartedAt < progress.skip_after_ms;
  if (clockEnd === null) {
    $("timer").textContent = "tutorial: the clock starts after it";
    return;
  }
  const left = Math.max(0, clockEnd - now);
  const minutes = Math.floor(left / 60000);
  const seconds = Math.floor((left % 60000) / 1000);
  $("timer").textContent = `${minutes}:${String(seconds).padStart(2, "0")} left`;
  if (left === 0) heartbeat(); // the server ends the tasks when its clock says so
}

// The editor's contents go to the server shortly after each change (what a resume shows),
// and at once when the page goes away (a reload, a closed tab).
let saveTimer = null;
let unsaved = null; // the task whose changes are not on the server yet
function scheduleSave() {
  clearTimeout(saveTimer);
  unsaved = shownTask;
  saveTimer = setTimeout(() => {
    if (frozen || unsaved !== shownTask) return;
    unsaved = null;
    api(`api/session/${local.session}/code`, { tab: TAB, task: shownTask, code: currentCode() }).catch(() => {});
  }, SAVE_AFTER_MS);
}

function saveNow() {
  if (frozen || !unsaved || unsaved !== shownTask) return;
  clearTimeout(saveTimer);
  unsaved = null;
  const body = JSON.stringify({ tab: TAB, task: shownTask, code: currentCode() });
  navigator.sendBeacon(`api/session/${local.session}/code`, body);
}

function makeEditor(code) {
  const onChange = EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    scheduleSave();
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
  const fromApp = (local.copied || []).includes(text);
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
  if (frozen || editor.state.field(suggestionField) || pendingRequest) return;
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
    reply = await api("api/suggest", { session: local.session, tab: TAB, request_id: requestId, prefix, suffix });
  } catch (error) {
    pendingRequest = null;
    // the neutral message (the server's 503 never names the model or the error)
    $("suggest-status").textContent = error.status === 503 ? error.message : UNAVAILABLE;
    setTimeout(() => ($("suggest-status").textContent = ""), 6000);
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

function drawMessage(message) {
  if (message.role === "user") $("chat-log").append(el("div", { class: "msg user" }, message.content));
  else renderReply(message.content, message.id);
}

// An answer's Markdown as sanitised HTML; each code block gets a Copy button.
function renderReply(text, messageId) {
  const box = el("div", { class: "msg assistant markdown" });
  box.dataset.id = messageId || "m-unknown";
  box.innerHTML = DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true }));
  for (const pre of box.querySelectorAll("pre")) {
    const code = pre.textContent.replace(/\n$/, "");
    const copy = el("button", { class: "copy", type: "button" }, "Copy");
    copy.onclick = () => {
      rememberCopy(code);
      if (navigator.clipboard) navigator.clipboard.writeText(code).catch(() => {});
      telemetry.log("chat_copy_code", { message_id: box.dataset.id, code, how: "button" });
      copy.textContent = "Copied";
    };
    const holder = el("div", { class: "code" });
    pre.replaceWith(holder);
    holder.append(copy, pre);
  }
  $("chat-log").append(box);
  box.scrollIntoView();
}

async function sendChat(event) {
  event.preventDefault();
  const input = $("chat-input");
  const text = input.value.trim();
  if (!text || frozen) return;
  input.value = "";
  const messageId = `m-${crypto.randomUUID()}`;
  telemetry.log("chat_user_message", { message_id: messageId, text, code: currentCode() });
  $("chat-log").append(el("div", { class: "msg user" }, text));
  const thinking = el("div", { class: "msg thinking", id: "chat-thinking" }, "The assistant is thinking…");
  $("chat-log").append(thinking);
  thinking.scrollIntoView();
  const started = Date.now();
  $("chat-send").disabled = true;
  try {
    const reply = await api("api/chat", { session: local.session, tab: TAB, message: text, message_id: messageId });
    thinking.remove();
    telemetry.log("chat_assistant_response", { message_id: reply.message_id, reply_to: messageId, text: reply.text, latency_ms: Date.now() - started });
    renderReply(reply.text, reply.message_id);
  } catch (error) {
    thinking.remove();
    // the server's neutral message (it never names the model), or why it refused
    $("chat-log").append(el("div", { class: "msg error" }, error.message));
  }
  $("chat-send").disabled = false;
}

// -- run, submit, skip ------------------------------------------------------------------------

async function execute(mode) {
  const task = config.tasks[progress.task_index];
  const code = currentCode();
  $("output").textContent = mode === "run" ? "running…" : "checking…";
  $("output").className = "";
  for (const b of document.querySelectorAll(".actions button")) b.disabled = true;
  let reply;
  try {
    reply = await api("api/execute", { session: local.session, tab: TAB, task: task.name, code, mode });
  } catch (error) {
    reply = { passed: false, output: `could not run: ${error.message}` };
  }
  for (const b of document.querySelectorAll(".actions button")) b.disabled = false;
  // the server records the verdict itself (a run or submit event of its own)
  $("output").textContent = reply.output || (reply.passed ? "(no output)" : "");
  $("output").className = reply.passed ? "passed" : "failed";
  if (mode === "submit") {
    if (reply.passed && reply.progress) {
      flash("Correct! On to the next task.", "ok");
      render(reply.progress);
    } else if (!reply.passed) {
      $("output").textContent = `Not correct yet.\n${reply.output}`;
    }
  }
}

function skip() {
  step("skip", { task: config.tasks[progress.task_index].name }).catch(complain);
}

// -- the end ----------------------------------------------------------------------------------

function renderDone(code) {
  if (!code) {
    $("done-text").textContent = "The study has ended. It did not reach the point where an end code is given, so there is none.";
    show("done");
    return;
  }
  $("end-code").textContent = code;
  if (config.completion_url) {
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
  window.addEventListener("pagehide", saveNow);
  document.addEventListener("visibilitychange", () => document.visibilityState === "hidden" && saveNow());
  window.studyTelemetry = () => telemetry;
  start().catch((error) => {
    document.body.prepend(el("p", { class: "error" }, `The study could not start: ${error.message}`));
  });
});
