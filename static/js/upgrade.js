// After an upgrade the server speaks a newer protocol than the scripts of a page opened
// before it: the server answers the page's hello with the error `protocol`. The page then
// reloads itself, once, to fetch the new scripts (their names carry their contents' hash, so
// the reload cannot get the old ones from a cache). Once: a page that still speaks the old
// protocol after reloading (a stale proxy cache) stays and shows the error, rather than
// reloading for ever; a later upgrade may reload it again after a while.

const KEY = "snooker.reloadedForProtocol";
const AGAIN_AFTER = 5 * 60 * 1000; // ms

/** True when the message says the server speaks another protocol than this page. */
export function isProtocolRefusal(msg) {
  return msg && msg.type === "error" && msg.code === "protocol";
}

/** Reload the page unless it already reloaded for this lately; whether it reloads. */
export function reloadForNewProtocol({ storage, reload, now = Date.now() }) {
  let last = 0;
  try {
    last = Number(storage.getItem(KEY)) || 0;
  } catch {
    return false; // storage refused (private mode): a reload could not be counted
  }
  if (now - last < AGAIN_AFTER) return false;
  try {
    storage.setItem(KEY, String(now));
  } catch {
    return false;
  }
  reload();
  return true;
}

/** The page's own: its session storage and location. */
export function reloadPageForNewProtocol() {
  return reloadForNewProtocol({
    storage: window.sessionStorage,
    reload: () => window.location.reload(),
  });
}
