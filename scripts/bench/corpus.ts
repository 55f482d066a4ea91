/**
 * The benchmark's corpus: CodeRecall dev (../shared/bench/coderecall/dev.json), both of its orgs'
 * entries in write order (454 of them: memories, observations, decisions, plans and notes by 12
 * agents in 8 repositories and org-wide, 31 supersessions), replayed in rounds into one org until
 * the size is reached. Each round marks its text with its serial number, so that nothing is a
 * duplicate, and maps its own supersessions onto the ids the service returned in that round.
 * Queries are CodeRecall's 160 questions, each asked as its agent in its project.
 */
import { canonicalProject } from '../../src/domain/projects';
import { type CodeEntry, type CodeQuestion, loadCodeRecall } from '../coderecall';

export type WriteToolName = 'remember' | 'observe' | 'decide' | 'note';

/** One write of the corpus: the tool, its caller, and its arguments as a client sends them. */
export interface CorpusWrite {
  tool: WriteToolName | 'plan';
  /** `<round>:<key>`: how a later write of the same round names it. */
  ref: string;
  agent: string;
  /** The project as the client names it (a git remote URL), and as the service stores it. */
  project: string | null;
  canonical: string | null;
  args: Record<string, unknown>;
  /** The ref of the entry this one replaces (or, for a plan, updates). */
  replaces?: string;
}

export interface Corpus {
  entries: CodeEntry[];
  questions: CodeQuestion[];
  /** Each agent with the project it writes in most. */
  agents: { agent: string; project: string | null }[];
}

export function readCorpus(root: string): Corpus {
  const orgs = loadCodeRecall(root);
  const entries = orgs.flatMap((o) => o.entries);
  const questions = orgs.flatMap((o) => o.questions);
  const byAgent = Map.groupBy(entries, (e) => e.agent);
  const agents = [...byAgent].map(([agent, es]) => {
    const counts = Map.groupBy(
      es.filter((e) => e.project !== null),
      (e) => e.project,
    );
    const top = [...counts].sort((a, b) => b[1].length - a[1].length)[0];
    return { agent, project: top ? (top[0] as string) : null };
  });
  return { entries, questions, agents };
}

/** The i-th write of the corpus replayed in rounds (i from 0). */
export function corpusWrite(corpus: Corpus, i: number): CorpusWrite {
  const n = corpus.entries.length;
  const round = Math.floor(i / n);
  const e = corpus.entries[i % n] as CodeEntry;
  const mark = ` (#${round})`;
  const { supersedes, ...args } = e.args as { supersedes?: string; content?: string; title?: string };
  if (typeof args.content === 'string') args.content += mark;
  if (typeof args.title === 'string') args.title += mark;
  return {
    tool: e.tool,
    ref: `${round}:${e.key}`,
    agent: e.agent,
    project: e.project,
    canonical: e.project === null ? null : canonicalProject(e.project),
    args,
    ...(supersedes ? { replaces: `${round}:${supersedes.slice(1)}` } : {}),
  };
}
