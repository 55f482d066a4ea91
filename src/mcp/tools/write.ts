/** remember, observe, decide and note share one write path; each file declares its own schema. */
import type { WriteTool } from '../../domain/memory';
import type { WriteArgs } from '../../domain/operations';
import type { ToolContext } from '../tool';
import { where, withNotice, writeFields } from './render';

export async function writeEntry(
  tool: WriteTool,
  input: WriteArgs & { project?: string | undefined },
  ctx: ToolContext,
  verb: string,
) {
  const { project: _ignored, ...rest } = input;
  const r = await ctx.service.write(tool, ctx.who, rest);
  const e = r.entry;
  const only = r.replacedFor
    ? `It replaces org entry ${e.supersedes} in project ${r.replacedFor} only: there it leaves default recall; everywhere else it stays current.`
    : undefined;
  const replaces = !e.supersedes
    ? ''
    : ` ${only ?? 'It replaces the entry named in supersedes, which now leaves default recall.'}`;
  const { fields, notes } = writeFields(ctx, r.project, e.agent, only);
  const text = r.deduplicated
    ? `Already remembered as ${e.id} (${where(e)}); nothing new was stored.`
    : `${verb} ${e.id} (${where(e)}).${replaces}`;
  return { entry: e, deduplicated: r.deduplicated, ...fields, text: withNotice(text, notes) };
}
