// The side panel's site card and model line. The card: how much the companion knows of the current tab's
// site (pages, templates, dropdowns, from its memory) and "Forget this site", which deletes that memory in the
// companion (as `webchallenger memory rm` does; the learning choice below it stays). The line under the
// header: the model the companion's tasks use. Both are asked through the worker (bg/sitecard.js).
import { targetTab } from "./sidepanel.js";

const $ = (id) => document.getElementById(id);
let shown = null; // { url, host } of what the card shows

function ask(request) {
  return chrome.runtime.sendMessage(request).then((reply) => {
    if (!reply || reply.error) throw new Error((reply && reply.error) || "no answer");
    return reply;
  });
}

const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function render(url, info) {
  shown = info && info.site ? { url, host: new URL(url).host } : null;
  $("site").hidden = !shown;
  confirming(false);
  if (!shown) return;
  $("site-host").textContent = shown.host;
  const empty = !info.pages && !info.templates && !info.dropdowns && !info.bookmarks;
  $("site-counts").textContent = info.error
    ? `Memory unreadable: ${info.error}`
    : empty
      ? "The companion knows nothing of this site yet."
      : `Knows ${plural(info.pages, "page")}, ${plural(info.templates, "template")}, ${plural(info.dropdowns, "dropdown")}` +
        (info.bookmarks ? `, ${plural(info.bookmarks, "bookmark")}` : "") + ".";
  $("site-counts").dataset.pages = String(info.pages);
  $("site-counts").dataset.templates = String(info.templates);
  $("site-counts").dataset.dropdowns = String(info.dropdowns);
  $("site-counts").dataset.bookmarks = String(info.bookmarks || 0);
  $("site-forget").disabled = empty && !info.error;
}

function confirming(on) {
  $("site-confirm").hidden = !on;
  $("site-forget").hidden = on;
}

export async function refreshSite() {
  try {
    const tab = await targetTab();
    if (!tab || !/^https?:/.test(tab.url || "")) return render(null, null);
    render(tab.url, await ask({ type: "site_info_get", url: tab.url }));
  } catch (_) {
    render(null, null); // not connected, or an older companion: no card
  }
}

export async function refreshModel() {
  try {
    const status = await ask({ type: "companion_status_get" });
    $("model").textContent = status.model || "(none)";
    $("model").title = `backend: ${status.backend}`;
  } catch (_) {
    $("model").textContent = "unknown (not connected)";
    $("model").title = "";
  }
}

$("site-forget").addEventListener("click", () => {
  if (!shown) return;
  $("site-confirm-text").textContent = `Forget everything the companion learned of ${shown.host}?`;
  confirming(true);
  $("site-confirm-yes").focus();
});
$("site-confirm-no").addEventListener("click", () => confirming(false));
$("site-confirm-yes").addEventListener("click", async () => {
  if (!shown) return;
  const { url } = shown;
  try {
    render(url, await ask({ type: "site_forget", url }));
    $("site-note").hidden = false;
    $("site-note").textContent = "Forgotten. Its learning choice stays as it is.";
  } catch (e) {
    confirming(false);
    $("site-note").hidden = false;
    $("site-note").textContent = `Could not forget it: ${e.message}`;
  }
});

chrome.tabs.onActivated.addListener(refreshSite);
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url || change.status === "complete") {
    $("site-note").hidden = true;
    refreshSite();
  }
});
chrome.windows.onFocusChanged.addListener(refreshSite);
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "session" && changes.connection) {
    refreshSite();
    refreshModel();
  }
  // A task that ended may have taught the site more; it may have used another model.
  if (area === "session" && changes.task) {
    const [before, after] = [changes.task.oldValue, changes.task.newValue];
    if (after && (!before || before.task_id !== after.task_id || (before.running && !after.running))) {
      refreshSite();
      refreshModel();
    }
  }
});
refreshSite();
refreshModel();
