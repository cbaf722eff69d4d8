// The WebSocket to /ws (docs/protocol.md): numbered messages, reconnection with back-off, heartbeats, and the
// live state of the table the user sits at or watches.

const PING_EVERY = 10000;
const PONG_WAIT = 8000;

export class Conn {
  constructor() {
    this.ws = null;
    this.seq = 0;
    this.nextId = 1;
    this.handlers = new Set();
    this.statusHandlers = new Set();
    this.status = "idle"; // idle | connecting | open | lost | closed
    this.retry = 0;
    this.timer = null;
    this.pingTimer = null;
    this.pongTimer = null;
    this.wanted = false;
    this.outbox = [];
    this.everOpened = false;
    window.addEventListener("online", () => { if (this.wanted && this.status !== "open") this.reconnectNow(); });
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.wanted && this.status !== "open") this.reconnectNow();
    });
  }

  on(fn) { this.handlers.add(fn); return () => this.handlers.delete(fn); }
  onStatus(fn) { this.statusHandlers.add(fn); return () => this.statusHandlers.delete(fn); }

  setStatus(s) {
    this.status = s;
    for (const fn of this.statusHandlers) fn(s);
  }

  start() {
    this.wanted = true;
    if (!this.ws) this.open();
  }

  stop() {
    this.wanted = false;
    clearTimeout(this.timer);
    this.stopHeartbeat();
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
    this.setStatus("closed");
  }

  reconnectNow() {
    clearTimeout(this.timer);
    if (this.ws) {
      try { this.ws.close(); } catch { /* already closed */ }
      this.ws = null;
    }
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.seq = 0;
    this.setStatus(this.everOpened ? "lost" : "connecting");
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.retry = 0;
      this.everOpened = true;
      this.opens = (this.opens || 0) + 1;
      this.setStatus("open");
      this.startHeartbeat();
      const queued = this.outbox;
      this.outbox = [];
      for (const m of queued) ws.send(JSON.stringify(m));
    };
    ws.onmessage = (ev) => {
      if (ws !== this.ws) return;
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.gotSomething();
      if (typeof msg.seq === "number") {
        if (this.seq && msg.seq !== this.seq + 1) {
          // messages were lost: ask for the whole picture again
          this.seq = msg.seq;
          this.emit({ type: "_gap" });
        }
        this.seq = msg.seq;
      }
      this.emit(msg);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.stopHeartbeat();
      if (ev.code === 4401) {
        this.wanted = false;
        this.setStatus("closed");
        this.emit({ type: "_unauthorized" });
        return;
      }
      if (this.wanted) {
        this.setStatus("lost");
        this.scheduleReconnect();
      } else {
        this.setStatus("closed");
      }
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleReconnect() {
    clearTimeout(this.timer);
    const delay = Math.min(5000, 300 * 2 ** this.retry) * (0.8 + Math.random() * 0.4);
    this.retry = Math.min(this.retry + 1, 6);
    this.timer = setTimeout(() => { if (this.wanted) this.open(); }, delay);
  }

  startHeartbeat() {
    this.stopHeartbeat();
    this.pingTimer = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      this.ws.send(JSON.stringify({ type: "ping" }));
      clearTimeout(this.pongTimer);
      this.pongTimer = setTimeout(() => {
        // no answer: the network is gone even if the socket does not know it yet
        if (this.ws) this.reconnectNow();
      }, PONG_WAIT);
    }, PING_EVERY);
  }

  gotSomething() {
    clearTimeout(this.pongTimer);
  }

  stopHeartbeat() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  emit(msg) {
    for (const fn of [...this.handlers]) {
      try { fn(msg); } catch (e) { console.error(e); }
    }
  }

  /** Send a client message; returns its id (echoed as ``ref``).  Queued while reconnecting. */
  send(msg) {
    const m = { id: this.nextId++, ...msg };
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
    else if (m.type !== "ping" && m.type !== "action") this.outbox.push(m);
    else return null;
    return m.id;
  }
}

export const conn = new Conn();
