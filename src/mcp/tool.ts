/** The shape of one tool: schemas, annotations and a handler typed from the schemas. */
import type { z } from 'zod';
import type { MemoryService } from '../domain/memory';
import type { AgentSource, CallIdentity } from '../domain/ports';
import type { ProjectResolution } from '../domain/projects';

/** Who is calling, before a tool's own `project` argument is applied. */
export interface Caller {
  keyHash: string;
  agent: string;
  agentSource: AgentSource;
  /** Raw X-Svc-Project header, if any. */
  projectHeader: string | undefined;
}

export interface ToolContext {
  service: MemoryService;
  caller: Caller;
  /** The caller with the project resolved (tool argument over header). */
  who: CallIdentity;
  project: ProjectResolution;
  maxArtifactBytes: number;
}

/** Extra content blocks a tool may return besides its text rendering (e.g. an embedded resource). */
export type ContentBlock =
  | { type: 'text'; text: string }
  | {
      type: 'resource';
      resource: { uri: string; mimeType: string; text: string } | { uri: string; mimeType: string; blob: string };
    };

export interface ToolResult<O> {
  structured: O;
  text: string;
  content?: ContentBlock[];
}

export interface Tool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
  handler: (input: z.output<I>, ctx: ToolContext) => Promise<ToolResult<z.input<O>>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: Tool<I, O>): Tool {
  return tool as unknown as Tool;
}

export const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
export const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** What a result says about the project it used; `read` when an unknown project fell back. */
export function projectFields(
  project: ProjectResolution,
  used: string | null,
  read = false,
): { project: string | null; notice?: string } {
  if (project.given && !project.recognised) {
    return {
      project: used,
      notice: 'The project identifier is not a git remote URL or an absolute path, so org-wide scope was used.',
    };
  }
  if (read && project.recognised && used === null) {
    return { project: null, notice: `Project ${project.canonical} has no entries yet, so org-wide scope was used.` };
  }
  return { project: used };
}
