// The link to the companion in words, one wording for every page that shows it (the side panel's badge and
// pairing box, the options page's status): chrome.storage.session "connection" ({status, detail}, written by
// bg/settings.js setStatus) -> { word: the short state, detail: what happened, or what to do }.
const WORDS = { connected: "connected", connecting: "connecting…", error: "not connected", unpaired: "not paired" };

export function connectionWords(connection) {
  const status = (connection && connection.status) || "connecting";
  const word = WORDS[status] || status;
  const detail = status === "connected" ? "" : (connection && connection.detail) || word;
  return { status, word, detail };
}

// A page learns the status two ways: a chrome.storage.session read (on load, after Save) and onChanged. A read
// issued before the worker wrote "connected" can resolve after onChanged delivered it, and rendering it put the
// page back to "connecting to port …" for good while the link was up (a CI run's pairing waited 30 s on it).
// Every status carries the time it was written (`at`, strictly increasing per worker: bg/settings.js), so a page
// renders through this guard and never replaces what it shows with an older status. The first render may have no
// status at all (nothing written yet).
export function newestOnly(render) {
  let shownAt = null;
  return (connection) => {
    const at = connection && Number.isFinite(connection.at) ? connection.at : -Infinity;
    if (shownAt !== null && (!connection || at < shownAt)) return;
    shownAt = at;
    render(connection);
  };
}
