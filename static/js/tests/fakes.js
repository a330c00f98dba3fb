// Stand-ins for the browser in the modules' tests: a clock whose time moves only when the test
// says so, and websockets the test opens, feeds and closes by hand.

/** Timers and `now` on a clock that `advance(ms)` moves, firing what falls due in order. */
export class FakeClock {
  constructor(start = 1_000_000) {
    this.time = start;
    this.timers = new Map(); // id: {at, fn, every}
    this.next = 1;
  }

  now = () => this.time;

  setTimeout = (fn, ms = 0) => this._add(fn, ms, null);

  setInterval = (fn, ms) => this._add(fn, ms, ms);

  clearTimeout = (id) => {
    this.timers.delete(id);
  };

  clearInterval = (id) => {
    this.timers.delete(id);
  };

  _add(fn, ms, every) {
    const id = this.next++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), fn, every });
    return id;
  }

  /** Move time on by `ms`, running every timer due on the way at its own time. */
  advance(ms) {
    const end = this.time + ms;
    for (;;) {
      let due = null;
      for (const [id, t] of this.timers) {
        if (t.at <= end && (!due || t.at < due[1].at || (t.at === due[1].at && id < due[0]))) {
          due = [id, t];
        }
      }
      if (!due) break;
      const [id, t] = due;
      this.time = t.at;
      if (t.every) t.at += t.every;
      else this.timers.delete(id);
      t.fn();
    }
    this.time = end;
  }

  /** How many timers are waiting. */
  get pending() {
    return this.timers.size;
  }
}

/** A websocket the test drives: `accept()`, `deliver(msg)`, `drop(code)`; `sent` holds what
 * the page sent, parsed. */
export class FakeSocket {
  constructor(path) {
    this.path = path;
    this.readyState = 0;
    this.sent = [];
    this.closed = false;
  }

  send(text) {
    if (this.readyState !== 1) throw new Error("send on a socket not open");
    this.sent.push(JSON.parse(text));
  }

  close() {
    this.closed = true;
    this.readyState = 3;
  }

  accept() {
    this.readyState = 1;
    this.onopen();
  }

  deliver(message) {
    this.onmessage({ data: typeof message === "string" ? message : JSON.stringify(message) });
  }

  /** The server (or the network) closes it with `code`. */
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose({ code });
  }
}

/** A socket.js environment on a fake clock: every socket it opens is kept in `sockets`. */
export function fakeEnv({ clock = new FakeClock(), random = () => 0.5, refuse = false } = {}) {
  const env = {
    clock,
    sockets: [],
    reloads: 0,
    online: [],
    now: clock.now,
    random,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    setInterval: clock.setInterval,
    clearInterval: clock.clearInterval,
    connect: (path) => {
      if (env.refuse) throw new Error("the browser refused the address");
      const ws = new FakeSocket(path);
      env.sockets.push(ws);
      return ws;
    },
    onOnline: (fn) => env.online.push(fn),
    // upgrade.js answers whether it reloaded: not if it did lately.
    reloadForProtocol: () => {
      if (!env.mayReload) return false;
      env.reloads += 1;
      return true;
    },
    mayReload: true,
    refuse,
    get last() {
      return env.sockets[env.sockets.length - 1];
    },
  };
  return env;
}

/** An element the test fires events at: `fire(type, props)` calls its listeners with an event
 * that records preventDefault and stopPropagation. */
export class FakeElement {
  constructor(id = "", tagName = "DIV") {
    this.id = id;
    this.tagName = tagName;
    this.listeners = {};
    this.dataset = {};
    this.style = {};
    this.attributes = {};
    this.hidden = false;
    this.disabled = false;
    this.checked = false;
    this.value = "";
    this.children = [];
    this.focused = 0;
    this.captured = [];
    this.rect = { left: 0, top: 0, width: 100, height: 100 };
    this.activeElement = null; // as a document
    this.body = null; // as a document
    this.classes = new Set();
    this.classList = {
      toggle: (name, on) => (on ? this.classes.add(name) : this.classes.delete(name)),
      contains: (name) => this.classes.has(name),
    };
  }

  addEventListener(type, fn) {
    (this.listeners[type] ||= []).push(fn);
  }

  fire(type, props = {}) {
    const event = {
      type,
      target: this,
      prevented: false,
      stopped: false,
      preventDefault() {
        this.prevented = true;
      },
      stopPropagation() {
        this.stopped = true;
      },
      ...props,
    };
    for (const fn of this.listeners[type] || []) fn(event);
    return event;
  }

  click() {
    this.fire("click");
  }

  focus() {
    this.focused += 1;
  }

  setPointerCapture(id) {
    this.captured.push(id);
  }

  setAttribute(name, value) {
    this.attributes[name] = String(value);
  }

  getBoundingClientRect() {
    return this.rect;
  }

  querySelectorAll() {
    return this.children;
  }

  closest() {
    return this;
  }
}

/** The match page's elements by test id, made as they are asked for. */
export function fakePage() {
  const made = new Map();
  const el = (id) => {
    if (!made.has(id)) made.set(id, new FakeElement(id));
    return made.get(id);
  };
  return { el, doc: new FakeElement("document"), root: new FakeElement("match") };
}

/** A 2D context that records the calls made on it: `calls` [[name, ...args]]. */
export function recordingContext() {
  const calls = [];
  const gradient = { addColorStop() {} };
  const ctx = new Proxy({}, {
    get(target, name) {
      if (name in target) return target[name];
      if (name === "calls") return calls;
      if (name === "createLinearGradient" || name === "createRadialGradient") {
        return (...args) => {
          calls.push([name, ...args]);
          return gradient;
        };
      }
      if (name === "measureText") {
        return (text) => {
          calls.push([name, text]);
          return { width: 6 * String(text).length }; // about 6 px a letter at 12 px
        };
      }
      return (...args) => {
        calls.push([name, ...args, ...(name === "stroke" ? [target.strokeStyle] : [])]);
      };
    },
    set(target, name, value) {
      target[name] = value;
      return true;
    },
  });
  return ctx;
}

/** A canvas of `width` × `height` CSS px, drawing on a recording context. */
export function fakeCanvas(width, height) {
  const canvas = new FakeElement("table", "CANVAS");
  canvas.rect = { left: 0, top: 0, width, height };
  const ctx = recordingContext();
  canvas.getContext = () => ctx;
  canvas.ctx = ctx;
  return canvas;
}
