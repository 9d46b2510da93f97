// Telemetry that survives reloads and outages: every event gets the session's next client
// sequence number, is kept in localStorage until the server acknowledges it (after its
// database commit), and is re-sent with backoff until then.
export class Telemetry {
  constructor(session, storageKey, firstSeq) {
    this.session = session;
    this.key = storageKey;
    const saved = JSON.parse(localStorage.getItem(this.key) || "null");
    this.queue = saved && saved.session === session ? saved.queue : [];
    this.seq = Math.max(firstSeq, saved && saved.session === session ? saved.seq : 0);
    this.sending = false;
    this.backoff = 250;
    this.task = null;
    this.flush();
  }
  save() {
    localStorage.setItem(this.key, JSON.stringify({ session: this.session, seq: this.seq, queue: this.queue }));
  }
  log(type, data, clientTime = Date.now()) {
    const event = {
      schema: 1,
      session: this.session,
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
  async flush() {
    if (this.sending || this.queue.length === 0) return;
    this.sending = true;
    const batch = this.queue.slice(0, 50);
    let retry = false;
    try {
      const response = await fetch("api/events", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ session: this.session, events: batch }),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const reply = await response.json();
      const done = new Set([...reply.acked, ...reply.rejected.map((r) => r.seq)]);
      for (const r of reply.rejected) console.error("event rejected", r.seq, r.error);
      this.queue = this.queue.filter((e) => !done.has(e.seq));
      this.save();
      this.backoff = 250;
    } catch (error) {
      retry = true;
    }
    this.sending = false;
    if (retry) {
      setTimeout(() => this.flush(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, 8000);
    } else if (this.queue.length) {
      this.flush();
    }
  }
}
