/** remember, observe, decide and note share one write path; each file declares its own schema. */
import type { WriteTool } from '../../domain/memory';
import type { WriteArgs } from '../../domain/operations';
import { projectFields, type ToolContext } from '../tool';
import { where, withNotice, writeNotice } from './render';

export async function writeEntry(
  tool: WriteTool,
  input: WriteArgs & { project?: string | undefined },
  ctx: ToolContext,
  verb: string,
) {
  const { project: _ignored, ...rest } = input;
  const r = await ctx.service.write(tool, ctx.who, rest);
  const p = projectFields(ctx.project, r.project);
  const e = r.entry;
  const replaces = !e.supersedes
    ? ''
    : r.replacedFor
      ? ` It replaces org entry ${e.supersedes} in project ${r.replacedFor} only: there it leaves default recall; everywhere else it stays current.`
      : ' It replaces the entry named in supersedes, which now leaves default recall.';
  const text = r.deduplicated
    ? `Already remembered as ${e.id} (${where(e)}); nothing new was stored.`
    : `${verb} ${e.id} (${where(e)}).${replaces}`;
  return { entry: e, deduplicated: r.deduplicated, ...p, text: withNotice(text, writeNotice(ctx, p.notice, e.agent)) };
}
