/**
 * Which failures the brief's "fixed" rule (sql/tools/cairn_failure_settled.sql) would leave out on
 * CodeRecall dev and dev2, against the data set itself (a failure is fixed there when a later entry
 * supersedes it, or when a question asks for it with a memory or decision written after it), and
 * what a shared-tag rule would have left out instead. It reads the data sets only: the cue and the
 * "fixed" words are the SQL's patterns restated; anchors are the paths an entry is written with and
 * those its text names (scripts/coderecall.ts pathsIn, as `bench:recall -- --anchors` adds them).
 *   sh scripts/node22.sh npx tsx scripts/measure-failure-rule.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathsIn } from './coderecall';

const CUE_TAGS = ['incident', 'bug', 'failure', 'outage', 'regression', 'flaky', 'error'];
/** The words of a failure (cairn_brief_cue's v_failed). */
const FAILED =
  'fail|fails|failed|failing|failures?|errors?|exception|broke|broken|crash(?!-free)|crashed|crashes|crashing|crash-looped|timeouts?|timed out|flaky|regress|regressed|regresses|regressing|regressions?|incidents?|outages?|oom|oomkilled|panic|panics|panicked|deadlocks?';
/** What denies a failure word ("0 errors", "no crashes"), taken out before the words are looked for. */
const DENIED = new RegExp(`(^|[^A-Za-z0-9_.])(0|no|zero|without) (${FAILED})\\b`, 'gi');
const CUE = new RegExp(
  `\\b(${FAILED})\\b|_timeouts?\\b|\\b[45](\\d\\d|xx)s\\b|\\b[45]xx\\b|\\b(http|status|returned|returns|returning) [45]\\d\\d(?![-A-Za-z0-9_]|\\.[0-9])`,
  'i',
);
/** The cue's case-sensitive part: a status with its reason phrase, an exception as printed. */
const CUE_AS_WRITTEN =
  /\b[45]\d\d (Bad|Unauthorized|Payment|Forbidden|Not|Method|Proxy|Request|Conflict|Gone|Length|Precondition|Content|Payload|URI|Unsupported|Range|Expectation|Misdirected|Unprocessable|Locked|Failed|Too|Upgrade|Unavailable|Internal|Service|Gateway|HTTP|Variant|Insufficient|Loop|Network)\b|[a-z](Error|Exception):/;
const worded = (text: string) => CUE.test(text.replace(DENIED, '$1')) || CUE_AS_WRITTEN.test(text);
/** A fix recorded (cairn_failure_settled's v_fix), and what an observation says of a resolved event (v_over). */
const FIXED =
  /(?<!\b(not|never|no) )\bfixed(?=\s*([:(,.;]|$)|\s+(by|in|with|the|on|via|for|and|it|now|properly|upstream|after|when|since|so)\b)|(?<!\b(no|not|without|needs?|needed|awaiting|waiting for|looking for) (a )?)\bfix(es)? for\b|\bfix:/i;
const OVER = /\b(resolved|green again|passes again|passing again|back to green)\b/i;
/** The kinds of entry a fix is recorded as. */
const FIXES = ['observe', 'remember', 'decide'];

interface Entry {
  key: string;
  tool: string;
  project: string | null;
  args: { content: string; source?: string; tags?: string[]; supersedes?: string; paths?: string[] };
}

const overlap = (a: string[], b: string[]) =>
  a.some((p) => b.some((q) => p === q || q.startsWith(`${p}/`) || p.startsWith(`${q}/`)));
const anchors = (e: Entry) => [...(e.args.paths ?? []), ...pathsIn([e.args.content, e.args.source].join(' '))];

for (const set of ['dev', 'dev2']) {
  const orgs = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', '..', 'shared', 'bench', 'coderecall', `${set}.json`), 'utf8'),
  ) as { entries: Entry[]; questions: { relevant: string[] }[] }[];
  const n = {
    failures: 0,
    fixedInData: 0,
    anchored: 0,
    byAnchors: 0,
    byAnchorsWrongly: 0,
    byTags: 0,
    byTagsWrongly: 0,
  };
  for (const { entries, questions } of orgs) {
    const tool = new Map(entries.map((e) => [e.key, e.tool]));
    const at = new Map(entries.map((e, i) => [e.key, i]));
    // superseded, or asked for with a memory or decision written after it: its fix
    const fixedHere = new Set(entries.map((e) => e.args.supersedes?.slice(1)));
    for (const q of questions)
      for (const k of q.relevant)
        if (
          tool.get(k) === 'observe' &&
          q.relevant.some(
            (f) => (tool.get(f) === 'remember' || tool.get(f) === 'decide') && (at.get(f) ?? 0) > (at.get(k) ?? 0),
          )
        )
          fixedHere.add(k);
    entries.forEach((e, i) => {
      const tags = e.args.tags ?? [];
      if (e.tool !== 'observe' || !(tags.some((t) => CUE_TAGS.includes(t)) || worded(e.args.content))) return;
      n.failures++;
      const fixed = fixedHere.has(e.key);
      if (fixed) n.fixedInData++;
      const later = entries
        .slice(i + 1)
        .filter(
          (x) =>
            FIXES.includes(x.tool) &&
            x.project === e.project &&
            (FIXED.test(x.args.content) || (x.tool === 'observe' && OVER.test(x.args.content))),
        );
      if (later.some((x) => (x.args.tags ?? []).some((t) => tags.includes(t)))) {
        n.byTags++;
        if (!fixed) n.byTagsWrongly++;
      }
      const paths = anchors(e);
      if (paths.length === 0) return;
      n.anchored++;
      if (later.some((x) => overlap(paths, anchors(x)))) {
        n.byAnchors++;
        if (!fixed) n.byAnchorsWrongly++;
      }
    });
  }
  console.log(set, n);
}
