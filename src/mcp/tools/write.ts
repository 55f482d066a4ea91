/** remember, observe, decide and note share one write path; each file declares its own schema. */
import type { WriteTool } from '../../domain/memory';
import type { Entry } from '../../domain/types';
import { projectFields, type ToolContext } from '../tool';
import { where, withNotice } from './render';

interface WriteArgs {
  content: string;
  project?: string | undefined;
  [k: string]: unknown;
}

export async function writeEntry(tool: WriteTool, input: WriteArgs, ctx: ToolContext, verb: string) {
  const { project: _ignored, ...rest } = input;
  const r = await ctx.service.write(tool, ctx.who, rest as WriteArgs);
  const p = projectFields(ctx.project, r.project);
  const e: Entry = r.entry;
  const text = r.deduplicated
    ? `Already remembered as ${e.id} (${where(e)}); nothing new was stored.`
    : `${verb} ${e.id} (${where(e)}).${e.supersedes ? ` It supersedes ${e.supersedes}.` : ''}`;
  return { entry: e, deduplicated: r.deduplicated, ...p, text: withNotice(text, p.notice) };
}
