// hookc's plugin for __AGENT_NAME__, written by `hookc init __AGENT_ID__`: every tool call is
// decided by `hookc hook __AGENT_ID__`, and refused when hookc cannot decide (it is missing,
// crashed, timed out, or answered anything but what this plugin reads). Regenerate it with
// `hookc init`; hand edits are overwritten.
import { spawnSync } from "node:child_process";

// The hook command, run through `/bin/sh -c` as command hooks are (paths quoted for sh).
const HOOKC_COMMAND = __COMMAND__;
// Below the deadline nothing waits for: a call that takes longer is refused.
const TIMEOUT_MS = __TIMEOUT_MS__;
const ANSWERS = new Set(["none", "deny", "allow"]);

function decide(payload) {
  let run;
  try {
    run = spawnSync("/bin/sh", ["-c", HOOKC_COMMAND], {
      input: JSON.stringify(payload),
      encoding: "utf8",
      timeout: TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    throw new Error(`hookc could not run (${error && error.message}), so the call is refused`);
  }
  if (run.error) {
    throw new Error(`hookc could not run (${run.error.message}), so the call is refused`);
  }
  const said = (run.stderr || "").trim().split("\n").filter(Boolean).pop() || "";
  if (run.status !== 0) {
    const why = run.status === null ? `ended by ${run.signal}` : `exit ${run.status}`;
    throw new Error(said || `hookc failed (${why}), so the call is refused`);
  }
  let answer;
  try {
    answer = JSON.parse(run.stdout);
  } catch {
    throw new Error("hookc answered something this plugin cannot read, so the call is refused");
  }
  if (answer === null || typeof answer !== "object" || !ANSWERS.has(answer.decision)) {
    throw new Error("hookc answered something this plugin cannot read, so the call is refused");
  }
  return answer;
}

export const Hookc = async ({ directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    const answer = decide({
      hook_event_name: "tool.execute.before",
      session_id: input.sessionID,
      tool_use_id: input.callID,
      tool_name: input.tool,
      tool_input: output.args,
      cwd: directory,
      project_root: worktree,
    });
    if (answer.decision === "deny") {
      throw new Error(typeof answer.reason === "string" && answer.reason ? answer.reason : "denied by hookc");
    }
    if (answer.args !== null && typeof answer.args === "object" && !Array.isArray(answer.args)) {
      for (const key of Object.keys(output.args)) delete output.args[key];
      Object.assign(output.args, answer.args);
    }
  },
  "tool.execute.after": async (input, output) => {
    // The call ran: what is left to decide is what the model reads of its output. An output
    // hookc cannot check is withheld.
    let answer;
    try {
      answer = decide({
        hook_event_name: "tool.execute.after",
        session_id: input.sessionID,
        tool_use_id: input.callID,
        tool_name: input.tool,
        tool_input: input.args,
        tool_response: typeof output.output === "string" ? output.output : JSON.stringify(output.output ?? ""),
        cwd: directory,
        project_root: worktree,
      });
    } catch (error) {
      output.output = `[hookc could not check this output, so it is withheld: ${error && error.message}]`;
      return;
    }
    if (typeof answer.output === "string") output.output = answer.output;
  },
});
