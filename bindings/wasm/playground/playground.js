// The playground: edit rules, pick an agent and a sample payload, and see the diagnostics, what
// `hookc hook AGENT` would print, and the explain trace. Everything runs in this page, on every
// edit, through the WebAssembly build (../hookc.mjs); nothing is sent anywhere.
import { load, Policy, HookcError, check, agents, builtins, builtinSources } from '../hookc.mjs';

const $ = (id) => document.getElementById(id);
const EXAMPLE = `# Edit me: every change is checked and decided at once.
rule no-rm-home pre_tool_use when kind == shell and runs rm (flags in [r, R, recursive] and operands in ["~", "~/*"])
  => deny "deleting your home directory"
rule protect-generated pre_tool_use when kind == write and path == "generated.txt"
  => block "hook_blocked" "generated.txt is managed elsewhere"
`;

await load();
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
  return ['none', 'no rule decided (the agent decides)'];
}

function showTrace(explanation) {
  const body = $('trace');
  body.replaceChildren();
  for (const rule of explanation.rules) {
    const row = document.createElement('tr');
    const cells = [rule.rule + (rule.file ? ` (${rule.file})` : ''), rule.outcome, rule.origin];
    for (const text of cells) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    row.className = rule.outcome === 'fired' ? 'fired' : rule.outcome === 'waived' ? 'waived' : '';
    body.append(row);
  }
  const { rules, ...rest } = explanation;
  $('explain').textContent = JSON.stringify(rest, null, 2);
}

function run() {
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
fillSamples();
document.body.dataset.ready = 'true';
