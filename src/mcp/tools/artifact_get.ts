import { z } from 'zod';
import { bytesToBase64 } from '../../domain/crypto';
import { Invalid } from '../../domain/errors';
import { servableMediaType } from '../../domain/media-type';
import { artifactGetInput } from '../../domain/operations';
import { artifactOut, projectOut } from '../../domain/schemas';
import { defineTool, projectFields, READ } from '../tool';
import { withNotice } from './render';

const TEXTUAL = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|x-ndjson)|[^;]*\+(json|xml))/i;

export const artifactGet = defineTool({
  name: 'artifact_get',
  title: 'Get artifact',
  description:
    "Fetch an artifact by id, or by name (this project's first, latest unless version): the bytes as an embedded resource, and its metadata. Read-only.",
  input: artifactGetInput,
  output: z.object({ artifact: artifactOut, ...projectOut }),
  annotations: READ,
  async handler(input, ctx) {
    if ((input.id === undefined) === (input.name === undefined)) {
      throw new Invalid('id', 'pass exactly one of id or name');
    }
    const { project: _, ...args } = input;
    const r = await ctx.service.artifactGet(ctx.who, args);
    const a = r.artifact;
    const p = projectFields(ctx.project, r.project, true);
    const uri = `cairn://artifacts/${a.id}`;
    // an older release may have stored a type that is not one: the model is shown bytes, not that text
    const mimeType = servableMediaType(a.content_type);
    const decoded = TEXTUAL.test(mimeType) ? utf8(r.bytes) : null;
    const resource =
      decoded !== null ? { uri, mimeType, text: decoded } : { uri, mimeType, blob: bytesToBase64(r.bytes) };
    const summary = `Artifact "${a.name}" version ${a.version} (id ${a.id}, ${a.size} bytes, ${mimeType}).`;
    return {
      structured: { artifact: a, ...p },
      text: withNotice(summary, p.notice),
      content: [{ type: 'resource', resource }],
    };
  },
});

function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}
