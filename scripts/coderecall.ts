/**
 * CodeRecall (../shared/bench/coderecall/README.md) through the public MCP tools: each org of
 * dev.json gets its own Cairn org, its entries are replayed in order by their agents, and every
 * question is asked through `recall` (limit 10) as its agent in its project.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { NOT_MENTIONED } from '../src/mcp/tools/recall';
import type { RunningServer } from '../src/node/node';
import { adminActions } from '../src/operator/admin';

export interface CodeEntry {
  key: string;
  agent: string;
  project: string | null;
  tool: 'remember' | 'observe' | 'decide' | 'plan' | 'note';
  args: Record<string, unknown>;
}
export interface CodeQuestion {
  id: string;
  agent: string;
  project: string | null;
  query: string;
  relevant: string[];
  must_outrank?: string[];
  category: string;
}
export interface CodeOrg {
  org: string;
  entries: CodeEntry[];
  questions: CodeQuestion[];
}
/** One result of a ranking, the service's or the baseline's. */
export interface Hit {
  id: string;
  kind: string;
  agent: string;
  project: string | null;
  content: string;
}
/** What one system answered to one question: its hits, and for the service the text length. */
export interface Answer {
  q: CodeQuestion;
  org: string;
  idOf: (key: string) => string | undefined;
  keyOf: (id: string) => string | undefined;
  hits: Hit[];
  chars?: number;
  /** The page named question words no hit mentions (src/mcp/tools/recall.ts). */
  unmentioned?: boolean;
}
export interface Refusal {
  org: string;
  key: string;
  tool: string;
  error: string;
}

/**
 * A CodeRecall set: `dev` (the default) or `dev2`, the tuning sets; `probes`, the orgs of
 * bench/probes/, written blind to the ranking and never tuned on; or the path of a file in the
 * same format.
 */
export function loadCodeRecall(root: string, set = 'dev'): CodeOrg[] {
  if (set === 'probes') {
    const dir = join(root, 'bench', 'probes');
    return readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .flatMap((f) => loadCodeRecall(root, join(dir, f)));
  }
  const file = set.endsWith('.json') ? set : join(root, '..', 'shared', 'bench', 'coderecall', `${set}.json`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

type Call = (
  name: string,
  args: Record<string, unknown>,
) => Promise<{ error?: string; structured: Record<string, unknown>; text: string }>;

/** An MCP client as one agent of one org; no X-Svc-Project header, so the project is per call. */
async function connect(
  url: string,
  secret: string,
  agent: string,
): Promise<{ call: Call; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench-coderecall', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { 'X-Svc-Key': secret, 'X-Svc-Agent': agent } },
    }),
  );
  const call: Call = async (name, args) => {
    const r: { isError?: boolean; content?: unknown; structuredContent?: unknown } = await client
      .callTool({ name, arguments: args })
      .catch((e: Error & { code?: unknown }) => {
        // a refusal may come back as a JSON-RPC error (invalid arguments) rather than a tool error
        if (typeof e.code !== 'number') throw e;
        return { isError: true, content: [{ type: 'text', text: e.message }] };
      });
    const blocks = (r.content ?? []) as { type: string; text?: string }[];
    const text = blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
    const structured = (r.structuredContent ?? {}) as Record<string, unknown>;
    return r.isError ? { error: text, structured, text } : { structured, text };
  };
  return { call, close: () => client.close() };
}

/** Whether a question's answers are in the 4,000-character brief of its agent in its project. */
export interface BriefCoverage {
  org: string;
  project: string | null;
  question: string;
  category: string;
  /** How many of its relevant entries the brief shows. */
  found: number;
  relevant: number;
}

/**
 * The repo-relative paths an entry's text names — a file with an extension, or a folder written
 * with its trailing '/' — as the anchors of the anchored replay (`--anchors`): what an agent that
 * names a file would pass as `paths`.
 */
export function pathsIn(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<![\w/.:@-])((?:[\w.-]+\/)+[\w.-]+\.[A-Za-z]{1,5}|(?:[\w-]+\/)+)(?![\w/])/g)) {
    const p = (m[1] as string).replace(/\/+$/, '');
    if (p && !p.split('/').some((x) => x === '.' || x === '..' || x === '')) out.add(p);
  }
  return [...out].slice(0, 50);
}

/** A prompt whose answer is in no org's memory (bench/prompts/no-answer.json), asked in one org: what recall returned. */
export interface NoAnswer {
  org: string;
  agent: string;
  project: string;
  prompt: string;
  hits: number;
  /** The page named prompt words no hit mentions (src/mcp/tools/recall.ts). */
  unmentioned: boolean;
  /** The first hit: its entry key in the data set, kind, score and text. */
  top?: { key: string; kind: string; score: number; content: string };
}

/** Whether a recall result names words of the question that no hit mentions. */
const unmentioned = (structured: Record<string, unknown>) =>
  typeof structured.notice === 'string' && structured.notice.includes(NOT_MENTIONED);

/**
 * Who asks the i-th no-answer prompt in an org, and where: the org's projects in turn (sorted),
 * and in each project the agents that wrote there in turn (most entries first, then by name), so
 * the 80 prompts spread over every project and its writers, the same on every run.
 */
export function askerOf(org: CodeOrg, i: number): { agent: string; project: string } {
  const writers = new Map<string, Map<string, number>>();
  for (const e of org.entries) {
    if (e.project === null) continue;
    const w = writers.get(e.project) ?? new Map<string, number>();
    w.set(e.agent, (w.get(e.agent) ?? 0) + 1);
    writers.set(e.project, w);
  }
  const projects = [...writers.keys()].sort();
  const project = projects[i % projects.length] as string;
  const agents = [...(writers.get(project) as Map<string, number>)]
    .sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1))
    .map(([a]) => a);
  return { agent: agents[Math.floor(i / projects.length) % agents.length] as string, project };
}

/** In the anchored replay: of the entries with anchors, how many are superseded or not, and marked stale or not. */
export interface StaleCount {
  org: string;
  superseded: boolean;
  stale: boolean;
  entries: number;
  /** Of the marked ones: how many were marked by an entry of their own supersede chain in the data set (a real disagreement). */
  disagree?: number;
}

/** One org of the data set replayed into a Cairn org of its own. */
export interface ReplayedOrg {
  /** The Cairn org's API key. */
  secret: string;
  /** An MCP client acting as `agent` (made on first use). */
  as: (agent: string) => Promise<Call>;
  /** Cairn's id of each written entry, by the data set's key, and back. */
  ids: Map<string, string>;
  keys: Map<string, string>;
  /** Each entry's supersede chain in the data set, named by its oldest entry's key. */
  chain: Map<string, string>;
  /** Every path written as an anchor (with `anchors`). */
  anchored: Set<string>;
  refused: Refusal[];
  refusedSupersessions: Refusal[];
  /** Replays more entries into the same org, after those replayed so far. */
  write: (entries: CodeEntry[]) => Promise<void>;
  close: () => Promise<void>;
}

/** A small seeded generator (mulberry32): the same numbers on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The org's writes as parallel agents could have made them: each agent's own writes in their order,
 * the agents interleaved at random (seeded), a write never before the entry it supersedes.
 */
export function interleaved(entries: CodeEntry[], seed: number): CodeEntry[] {
  const random = seeded(seed);
  const queues = [...Map.groupBy(entries, (e) => e.agent).values()];
  const keys = new Set(entries.map((e) => e.key));
  const written = new Set<string>();
  const out: CodeEntry[] = [];
  while (out.length < entries.length) {
    const ready = queues.filter((q) => {
      const dep = (q[0]?.args as { supersedes?: string } | undefined)?.supersedes?.slice(1);
      return q.length > 0 && (!dep || !keys.has(dep) || written.has(dep));
    });
    const queue = ready[Math.floor(random() * ready.length)] ?? queues.find((q) => q.length > 0);
    const e = queue?.shift();
    if (!e) break;
    written.add(e.key);
    out.push(e);
  }
  return out;
}

/**
 * A question inside a request, as a prompt to an agent says it (`--framed`): words around the
 * subject that no answer needs ("I'm about to make some changes …", "keep the answer short"). One
 * of four framings, by the question's place; recall should find the answer all the same.
 */
const FRAMINGS: ((q: string) => string)[] = [
  (q) => `hey, quick one before I start on this ticket: ${q} thanks`,
  (q) =>
    `I'm about to make some changes in this part of the codebase and want to avoid surprises. ${q} Please check what the team already knows before answering.`,
  (q) => `Context: I just joined the team and I'm reading through the code. Question: ${q} If you're not sure, say so.`,
  (q) => `${q} Keep the answer short and point me to the relevant files if you can.`,
];

export function framed(query: string, i: number): string {
  return (FRAMINGS[i % FRAMINGS.length] as (q: string) => string)(query);
}

/** bench/prompts/no-answer.json's prompts, each framed (`framed`) when asked. */
export function noAnswerPrompts(root: string, framedToo = false): string[] {
  const { prompts } = JSON.parse(readFileSync(join(root, 'bench', 'prompts', 'no-answer.json'), 'utf8')) as {
    prompts: string[];
  };
  return framedToo ? prompts.map(framed) : prompts;
}

/** The orgs with every question framed (`framed`), each by its place in its org. */
export function framedQuestions(data: CodeOrg[]): CodeOrg[] {
  return data.map((org) => ({ ...org, questions: org.questions.map((q, i) => ({ ...q, query: framed(q.query, i) })) }));
}

/**
 * Replays one org's entries in order (with `interleave`, as `interleaved` orders them), each by its
 * agent in its project, into a new Cairn org; refused writes are counted, not fatal. With
 * `anchors`, each entry (but a plan's update) is written with the paths its text names.
 */
export async function replayOrg(
  server: RunningServer,
  org: CodeOrg,
  opts: { anchors?: boolean | undefined; interleave?: number | undefined } = {},
): Promise<ReplayedOrg> {
  const { key } = await adminActions(server.store, 'bench').createOrg(`coderecall-${org.org}`);
  const clients = new Map<string, Call>();
  const closers: (() => Promise<void>)[] = [];
  const as = async (agent: string) => {
    let call = clients.get(agent);
    if (!call) {
      const c = await connect(server.url, key.secret, agent);
      closers.push(c.close);
      call = c.call;
      clients.set(agent, call);
    }
    return call;
  };
  const ids = new Map<string, string>();
  const keys = new Map<string, string>();
  const chain = new Map<string, string>();
  const anchored = new Set<string>();
  const refused: Refusal[] = [];
  const refusedSupersessions: Refusal[] = [];
  const write = async (entries: CodeEntry[]) => {
    for (const e of entries) {
      const { supersedes, ...args } = e.args as { supersedes?: string };
      if (e.project !== null) Object.assign(args, { project: e.project });
      const old = supersedes ? ids.get(supersedes.slice(1)) : undefined;
      if (supersedes && !old) {
        refusedSupersessions.push({ org: org.org, key: e.key, tool: e.tool, error: `${supersedes} was refused` });
      }
      if (old) Object.assign(args, e.tool === 'plan' ? { id: old } : { supersedes: old });
      const a = e.args as Record<string, unknown>;
      const paths =
        opts.anchors && !(e.tool === 'plan' && old)
          ? pathsIn([a.content, a.rationale, a.source, a.title].join(' '))
          : [];
      if (paths.length) Object.assign(args, { paths });
      for (const p of paths) anchored.add(p);
      const r = await (await as(e.agent))(e.tool, args);
      if (r.error) {
        refused.push({ org: org.org, key: e.key, tool: e.tool, error: r.error });
        continue;
      }
      const id = (r.structured.entry as { id: string }).id;
      ids.set(e.key, id);
      keys.set(id, e.key);
      chain.set(e.key, (old && e.tool !== 'plan' && chain.get(supersedes?.slice(1) ?? '')) || e.key);
    }
  };
  await write(opts.interleave === undefined ? org.entries : interleaved(org.entries, opts.interleave));
  const close = async () => {
    for (const c of closers) await c();
  };
  return { secret: key.secret, as, ids, keys, chain, anchored, refused, refusedSupersessions, write, close };
}

/**
 * Replays every org and asks every question; refused writes are counted, not fatal. With
 * `anchors`, each entry (but a plan's update) is written with the paths its text names, and
 * after the replay every anchored entry is read back (recall by its paths, superseded included)
 * to count where the stale marks fall. Then, unless `briefs` is false, asks each
 * question's agent for the brief of the question's project (space view brief, the default 4,000
 * characters) and notes which answers it shows. With `prompts` (questions whose answer is in no
 * org's memory), asks each through `recall` (limit 10) in every org, as `askerOf` says.
 */
export async function runCodeRecall(
  server: RunningServer,
  data: CodeOrg[],
  opts: { anchors?: boolean; prompts?: string[]; interleave?: number | undefined; briefs?: boolean } = {},
) {
  const staleCounts: StaleCount[] = [];
  const noAnswer: NoAnswer[] = [];
  const answers: Answer[] = [];
  const refused: Refusal[] = [];
  const refusedSupersessions: Refusal[] = [];
  const briefs: BriefCoverage[] = [];
  const briefChars: number[] = [];
  const closers: (() => Promise<void>)[] = [];
  for (const org of data) {
    const replayed = await replayOrg(server, org, { anchors: opts.anchors, interleave: opts.interleave });
    closers.push(replayed.close);
    refused.push(...replayed.refused);
    refusedSupersessions.push(...replayed.refusedSupersessions);
    const { as, ids, keys, chain, anchored } = replayed;
    if (opts.anchors) {
      const seen = new Map<string, { stale: boolean; superseded: boolean; disagree: boolean }>();
      const reader = await as((org.entries[0] as CodeEntry).agent);
      const chainOf = (id: string) => chain.get(keys.get(id) ?? '') ?? id;
      for (const p of anchored) {
        const r = await reader('recall', { query: '', paths: [p], include_superseded: true, limit: 100, scope: 'org' });
        if (r.error) throw new Error(`recall paths ${p}: ${r.error}`);
        const hits = r.structured.hits as {
          id: string;
          stale: { entry: string } | null;
          superseded_by: string | null;
        }[];
        for (const h of hits) {
          const disagree = h.stale !== null && chainOf(h.stale.entry) === chainOf(h.id);
          seen.set(h.id, { stale: h.stale !== null, superseded: h.superseded_by !== null, disagree });
        }
      }
      for (const superseded of [true, false]) {
        for (const stale of [true, false]) {
          const of = [...seen.values()].filter((v) => v.superseded === superseded && v.stale === stale);
          const disagree = stale ? { disagree: of.filter((v) => v.disagree).length } : {};
          staleCounts.push({ org: org.org, superseded, stale, entries: of.length, ...disagree });
        }
      }
    }
    for (const q of org.questions) {
      const args = { query: q.query, limit: 10, ...(q.project !== null ? { project: q.project } : {}) };
      const r = await (await as(q.agent))('recall', args);
      if (r.error) throw new Error(`recall ${q.id}: ${r.error}`);
      const hits = (r.structured.hits as Hit[]).map(({ id, kind, agent, project, content }) => ({
        id,
        kind,
        agent,
        project,
        content,
      }));
      answers.push({
        q,
        org: org.org,
        idOf: (k) => ids.get(k),
        keyOf: (id) => keys.get(id),
        hits,
        chars: r.text.length,
        unmentioned: unmentioned(r.structured),
      });
    }
    for (const [i, prompt] of (opts.prompts ?? []).entries()) {
      const { agent, project } = askerOf(org, i);
      const r = await (await as(agent))('recall', { query: prompt, limit: 10, project });
      if (r.error) throw new Error(`recall "${prompt}": ${r.error}`);
      const hits = r.structured.hits as (Hit & { score: number })[];
      const first = hits[0];
      noAnswer.push({
        org: org.org,
        agent,
        project,
        prompt,
        hits: hits.length,
        unmentioned: unmentioned(r.structured),
        ...(first && {
          top: { key: keys.get(first.id) ?? first.id, kind: first.kind, score: first.score, content: first.content },
        }),
      });
    }
    for (const [project, qs] of opts.briefs === false ? [] : Map.groupBy(org.questions, (q) => q.project)) {
      const shown = new Map<string, Set<string>>();
      for (const q of qs) {
        if (!shown.has(q.agent)) {
          const r = await (await as(q.agent))('space', { view: 'brief', ...(project !== null ? { project } : {}) });
          if (r.error) throw new Error(`brief ${project}: ${r.error}`);
          const brief = r.structured.brief as { sections: { items: { id: string }[] }[] };
          shown.set(q.agent, new Set(brief.sections.flatMap((s) => s.items.map((i) => keys.get(i.id) ?? i.id))));
          briefChars.push(r.text.length);
        }
        const inBrief = shown.get(q.agent) as Set<string>;
        const found = q.relevant.filter((k) => inBrief.has(k)).length;
        briefs.push({
          org: org.org,
          project,
          question: q.id,
          category: q.category,
          found,
          relevant: q.relevant.length,
        });
      }
    }
  }
  for (const close of closers) await close();
  return { answers, refused, refusedSupersessions, briefs, briefChars, staleCounts, noAnswer };
}
