// The WebSocket to /ws (docs/protocol.md): numbered messages, reconnection with back-off, heartbeats, and the
// live state of the table the user sits at or watches.  With several server nodes the table may run on
// another node: ``welcome``/``joined`` with a ``url``, ``moved`` and the ``table_elsewhere`` error send this
// connection there (and back to the page's own server when that node stops answering).

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
    this.nodeUrl = null; // another node's address while our table runs there (null: the page's own server)
    this.nodeFailures = 0;
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
    const url = this.socketUrl();
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
      this.follow(msg);
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

  socketUrl() {
    if (this.nodeUrl) {
      const u = new URL(this.nodeUrl, location.href);
      u.protocol = u.protocol === "https:" ? "wss:" : "ws:";
      u.pathname = u.pathname.replace(/\/$/, "") + "/ws";
      return u.href;
    }
    return `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  }

  /** Follow our table to the node that runs it (``url``), or back to the page's own server (``null``). */
  switchTo(url) {
    const next = url || null;
    if (next === this.nodeUrl && this.status === "open") return;
    this.nodeUrl = next;
    this.nodeFailures = 0;
    this.reconnectNow();
  }

  follow(msg) {
    if ((msg.type === "welcome" || msg.type === "joined") && msg.url) {
      const here = this.nodeUrl ? new URL(this.nodeUrl, location.href).href : null;
      if (new URL(msg.url, location.href).href !== here) this.switchTo(msg.url);
    } else if (msg.type === "moved") {
      this.switchTo(null); // any node says where the table runs now
    } else if (msg.type === "error" && msg.code === "table_elsewhere" && msg.params && msg.params.url) {
      this.switchTo(msg.params.url);
    }
  }

  scheduleReconnect() {
    if (this.nodeUrl && ++this.nodeFailures >= 2) {
      this.nodeUrl = null; // that node is gone: the page's own server knows who took the table over
      this.nodeFailures = 0;
    }
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
