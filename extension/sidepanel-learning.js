// The side panel's learning switch for the current tab's site: allow, ask (the default) or block passive
// learning (bg/passive.js). The choice is the companion's (memory/learning_consent.py, also set with
// `webchallenger memory allow|block|ask HOST`); this asks for it through the worker and sets it there.
import { targetTab } from "./sidepanel.js";

const $ = (id) => document.getElementById(id);
let shown = null; // { url, reply } of what the switch shows
let resumeTimer = null; // asks again while learning in the tab waits, so the countdown and its end show

function ask(request) {
  return chrome.runtime.sendMessage(request).then((reply) => {
    if (!reply || reply.error) throw new Error((reply && reply.error) || "no answer");
    return reply;
  });
}

function render(url, reply) {
  shown = reply && reply.site ? { url, reply } : null;
  $("learning").hidden = !shown;
  if (!shown) return;
  const { policy, passive } = reply;
  const site = new URL(url).host; // what the user reads in the address bar (the reply's site is a storage key)
  $("learn-question").hidden = policy !== "ask";
  $("learn-state").hidden = policy === "ask";
  $("learn-status").textContent = policy === "allow" ? `Learning ${site} while you browse.` : `Not learning ${site}.`;
  for (const button of document.querySelectorAll(".learn-choices button")) {
    button.setAttribute("aria-pressed", String(button.dataset.policy === policy));
  }
  $("learn-note").hidden = passive;
  $("learn-note").textContent = passive ? "" : "The companion does not learn while you browse (started with --no-passive-learning).";
  // Pages the agent drives are not the user's browsing: learning in this tab waits during a task and for a
  // minute after it (the companion's DRIVEN_QUIET), which would otherwise look like learning silently stopped.
  const waits = passive && policy === "allow" && reply.paused;
  $("learn-paused").hidden = !waits;
  $("learn-paused").textContent = !waits ? ""
    : reply.paused === "task" ? "Paused in this tab while the agent works here: its pages are not learnt as your browsing."
    : `Resumes in this tab in ${Math.ceil(reply.resumes_in_s)} s: the agent drove it a moment ago, and its pages are not learnt as your browsing.`;
  clearTimeout(resumeTimer);
  if (waits) resumeTimer = setTimeout(refresh, reply.paused === "task" ? 5000 : Math.min(10_000, reply.resumes_in_s * 1000 + 500));
}

async function refresh() {
  try {
    const tab = await targetTab();
    if (!tab || !/^https?:/.test(tab.url || "")) return render(null, null);
    render(tab.url, await ask({ type: "site_policy_get", url: tab.url, tabId: tab.id }));
  } catch (_) {
    render(null, null); // not connected: nothing to switch
  }
}

async function choose(policy) {
  if (!shown) return;
  try {
    render(shown.url, await ask({ type: "site_policy_set", url: shown.url, policy }));
  } catch (e) {
    $("learn-note").hidden = false;
    $("learn-note").textContent = `Could not change it: ${e.message}`;
  }
}

$("learn-allow").addEventListener("click", () => choose("allow"));
$("learn-block").addEventListener("click", () => choose("block"));
for (const button of document.querySelectorAll(".learn-choices button")) {
  button.addEventListener("click", () => choose(button.dataset.policy));
}

chrome.tabs.onActivated.addListener(refresh);
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url || change.status === "complete") refresh();
});
chrome.windows.onFocusChanged.addListener(refresh);
let taskRunning = null;
chrome.storage.onChanged.addListener((changes, area) => {
  if (area !== "session") return;
  if (changes.connection) refresh();
  // A task starting or ending changes whether learning in its tab waits (not every step: only the flip).
  if (changes.task) {
    const running = Boolean(changes.task.newValue && changes.task.newValue.running);
    if (running !== taskRunning) {
      taskRunning = running;
      refresh();
    }
  }
});
refresh();
