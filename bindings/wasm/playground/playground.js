// The playground: edit rules, pick an agent and a sample payload, and see the diagnostics, what
// `hookc hook AGENT` would print, and the explain trace. Everything runs in this page, on every
// edit, through the WebAssembly build (../hookc.mjs); nothing is sent anywhere.
const $ = (id) => document.getElementById(id);

// The WebAssembly build: one folder up when bindings/wasm is served whole (the build itself),
// else beside the page, where build.sh copies it so that the folder can be served alone. A page
// that finds neither, or whose module does not load, says so, not a blank page.
async function hookc() {
  for (const at of ['../hookc.mjs', './hookc.mjs']) {
    try {
      return await import(at);
    } catch {
      // the next place
    }
  }
  return undefined;
}
function fail(why) {
  document.body.replaceChildren(Object.assign(document.createElement('p'), { id: 'failure', textContent: why }));
  throw new Error(why);
}
const found = await hookc();
if (!found) fail('The WebAssembly build is not here: run bindings/wasm/build.sh, then serve bindings/wasm/playground/ (or bindings/wasm/).');
const { load, Policy, HookcError, check, agents, builtins, builtinSources } = found;
const EXAMPLE = `# Edit me: every change is checked and decided at once.
rule no-rm-home pre_tool_use when kind == shell and runs rm (flags in [r, R, recursive] and operands in ["~", "~/*"])
  => deny "deleting your home directory"
rule protect-generated pre_tool_use when kind == write and path == "generated.txt"
  => block "hook_blocked" "generated.txt is managed elsewhere"
`;

await load().catch((error) => fail(`The WebAssembly module did not load (${error}): run bindings/wasm/build.sh again.`));
const samples = await fetch('samples.json').then((response) => (response.ok ? response.json() : {}), () => ({}));

function option(select, value, label) {
  const item = document.createElement('option');
  item.value = value;
  item.textContent = label;
  select.append(item);
}

for (const name of builtins()) option($('builtin'), name, `builtin:${name}`);
for (const agent of agents()) option($('agent'), agent.id, agent.name);
$('rules').value = EXAMPLE;

function fillSamples() {
  const select = $('sample');
  select.replaceChildren();
  (samples[$('agent').value] || []).forEach((sample, at) => option(select, String(at), sample.name));
  option(select, 'own', '(your own)');
  pickSample();
}

function pickSample() {
  const sample = (samples[$('agent').value] || [])[Number($('sample').value)];
  if (sample) {
    $('payload').value = JSON.stringify(sample.payload, null, 2);
    $('event').value = sample.event || '';
  }
  run();
}

function showDiagnostics(report, error) {
  const list = $('diagnostics');
  list.replaceChildren();
  const diagnostics = report.diagnostics.length ? report.diagnostics : (error?.diagnostics || []);
  for (const found of diagnostics) {
    const item = document.createElement('li');
    item.className = found.severity;
    const at = found.line ? `${found.line}:${found.column} ` : '';
    item.textContent = `${at}${found.severity}[${found.code}]: ${found.message}${found.help ? ` (help: ${found.help})` : ''}`;
    list.append(item);
  }
  const errors = diagnostics.filter((found) => found.severity === 'error').length;
  $('summary').textContent = report.rules === null
    ? `${errors} error${errors === 1 ? '' : 's'}: the rules do not load`
    : `${report.rules} rule${report.rules === 1 ? '' : 's'}, ${diagnostics.length} warning${diagnostics.length === 1 ? '' : 's'}`;
}

// The decision in a word: what the agent is told to do.
function verdict(result) {
  if (result.blockingError) return ['block', `block: ${result.blockingError.code}: ${result.blockingError.message}`];
  if (result.permissionBehavior) {
    const reason = result.permissionReason ? `: ${result.permissionReason}` : '';
    return [result.permissionBehavior, `${result.permissionBehavior}${reason}`];
  }
  if (result.preventContinuation) return ['block', `stop: ${result.stopReason || ''}`];
  if (result.forceContinue) return ['rewrite', `continue: ${result.forceContinue}`];
  // A rewrite or context decides nothing about permission, but it is what the rules did.
  const did = [];
  if (result.updatedInput) did.push('the arguments are rewritten');
  if (result.updatedOutput) did.push("the tool's output is rewritten");
  if (result.additionalContext?.length) did.push('context is added');
  if (did.length) return ['rewrite', `${did.join('; ')} (rules: ${(result.matched || []).join(', ')})`];
  return ['none', 'no rule decided (the agent decides)'];
}

function showTrace(explanation) {
  const body = $('trace');
  body.replaceChildren();
  for (const rule of explanation.rules) {
    const row = document.createElement('tr');
    // Each condition the rule tested, whether it held, and the value it read.
    const saw = (value) => (value === null || value === undefined ? 'nothing' : JSON.stringify(value));
    const tests = (rule.tests || []).map((test) => `${test.held ? '✓' : '✗'} ${test.test}  (saw ${saw(test.saw)})`);
    const cells = [rule.rule + (rule.file ? ` (${rule.file})` : ''), rule.outcome, rule.origin, tests.join('\n')];
    for (const text of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    row.className = rule.outcome === 'fired' ? 'fired' : (rule.outcome === 'waived' || rule.outcome === 'audited') ? 'waived' : '';
    body.append(row);
  }
  const { rules, ...rest } = explanation;
  $('explain').textContent = JSON.stringify(rest, null, 2);
}

// Line numbers beside the rules, kept in step with the text and its scrolling.
function numberLines() {
  const count = $('rules').value.split('\n').length;
  $('lines').textContent = Array.from({ length: count }, (_, at) => at + 1).join('\n');
  $('lines').scrollTop = $('rules').scrollTop;
}

// A link that opens this page with these rules, agent, payload and event (in the fragment: it
// never reaches a server).
function share() {
  const state = { rules: $('rules').value, agent: $('agent').value, payload: $('payload').value, event: $('event').value };
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  // In chunks: spreading a large policy's bytes into one call overflows the stack.
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  const encoded = btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
  history.replaceState(null, '', `#${encoded}`);
  $('link').value = location.href;
  $('link').select();
}

function restore() {
  if (location.hash.length < 2) return false;
  try {
    const base64 = location.hash.slice(1).replaceAll('-', '+').replaceAll('_', '/');
    const state = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))));
    $('rules').value = String(state.rules ?? EXAMPLE);
    if (agents().some((agent) => agent.id === state.agent)) $('agent').value = state.agent;
    fillSamples();
    $('sample').value = 'own';
    $('payload').value = String(state.payload ?? '');
    $('event').value = String(state.event ?? '');
    return true;
  } catch {
    return false;
  }
}

function run() {
  numberLines();
  const text = $('rules').value;
  const report = check(text);
  let policy;
  try {
    policy = Policy.fromSource(text);
    showDiagnostics(report);
  } catch (error) {
    showDiagnostics(report, error);
    $('decision').className = '';
    $('decision').textContent = 'the rules do not load';
    $('answer').textContent = '';
    $('trace').replaceChildren();
    $('explain').textContent = '';
    return;
  }
  const agent = $('agent').value;
  $('agent-id').textContent = agent;
  const options = $('event').value ? { event: $('event').value } : {};
  const payload = $('payload').value;
  const answer = policy.answer(agent, payload, options);
  $('answer').textContent = `exit ${answer.exit}\n${answer.stdout ?? '(nothing on stdout)'}${answer.stderr.length ? `\nstderr: ${answer.stderr.join('\n')}` : ''}`;
  try {
    const explanation = policy.explainPayload(agent, payload, options);
    const [kind, words] = verdict(explanation.result);
    $('decision').className = kind;
    $('decision').textContent = words;
    showTrace(explanation);
  } catch (error) {
    // A payload hookc cannot read: the hook blocks the call (exit 2), as the answer shows.
    $('decision').className = 'block';
    $('decision').textContent = `block: ${error instanceof HookcError ? error.message : error}`;
    $('trace').replaceChildren();
    $('explain').textContent = '';
  }
}

$('builtin').addEventListener('change', () => {
  const name = $('builtin').value;
  $('rules').value = name ? Object.entries(builtinSources(name)).map(([file, text]) => `# ${file}\n${text}`).join('\n') : EXAMPLE;
  run();
});
$('agent').addEventListener('change', fillSamples);
$('sample').addEventListener('change', pickSample);
for (const id of ['rules', 'payload', 'event']) $(id).addEventListener('input', run);
$('rules').addEventListener('scroll', () => { $('lines').scrollTop = $('rules').scrollTop; });
$('share').addEventListener('click', share);
fillSamples();
if (restore()) run();
// Another shared link opened in this tab.
window.addEventListener('hashchange', () => {
  if (restore()) run();
});
document.body.dataset.ready = 'true';
