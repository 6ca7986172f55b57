// The verdict lines of test/lib/verdicts.py, for the suite's Node helpers:
// plan(n) first, then ok(cond, what, extra) per check and note(text).

// plan(n): the plan line, before the first verdict: n verdicts follow.
export function plan(n) {
  console.log(`plan\t${n}`);
}

// note(text): each line of text as a note.
export function note(text) {
  for (const line of String(text).split('\n')) console.log(`#\t${line}`);
}

// ok(cond, what, extra): one verdict, whitespace in what folded as say() does;
// on a failure, extra follows it as a note. Returns cond.
export function ok(cond, what, extra) {
  console.log(`${cond ? 'ok' : 'not ok'}\t${what.split(/\s+/).filter(Boolean).join(' ')}`);
  if (!cond && extra) note(extra);
  return cond;
}
