#!/usr/bin/env node
// Checks a mutation.json the way the tools that consume it will read it:
//
//   1. validates it against the JSON schema that npm's mutation-testing-report-schema
//      ships (draft-07, checked by Ajv with ajv-formats, so `uri` and the like are
//      checked too, as the Stryker Dashboard's own validator does);
//   2. renders it with npm's mutation-testing-elements in headless Chromium (the
//      system's, through puppeteer-core: nothing is downloaded) and reads the metrics
//      table the <mutation-test-report-app> shows, from inside its shadow DOM.
//
// Usage: node check.mjs REPORT.json [--no-browser]
// Prints one JSON object on stdout: {"valid": true, "rows": {"All files": {"Killed": 3,
// …, "Mutation score": 75.0, "Mutation score of covered": 80.0}, "lib.rs": {…}}} and exits
// 0; an invalid report prints {"valid": false, "errors": […]} and exits 1; anything else
// that goes wrong (no Chromium, a script error in the page) exits 2 with the reason on
// stderr. The Chromium binary is $CHROMIUM_PATH, else the first of chromium,
// chromium-browser, google-chrome on PATH.

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
// Exit code 1 means "invalid report" only: anything unexpected is 2.
process.on('uncaughtException', (e) => {
  console.error(e);
  process.exit(2);
});
process.on('unhandledRejection', (e) => {
  console.error(e);
  process.exit(2);
});
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: node check.mjs REPORT.json [--no-browser]');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(file, 'utf8'));

// 1. The schema, exactly as published in the package (not a copy of ours).
const schema = require('mutation-testing-report-schema/mutation-testing-report-schema.json');
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);
if (!validate(report)) {
  const errors = validate.errors.map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  console.log(JSON.stringify({ valid: false, errors }));
  process.exit(1);
}
if (args.includes('--no-browser')) {
  console.log(JSON.stringify({ valid: true }));
  process.exit(0);
}

// 2. The rendering.
function findChromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      const candidate = path.join(dir, name);
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  return null;
}
const executablePath = findChromium();
if (!executablePath) {
  console.error('no Chromium found: set CHROMIUM_PATH or install it (apt-get install chromium)');
  process.exit(2);
}

const { default: puppeteer } = await import('puppeteer-core');
const bundle = fs.readFileSync(require.resolve('mutation-testing-elements/mutation-test-elements.js'), 'utf8');
const browser = await puppeteer.launch({
  executablePath,
  headless: true,
  // --no-sandbox: CI runs as root, where Chromium's own sandbox refuses to start. The
  // rest keep it off the network, which CI does not have and the page does not need.
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--disable-quic',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
let code = 0;
try {
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.setContent('<!doctype html><html><body><mutation-test-report-app></mutation-test-report-app></body></html>');
  await page.addScriptTag({ content: bundle });
  // Set the report as Stryker's own HTML reporter does (`app.report = …`).
  await page.evaluate((r) => {
    document.querySelector('mutation-test-report-app').report = r;
  }, report);
  // The metrics table sits two shadow roots down, rendered asynchronously (Lit).
  const table = () =>
    document
      .querySelector('mutation-test-report-app')
      ?.shadowRoot?.querySelector('mte-mutant-view')
      ?.shadowRoot?.querySelector('mte-metrics-table')
      ?.shadowRoot?.querySelector('table');
  await page.waitForFunction(`(${table.toString()})()?.querySelector('tbody tr')`, { timeout: 30000 });
  const rows = await page.evaluate(`(() => {
    const table = (${table.toString()})();
    // The count columns are headed by their names (Killed, Survived, …); the first two
    // headers are the file name and the two score columns.
    const heads = [...table.querySelectorAll('thead tr:first-child th')].map((th) => th.textContent.trim());
    const countNames = heads.slice(2);
    const rows = {};
    for (const tr of table.querySelectorAll('tbody tr')) {
      const cells = [...tr.querySelectorAll('td')];
      const name = cells[0].textContent.trim();
      const scores = [...tr.querySelectorAll('span.transition-colors')].map((s) => s.textContent.trim());
      const counts = cells.filter((td) => td.className.includes('text-center')).map((td) => td.textContent.trim())
        // The score cells are centred too: the counts are the last cells.
        .slice(-countNames.length);
      const row = {};
      countNames.forEach((n, i) => { row[n] = Number(counts[i]); });
      row['Mutation score'] = scores[0] === undefined || scores[0] === 'N/A' ? null : Number(scores[0]);
      row['Mutation score of covered'] = scores[1] === undefined || scores[1] === 'N/A' ? null : Number(scores[1]);
      rows[name] = row;
    }
    return rows;
  })()`);
  if (pageErrors.length) {
    console.error(`the page had script errors:\n${pageErrors.join('\n')}`);
    code = 2;
  } else {
    console.log(JSON.stringify({ valid: true, rows }));
  }
} finally {
  await browser.close();
}
process.exit(code);
