// One verdict a line, in test/lib/verdicts.py's format: first "plan<TAB>N"
// (N verdicts follow), then "ok<TAB>what", "not ok<TAB>what", "#<TAB>note",
// which the .pl files turn into TAP checks.

// plan(n): the plan line, before the first verdict.
export function plan(n) {
  console.log(`plan\t${n}`);
}

// note(text): each line of text as a note.
export function note(text) {
  for (const line of String(text).split('\n')) console.log(`#\t${line}`);
}

// ok(cond, what, extra): one verdict, whitespace in what folded; on a
// failure, extra follows it as a note.
export function ok(cond, what, extra) {
  console.log(`${cond ? 'ok' : 'not ok'}\t${what.split(/\s+/).filter(Boolean).join(' ')}`);
  if (!cond && extra !== undefined) note(extra);
  return cond;
}

// attempt(what, fn): fn's result, or undefined after a failed verdict naming
// its error, so that one failure does not hide the checks after it.
export async function attempt(what, fn) {
  try {
    return await fn();
  } catch (e) {
    ok(false, what, e && e.stack ? e.stack : String(e));
    return undefined;
  }
}
