// The side panel's site card and status line: what the companion knows of the current tab's site
// (site_info_get), "forget this site" (site_forget: the companion deletes the site's memory, as
// `webchallenger memory rm` does) and which model the companion's tasks use (companion_status_get).
import { isOpen } from "./connection.js";
import { newId } from "./ids.js";
import { askCompanion } from "./requests.js";

function webUrl(url) {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch (_) {
    return null;
  }
}

// Runtime requests from the side panel; returns a promise, or null when the request is not ours.
export function handleSiteRequest(request) {
  const type = request && request.type;
  if (type !== "site_info_get" && type !== "site_forget" && type !== "companion_status_get") return null;
  if (!isOpen()) return Promise.reject(new Error("not connected to the companion"));
  if (type === "companion_status_get") return askCompanion({ type, id: newId("status") });
  const url = webUrl(request.url || "");
  if (!url) return Promise.resolve({ site: "", pages: 0, templates: 0, dropdowns: 0, bookmarks: 0 });
  return askCompanion({ type, id: newId("site"), url });
}
