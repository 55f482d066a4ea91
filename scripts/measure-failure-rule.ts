/**
 * Which failures the brief's "fixed" rule (sql/tools/cairn_failure_settled.sql) would leave out on
 * CodeRecall dev, dev2 and the probes, against the data set itself (a failure is fixed there when
 * a later entry supersedes it, or when a question asks for it with a memory or decision written
 * after it), and what a shared-tag rule would have left out instead. It reads the data sets only:
 * the cue and the "fixed" words are the SQL's patterns restated; anchors are the paths an entry is
 * written with and those its text names (scripts/coderecall.ts pathsIn, as `bench:recall --
 * --anchors` adds them); identifiers are cairn_idents restated, counted over the org (a fix in any of its projects).
 * "Wrongly" counts what the data set does not pair with a fix: read them, some are fixed all the
 * same (the data set's questions pair only some failures with their fix).
 *   sh scripts/node22.sh npx tsx scripts/measure-failure-rule.ts
 */
import { join } from 'node:path';
import { loadCodeRecall, pathsIn } from './coderecall';

const CUE_TAGS = ['incident', 'bug', 'failure', 'outage', 'regression', 'flaky', 'error'];
/** The words of a failure (cairn_brief_cue's v_failed). */
const FAILED =
  'fail|fails|failed|failing|failures?|errors?|exception|broke|broken|crash(?!-free)|crashed|crashes|crashing|crash-looped|timeouts?|timed out|flaky|regress|regressed|regresses|regressing|regressions?|incidents?|outages?|oom|oomkilled|panic|panics|panicked|deadlocks?';
/** What denies a failure word ("0 errors", "no crashes"), taken out before the words are looked for. */
const DENIED = new RegExp(`(^|[^A-Za-z0-9_.])(0|no|zero|without) ([A-Za-z]+ )?(${FAILED}|[45](\\d\\d|xx)s?)\\b`, 'gi');
const CUE = new RegExp(
  `\\b(${FAILED})\\b|_timeouts?\\b|\\b[45](\\d\\d|xx)s\\b|\\b[45]xx\\b|\\b(http|status|returned|returns|returning) [45]\\d\\d(?![-A-Za-z0-9_]|\\.[0-9])`,
  'i',
);
/** The cue's case-sensitive part: a status with its reason phrase, an exception as printed. */
const CUE_AS_WRITTEN =
  /\b[45]\d\d (Bad|Unauthorized|Payment|Forbidden|Not|Method|Proxy|Request|Conflict|Gone|Length|Precondition|Content|Payload|URI|Unsupported|Range|Expectation|Misdirected|Unprocessable|Locked|Failed|Too|Upgrade|Unavailable|Internal|Service|Gateway|HTTP|Variant|Insufficient|Loop|Network)\b|[a-z](Error|Exception):/;
/** A report that opens with what went well, before any failure word of its first 300 characters, and no "but". */
const FIRST_FAILED = new RegExp(`^([\\s\\S]*?)\\b(${FAILED})\\b`, 'i');
const WENT_WELL =
  /^(?![\s\S]*\b(but|except|although|though|however|yet|then|until|later)\b)[\s\S]*(\b(green|clean|passing)(?=\s*($|[:;,.)]|\s-\s|\s(on|in|at|after|again|now|for|with|across|since|everywhere)\b))|\bsucceeded\b)/i;
const worded = (text: string) => {
  const left = text.replace(DENIED, '$1');
  const lead = FIRST_FAILED.exec(left.slice(0, 300))?.[1];
  return (CUE.test(left) || CUE_AS_WRITTEN.test(text)) && !(lead !== undefined && WENT_WELL.test(lead));
};
/** A fix recorded (cairn_failure_settled's v_fix), and what an observation says of a resolved event (v_over). */
const FIXED =
  /(^|[.!?;]\s+)fixed\b|(?<!\b(not|never|no) |\b(until|unless|once|when|before|if) ([a-z'’]+ ){0,2})\bfixed(?=\s*([:(,.;]|$)|\s+(by|in|with|the|on|via|for|and|it|now|properly|upstream|after|when|since|so)\b)|(?<!\b(no|not|without|needs?|needed|awaiting|waiting for|looking for) (a )?)\bfix(es)? for\b|\bfix:/i;
const OVER = /\b(resolved|green again|passes again|passing again|back to green)\b/i;
/** What a memory says of a change made (cairn_failure_settled's v_changed). */
const CHANGED = /\b(now|no longer|any ?more)\b/i;
/** The kinds of entry a fix is recorded as. */
const FIXES = ['observe', 'remember', 'decide'];

interface Entry {
  key: string;
  tool: string;
  project: string | null;
  args: {
    content: string;
    rationale?: string;
    source?: string;
    tags?: string[];
    supersedes?: string;
    paths?: string[];
  };
}

const overlap = (a: string[], b: string[]) =>
  a.some((p) => b.some((q) => p === q || q.startsWith(`${p}/`) || p.startsWith(`${q}/`)));
const anchors = (e: Entry) => [...(e.args.paths ?? []), ...pathsIn([e.args.content, e.args.source].join(' '))];
/** cairn_idents: tokens with _ . / : # @ - inside, camelCase, or letters mixed with digits, lower-cased. */
const IDENT = /[_./:#@-]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]/;
const idents = (text: string) =>
  new Set(
    [...text.matchAll(/[A-Za-z0-9_][A-Za-z0-9_./:#@-]*[A-Za-z0-9_]/g)]
      .map((m) => m[0])
      .filter((m) => m.length >= 3 && m.length <= 200 && IDENT.test(m))
      .map((m) => m.toLowerCase()),
  );
/** How many entries may hold an identifier that names a failure (cairn_failure_settled's v_rare). */
const RARE = 3;

for (const set of ['dev', 'dev2', 'probes']) {
  const n = {
    failures: 0,
    fixedInData: 0,
    withItsFix: 0,
    withItsFixWrongly: 0,
    anchored: 0,
    byAnchors: 0,
    byAnchorsWrongly: 0,
    byIdentifier: 0,
    byIdentifierWrongly: 0,
    settled: 0,
    settledWrongly: 0,
    byTags: 0,
    byTagsWrongly: 0,
  };
  const wrongly: string[] = [];
  for (const { entries, questions } of loadCodeRecall(join(import.meta.dirname, '..'), set) as unknown as {
    entries: Entry[];
    questions: { relevant: string[] }[];
  }[]) {
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
    const text = (e: Entry) => [e.args.content, e.args.rationale ?? '', e.args.source ?? ''].join(' ');
    const held = new Map<string, number>();
    for (const e of entries) for (const x of idents(text(e))) held.set(x, (held.get(x) ?? 0) + 1);
    entries.forEach((e, i) => {
      const tags = e.args.tags ?? [];
      if (e.tool !== 'observe' || !(tags.some((t) => CUE_TAGS.includes(t)) || worded(e.args.content))) return;
      n.failures++;
      const fixed = fixedHere.has(e.key);
      if (fixed) n.fixedInData++;
      const count = (rule: boolean, name: 'withItsFix' | 'byAnchors' | 'byIdentifier' | 'byTags') => {
        if (!rule) return;
        n[name]++;
        if (fixed) return;
        n[`${name}Wrongly`]++;
        if (name !== 'byTags') wrongly.push(`${name}: ${e.key} ${e.args.content.slice(0, 100)}`);
      };
      const self = FIXED.test(e.args.content);
      count(self, 'withItsFix');
      const later = entries
        .slice(i + 1)
        .filter(
          (x) =>
            FIXES.includes(x.tool) &&
            (FIXED.test(x.args.content) || (x.tool === 'observe' && OVER.test(x.args.content))),
        );
      const here = later.filter((x) => x.project === e.project);
      count(
        here.some((x) => (x.args.tags ?? []).some((t) => tags.includes(t))),
        'byTags',
      );
      const paths = anchors(e);
      if (paths.length) n.anchored++;
      const byAnchors = paths.length > 0 && here.some((x) => overlap(paths, anchors(x)));
      count(byAnchors, 'byAnchors');
      const names = [...idents(e.args.content)].filter(
        (x) => x.length > 3 && !/^v?[0-9]+(\.[0-9]+)*$/.test(x) && (held.get(x) ?? 0) <= RARE,
      );
      // a fix that names it, or a decision that does whatever its words, or a memory of a change
      const changes = entries
        .slice(i + 1)
        .filter((x) => x.tool === 'decide' || (x.tool === 'remember' && CHANGED.test(x.args.content)));
      const byIdentifier = [...later, ...changes].some((x) => names.some((y) => idents(text(x)).has(y)));
      count(byIdentifier, 'byIdentifier');
      if (self || byAnchors || byIdentifier) {
        n.settled++;
        if (!fixed) n.settledWrongly++;
      }
    });
  }
  console.log(set, n);
  for (const w of wrongly) console.log(`  not paired with a fix in the data: ${w}`);
}
