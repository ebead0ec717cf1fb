// Runs a Chrome DevTools Recorder user flow with @puppeteer/replay in Debian's Chromium, as a person would
// outside this product. Usage: node run_flow.mjs FLOW.json USER_DATA_DIR (NODE_PATH: where the packages are).
// Prints {"url", "title"} of the page the flow ended on; exits 1 with the runner's error if a step fails.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const [flowPath, userDataDir] = process.argv.slice(2);
const require = createRequire(path.join(process.env.NODE_PATH, "noop.js"));
const { createRunner, PuppeteerRunnerExtension } = require("@puppeteer/replay");
const puppeteer = require("puppeteer-core");

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         `--user-data-dir=${userDataDir}`],
});
let code = 0;
try {
  const page = await browser.newPage();
  const flow = JSON.parse(readFileSync(flowPath, "utf8"));
  const runner = await createRunner(flow, new PuppeteerRunnerExtension(browser, page, { timeout: 30000 }));
  await runner.run();
  console.log(JSON.stringify({ url: page.url(), title: await page.title() }));
} catch (err) {
  console.error(`flow failed: ${err && err.stack ? err.stack : err}`);
  code = 1;
} finally {
  await browser.close();
}
process.exit(code);
