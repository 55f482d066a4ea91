/**
 * Filler entries in CodeRecall's style, to grow an org to 10,000 entries with an index like a real
 * one: each filler copies a data set entry's tool, agent, project, tags and anchors, and writes its
 * text from sentences of other entries of the same project, two or three joined, so a project's
 * words keep their frequencies (recall scores as many candidates per query word as a big org
 * would make it) while no filler repeats an entry. Seeded: every run writes the same fillers.
 */
import { type CodeEntry, type CodeOrg, seeded } from '../coderecall';

const sentencesOf = (text: unknown) =>
  typeof text === 'string'
    ? text
        .split(/(?<=[.;!?])\s+/)
        .map((s) => s.trim())
        .filter((s) => s.length > 12)
    : [];

/** `count` fillers after the orgs' own entries (none supersedes another), keys `f1`, `f2`, … */
export function fillerEntries(orgs: CodeOrg[], count: number, seed = 40): CodeEntry[] {
  const next = seeded(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)] as T;
  const templates = orgs.flatMap((o) => o.entries).filter((e) => !(e.tool === 'plan' && e.args.supersedes));
  const said = new Map<string | null, string[]>();
  const why = new Map<string | null, string[]>();
  for (const e of templates) {
    const a = e.args as Record<string, unknown>;
    said.set(e.project, [...(said.get(e.project) ?? []), ...sentencesOf(a.content), ...sentencesOf(a.title)]);
    why.set(e.project, [...(why.get(e.project) ?? []), ...sentencesOf(a.rationale)]);
  }
  const text = (project: string | null, n: number) =>
    Array.from({ length: n }, () => pick(said.get(project) ?? ['A routine change.'])).join(' ');
  const out: CodeEntry[] = [];
  for (let i = 0; i < count; i++) {
    const t = templates[i % templates.length] as CodeEntry;
    const a = t.args as Record<string, unknown>;
    const args: Record<string, unknown> = {};
    if (a.tags) args.tags = a.tags;
    if (a.paths) args.paths = a.paths;
    if (t.tool === 'plan') {
      const steps = (a.steps as { status: string }[] | undefined) ?? [];
      Object.assign(args, {
        title: text(t.project, 1).slice(0, 200),
        status: a.status,
        steps: steps.map((s) => ({ text: text(t.project, 1).slice(0, 300), status: s.status })),
      });
    } else {
      args.content = text(t.project, 2 + Math.floor(next() * 2));
      if (t.tool === 'decide')
        args.rationale = pick(why.get(t.project)?.length ? (why.get(t.project) as string[]) : ['It was simpler.']);
      if (t.tool === 'observe') args.source = a.source ?? 'ci';
    }
    out.push({ key: `f${i + 1}`, agent: t.agent, project: t.project, tool: t.tool, args });
  }
  return out;
}
