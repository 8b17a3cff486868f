// The playground in a real headless Chromium (Debian's `chromium`): the test types rules and a
// payload into the page and reads the decision, the diagnostics and the hook's answer that the
// WebAssembly build computed in the page. `node test/playground.mjs` after build.sh.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm' };
// A static server of one folder: bindings/wasm whole, or the playground's folder alone.
async function serve(dir) {
  const server = createServer(async (request, response) => {
    const file = path.join(dir, decodeURIComponent(new URL(request.url, 'http://x').pathname));
    if (!file.startsWith(dir)) return response.writeHead(403).end();
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const server = await serve(root);
const alone = await serve(path.join(root, 'playground'));
const url = `http://127.0.0.1:${server.address().port}/playground/index.html`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
let passed = 0;
const failed = [];
const expect = (ok, what) => (ok ? passed++ : failed.push(what));
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  const text = (id) => page.textContent(`#${id}`);

  // A Claude Code Bash call of `rm -rf ~`, typed as the user's own payload: the example rules deny it.
  await page.selectOption('#agent', 'claude');
  await page.selectOption('#sample', 'own');
  await page.fill('#payload', JSON.stringify({ hook_event_name: 'PreToolUse', cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' } }));
  await page.waitForFunction(() => document.querySelector('#decision').textContent.startsWith('deny'));
  expect((await text('decision')) === 'deny: deleting your home directory', `example decision: ${await text('decision')}`);
  expect((await text('answer')).includes('"permissionDecision":"deny"'), `answer: ${await text('answer')}`);
  expect((await text('trace')).includes('no-rm-home') && (await text('trace')).includes('fired'), `trace: ${await text('trace')}`);

  // The test types a rule, key by key; the page checks and decides as it is typed.
  await page.fill('#rules', '');
  await page.type('#rules', 'rule look pre_tool_use when kind == shell and runs ls => ask "listing needs a look"\n');
  await page.fill('#payload', JSON.stringify({ hook_event_name: 'PreToolUse', cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'cd src && ls -la' } }));
  await page.waitForFunction(() => document.querySelector('#decision').textContent.startsWith('ask'));
  expect((await text('decision')) === 'ask: listing needs a look', `typed rule decision: ${await text('decision')}`);
  expect((await text('summary')).startsWith('1 rule'), `summary: ${await text('summary')}`);

  // A typo: the diagnostics name it with its code and position, and nothing is decided.
  await page.type('#rules', 'rule typo pre_tool_use when kind == wirte => deny "x"\n');
  await page.waitForFunction(() => document.querySelector('#summary').textContent.includes('error'));
  const diagnostics = await text('diagnostics');
  expect(/2:\d+ error\[E\d{4}\]/.test(diagnostics), `diagnostics: ${diagnostics}`);
  expect((await text('decision')) === 'the rules do not load', `decision with a typo: ${await text('decision')}`);

  // A sample payload from another agent's fixtures, with the shipped baseline.
  await page.selectOption('#builtin', 'baseline');
  await page.selectOption('#agent', 'gemini');
  const samples = await page.$$eval('#sample option', (options) => options.map((item) => item.textContent));
  expect(samples.length > 1, `gemini samples: ${samples}`);
  await page.selectOption('#sample', '0');
  await page.waitForFunction(() => document.querySelector('#decision').textContent !== 'the rules do not load');
  expect((await text('summary')).match(/^\d+ rules/), `baseline summary: ${await text('summary')}`);
  // Each rule's conditions, whether each held and the value it read.
  await page.selectOption('#builtin', '');
  await page.waitForFunction(() => document.querySelector('#trace').textContent.includes('saw'));
  expect((await text('trace')).includes('✓') || (await text('trace')).includes('✗'), `conditions: ${await text('trace')}`);

  // A rewrite is named as what the rules did, not as "no rule decided".
  await page.selectOption('#agent', 'claude');
  await page.selectOption('#sample', 'own');
  await page.fill('#payload', JSON.stringify({ hook_event_name: 'PreToolUse', cwd: '/repo', tool_name: 'Bash', tool_input: { command: 'make ship' } }));
  await page.fill('#rules', 'rule dry pre_tool_use when kind == shell => set command = "ls"\n');
  await page.waitForFunction(() => document.querySelector('#decision').textContent.includes('rewritten'));
  expect((await text('decision')).startsWith('the arguments are rewritten (rules: dry)'), `rewrite: ${await text('decision')}`);

  // A share link opens the page as it was: the rules, the agent, the payload.
  await page.click('#share');
  const link = await page.inputValue('#link');
  const shared = await browser.newPage();
  await shared.goto(link);
  await shared.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  expect((await shared.inputValue('#rules')) === (await page.inputValue('#rules')), 'the shared link has the rules');
  expect((await shared.inputValue('#agent')) === (await page.inputValue('#agent')), 'the shared link has the agent');
  expect((await shared.textContent('#decision')) === (await text('decision')), `shared decision: ${await shared.textContent('#decision')}`);

  // The playground's folder served alone works as well.
  const single = await browser.newPage();
  single.on('pageerror', (error) => errors.push(`alone: ${error}`));
  await single.goto(`http://127.0.0.1:${alone.address().port}/index.html`);
  await single.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
  expect((await single.textContent('#decision')).length > 1, `served alone: ${await single.textContent('#decision')}`);
  expect((await single.textContent('#lines')).startsWith('1\n2'), 'line numbers beside the rules');

  expect(errors.length === 0, `page errors: ${errors.join('; ')}`);
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
} finally {
  await browser.close();
  server.close();
  alone.close();
}
console.log(`playground in chromium: ${passed} passed, ${failed.length} failed`);
for (const line of failed) console.log(`FAIL ${line}`);
process.exit(failed.length === 0 ? 0 : 1);
