// A challenge's opponent field offers members' names as they are typed: its <datalist> is
// filled from the club's list of names (members/views.py `names`: the members whose folded
// name begins with what is typed, at most a few, `whole` when that is every one of them).
// An answer that was whole answers every longer typing of it without asking again, so a
// member typing a name asks once or twice, not at every key.
//
// An input opts in with `data-names` (the list's address) and `list` (its datalist's id).

/** A name folded as the server folds it for the search (NFKC, then case folded). Pure. */
export function fold(name) {
  return name.normalize("NFKC").toLowerCase();
}

/** The names `typed` would be answered with, from `cache` (folded prefix → `{names,
 * whole}`), or null if the server must be asked. Pure. */
export function known(cache, typed) {
  const key = fold(typed.trim());
  if (!key) return [];
  for (let n = key.length; n >= 1; n -= 1) {
    const found = cache.get(key.slice(0, n));
    if (found && (n === key.length || found.whole)) {
      return found.names.filter((name) => fold(name).startsWith(key));
    }
  }
  return null;
}

/** Fill `list` (a datalist) with the names for `input`'s value as it changes. `fetch` and
 * `option` (a name's <option>) are the page's unless a test gives its own. Returns the
 * handler run on each input (a promise that settles once the list is filled). */
export function offerNames(input, list, {
  url,
  fetch = (...args) => globalThis.fetch(...args),
  option = (name) => Object.assign(document.createElement("option"), { value: name }),
} = {}) {
  const cache = new Map();
  let asked = 0;
  const show = (names) => list.replaceChildren(...names.map(option));
  const update = async () => {
    const typed = input.value;
    const found = known(cache, typed);
    if (found !== null) {
      asked += 1; // an earlier question's late answer is not shown over this one
      show(found);
      return;
    }
    const mine = (asked += 1);
    let body;
    try {
      const answer = await fetch(`${url}?q=${encodeURIComponent(typed.trim())}`, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (!answer.ok) return; // refused (too many): the field still takes any name typed
      body = await answer.json();
    } catch {
      return; // offline: no names offered, nothing else changes
    }
    cache.set(fold(typed.trim()), { names: body.names, whole: Boolean(body.whole) });
    if (mine === asked) show(body.names);
  };
  input.addEventListener("input", update);
  return update;
}

if (globalThis.document) {
  for (const input of document.querySelectorAll("input[data-names]")) {
    const list = document.getElementById(input.getAttribute("list"));
    if (list) offerNames(input, list, { url: input.dataset.names });
  }
}
