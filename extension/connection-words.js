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
