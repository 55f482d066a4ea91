/**
 * The calls measured: every tool (plan as create and update, space as each of its six views),
 * each a JSON-RPC `tools/call` POSTed to /mcp as a Streamable HTTP client sends it (stateless,
 * JSON response), as the agent and in the project of the corpus entry or question it uses. A call
 * counts as failed on an HTTP error, a JSON-RPC error or a tool result with isError.
 */
import type { CodeEntry } from '../coderecall';
import type { Corpus } from './corpus';

/** POSTs one JSON-RPC request; the result's structuredContent, or throws with the reason. */
export type Rpc = (method: string, params: Record<string, unknown>, agent?: string) => Promise<Record<string, unknown>>;

/** Sends one request body with its headers; the answer's HTTP status and body. */
export type Send = (body: string, headers: Record<string, string>) => Promise<{ status: number; text: string }>;

/** JSON-RPC over HTTP POSTs to `url`. */
export function rpcClient(url: string, secret: string): Rpc {
  return rpcOver(async (body, headers) => {
    const res = await fetch(url, { method: 'POST', headers, body });
    return { status: res.status, text: await res.text() };
  }, secret);
}

/** JSON-RPC as a client sends it (Streamable HTTP, stateless, JSON answers), over any `send`. */
export function rpcOver(send: Send, secret: string): Rpc {
  let id = 0;
  return async (method, params, agent = 'bench') => {
    const { status, text } = await send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      'x-svc-key': secret,
      'x-svc-agent': agent,
    });
    if (status < 200 || status > 299) throw new Error(`HTTP ${status}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as {
      error?: { message: string };
      result?: { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text?: string }[] };
    };
    if (body.error) throw new Error(`JSON-RPC error: ${body.error.message}`);
    if (!body.result || body.result.isError) throw new Error(`tool error: ${body.result?.content?.[0]?.text}`);
    return body.result.structuredContent ?? {};
  };
}

export interface Op {
  /** tool name, or tool.variant (plan.create, space.brief …) */
  name: string;
  /** Makes what the op needs (plans to update, artifacts to get, entries to forget), unmeasured. */
  prepare?: (calls: number) => Promise<void>;
  /** The i-th call. */
  call: (i: number) => Promise<unknown>;
}

/** What the ops share: ids written during the run, for the ops that read, update or forget them. */
export interface RunState {
  /** Entries written by the write ops, with their writer (who may forget a private note). */
  written: { id: string; agent: string }[];
  plans: string[];
  artifacts: string[];
  historyIds: string[];
}

const pick = <T>(list: T[], i: number): T => list[i % list.length] as T;

/** All ops, in the order they run: reads first (on the database as loaded), then writes, then forget. */
export function allOps(rpc: Rpc, corpus: Corpus, state: RunState, runTag: string): Op[] {
  const tool = (name: string, args: Record<string, unknown>, agent: string) =>
    rpc('tools/call', { name, arguments: args }, agent);
  const who = (i: number) => pick(corpus.agents, i);
  const inProject = (i: number) => {
    const w = who(i);
    return { agent: w.agent, project: w.project ? { project: w.project } : {} };
  };
  const ofKind = (kind: CodeEntry['tool']) => corpus.entries.filter((e) => e.tool === kind);
  const texts = Object.fromEntries(
    (['remember', 'observe', 'decide', 'note', 'plan'] as const).map((k) => [k, ofKind(k)]),
  ) as Record<CodeEntry['tool'], CodeEntry[]>;
  let serial = 0;
  const mark = () => ` [bench ${runTag} ${serial++}]`;
  const content = (kind: CodeEntry['tool'], i: number) => `${pick(texts[kind], i).args.content as string}${mark()}`;
  const id = (r: Record<string, unknown>) => (r.entry as { id: string }).id;
  const steps = (i: number) =>
    ['reproduce the failure', 'write the fix', 'add a regression test', 'roll out behind a flag'].map((text, k) => ({
      text,
      status: k < i % 4 ? 'done' : 'todo',
    }));
  const space = (view: string, extra: (i: number) => Record<string, unknown> = () => ({})): Op => ({
    name: `space.${view}`,
    call: (i) => {
      const p = inProject(i);
      return tool('space', { view, ...p.project, ...extra(i) }, p.agent);
    },
  });
  const write = (
    name: 'remember' | 'observe' | 'decide' | 'note',
    extra: (i: number) => Record<string, unknown>,
  ): Op => ({
    name,
    call: async (i) => {
      const p = inProject(i);
      const r = await tool(name, { content: content(name, i), ...p.project, ...extra(i) }, p.agent);
      state.written.push({ id: id(r), agent: p.agent });
      return r;
    },
  });
  const ensure = async (list: unknown[], want: number, make: (i: number) => Promise<unknown>) => {
    for (let i = list.length; i < want; i += 16) {
      await Promise.all(Array.from({ length: Math.min(16, want - i) }, (_, k) => make(i + k)));
    }
  };
  const createPlan = async (i: number) => {
    const p = inProject(i);
    const title = `${pick(texts.plan, i).args.title as string}${mark()}`;
    const r = await tool('plan', { title, steps: steps(0), ...p.project }, p.agent);
    state.plans.push(id(r));
    return r;
  };
  const putArtifact = async (i: number) => {
    const p = inProject(i);
    const r = await tool(
      'artifact_put',
      {
        name: `notes/bench-${runTag}-${i}.md`,
        content: content('remember', i),
        content_type: 'text/markdown',
        ...p.project,
      },
      p.agent,
    );
    state.artifacts.push((r.artifact as { id: string }).id);
    return r;
  };
  return [
    {
      name: 'recall',
      call: (i) => {
        const q = pick(corpus.questions, i);
        return tool('recall', { query: q.query, ...(q.project ? { project: q.project } : {}) }, q.agent);
      },
    },
    space('overview'),
    space('projects'),
    space('agents'),
    space('ledger'),
    space('brief'),
    space('history', (i) => ({ entry_id: pick(state.historyIds, i) })),
    {
      name: 'artifact_get',
      prepare: () => ensure(state.artifacts, 64, putArtifact),
      call: (i) => tool('artifact_get', { id: pick(state.artifacts, i) }, who(i).agent),
    },
    write('remember', () => ({ tags: ['bench'] })),
    write('observe', () => ({ source: 'bench', tags: ['bench'] })),
    write('decide', (i) => ({ rationale: `${pick(texts.decide, i).args.rationale as string}` })),
    write('note', () => ({})),
    { name: 'plan.create', call: createPlan },
    {
      name: 'plan.update',
      prepare: () => ensure(state.plans, 64, createPlan),
      call: (i) => {
        // each plan is updated by one worker at a time at c ≤ 64 (64 plans, taken in turn)
        const plans = state.plans.slice(0, 64);
        const p = inProject(i);
        return tool('plan', { id: pick(plans, i), steps: steps(i + 1) }, p.agent);
      },
    },
    { name: 'artifact_put', call: putArtifact },
    {
      name: 'forget',
      prepare: (calls) =>
        ensure(state.written, calls, async (i) => {
          const r = await tool('remember', { content: content('remember', i) }, 'bench');
          state.written.push({ id: id(r), agent: 'bench' });
        }),
      call: async () => {
        const e = state.written.pop();
        if (!e) throw new Error('no entry left to forget');
        const r = await tool('forget', { id: e.id, reason: 'bench' }, e.agent);
        if ((r.forgotten as string[]).length !== 1) throw new Error(`forget: ${JSON.stringify(r)}`);
        return r;
      },
    },
  ];
}
