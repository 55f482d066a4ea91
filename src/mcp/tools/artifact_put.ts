import { z } from 'zod';
import { base64ToBytes } from '../../domain/crypto';
import { Invalid } from '../../domain/errors';
import { artifactPutInput } from '../../domain/operations';
import { artifactOut, projectOut } from '../../domain/schemas';
import { defineTool, WRITE } from '../tool';
import { where, withNotice, writeFields } from './render';

export const artifactPut = defineTool({
  name: 'artifact_put',
  title: 'Store artifact',
  description:
    'Store a file under a name from exactly one of content or content_base64. Attributed to your agent; scope sets who reads it. The same name, project and scope adds a version.',
  input: artifactPutInput,
  output: z.object({ artifact: artifactOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const bytes = decode(input.content, input.content_base64);
    if (bytes.length > ctx.maxArtifactBytes) {
      const field = input.content === undefined ? 'content_base64' : 'content';
      throw new Invalid(field, `the artifact is ${bytes.length} bytes; the limit is ${ctx.maxArtifactBytes} bytes`);
    }
    const contentType =
      input.content_type ?? (input.content !== undefined ? 'text/plain; charset=utf-8' : 'application/octet-stream');
    const r = await ctx.service.artifactPut(ctx.who, {
      name: input.name,
      bytes,
      bytes_from: input.content === undefined ? 'content_base64' : 'content',
      content_type: contentType,
      scope: input.scope,
      metadata: input.metadata,
    });
    const a = r.artifact;
    const { fields, notes } = writeFields(ctx, r.project, a.agent);
    const text = `Stored artifact "${a.name}" version ${a.version}, ${a.size} bytes, ${a.content_type} (${where(a)}; id ${a.id}).`;
    return { structured: { artifact: a, ...fields }, text: withNotice(text, notes) };
  },
});

function decode(content: string | undefined, base64: string | undefined): Uint8Array {
  if ((content === undefined) === (base64 === undefined)) {
    throw new Invalid('content', 'pass exactly one of content or content_base64');
  }
  if (content !== undefined) {
    if (!content.isWellFormed())
      throw new Invalid('content', 'must be valid Unicode (no unpaired surrogate characters)');
    return new TextEncoder().encode(content);
  }
  const bytes = base64ToBytes(base64 as string);
  if (!bytes) throw new Invalid('content_base64', 'must be standard base64 (A–Z, a–z, 0–9, +, /, = padding)');
  return bytes;
}
