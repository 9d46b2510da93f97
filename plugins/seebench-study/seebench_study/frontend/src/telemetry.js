// Telemetry that survives reloads, outages and several tabs of one session. Every page load is
// a new tab namespace (a random `tab` id) numbering its events from 0; the server gives each
// stored event the session's next sequence number, so two tabs never collide. An event is kept
// in localStorage until the server acknowledges it (after its database commit) and re-sent with
// backoff until then. Queues left by earlier page loads are sent too (re-sending is harmless:
// the server stores an event once per session, tab and number).
const PREFIX = "seebench-study-queue-";
const STALE_MS = 15000; // a queue whose tab has not written for this long has no live tab

export class Telemetry {
  constructor(session, tab = crypto.randomUUID()) {
    this.session = session;
    this.tab = tab;
    this.key = `${PREFIX}${session}-${this.tab}`;
    this.queue = [];
    this.seq = 0;
    this.sending = false;
    this.backoff = 250;
    this.task = null;
    this.save();
    this.adoptOrphans();
    this.heartbeat = setInterval(() => this.save(), STALE_MS / 3);
  }
  save() {
    localStorage.setItem(this.key, JSON.stringify({ session: this.session, tab: this.tab, seq: this.seq, queue: this.queue, alive: Date.now() }));
  }
  // Queues of this session's earlier page loads whose tab is gone: send their events as they are.
  async adoptOrphans() {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(PREFIX) || key === this.key) continue;
      const saved = JSON.parse(localStorage.getItem(key) || "null");
      if (!saved || !Array.isArray(saved.queue)) continue;
      if (Date.now() - (saved.alive || 0) < STALE_MS) continue; // a live tab sends its own
      if (saved.queue.length === 0 || saved.session !== this.session) {
        if (saved.queue.length === 0) localStorage.removeItem(key);
        continue;
      }
      let sent = true;
      for (let at = 0; sent && at < saved.queue.length; at += 50) {
        sent = (await this.post(saved.queue.slice(at, at + 50))) !== null;
      }
      if (sent) localStorage.removeItem(key);
    }
  }
  log(type, data, clientTime = Date.now()) {
    const event = {
      schema: 1,
      session: this.session,
      tab: this.tab,
      seq: this.seq++,
      type,
      task: this.task,
      client_time: clientTime,
      data,
    };
    this.queue.push(event);
    this.save();
    this.flush();
    return event;
  }
  pending() {
    return this.queue.length;
  }
  // POST events; resolves to the set of seqs the server is done with, or null on failure.
  async post(events) {
    try {
      const response = await fetch("api/events", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ session: this.session, events }),
      });
      if (!response.ok) return null;
      const reply = await response.json();
      for (const r of reply.rejected) console.error("event rejected", r.seq, r.error);
      return new Set([...reply.acked, ...reply.rejected.map((r) => r.seq)]);
    } catch (error) {
      return null;
    }
  }
  async flush() {
    if (this.sending || this.queue.length === 0) return;
    this.sending = true;
    const done = await this.post(this.queue.slice(0, 50));
    if (done) {
      this.queue = this.queue.filter((e) => !done.has(e.seq));
      this.save();
      this.backoff = 250;
    }
    this.sending = false;
    if (!done) {
      setTimeout(() => this.flush(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    } else if (this.queue.length) {
      this.flush();
    }
  }
}
