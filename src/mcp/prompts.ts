/**
 * The MCP prompts and resources (docs/design.md, "MCP transport and SDK"): what prompts/list and
 * resources/list show, the `record` prompt's text, and the checking of a prompts/get's name and
 * arguments. The brief they carry is the `space` tool's, computed by src/mcp/server.ts through
 * that tool's handler; nothing here reads the memory.
 */
import { spaceInput } from '../domain/operations';

/** `space`'s budget_chars: the prompt's argument takes the same range and default. */
const BUDGET = spaceInput.shape.budget_chars.unwrap();
const MIN_BUDGET = BUDGET.minValue ?? 0;
const MAX_BUDGET = BUDGET.maxValue ?? Number.MAX_SAFE_INTEGER;
const DEFAULT_BUDGET: number = spaceInput.shape.budget_chars.parse(undefined);

const BRIEF_ABOUT =
  "What to know before starting work in this project, from Cairn's shared memory: conventions, current decisions " +
  'with rationale, active plans with open steps, recent failures, stale warnings.';

const WHICH = 'For the project X-Svc-Project names (the whole org without one).';

export const PROMPTS = [
  {
    name: 'brief',
    title: 'Cairn: project brief',
    description: `${BRIEF_ABOUT} ${WHICH}`,
    arguments: [
      {
        name: 'budget_chars',
        description: `Most characters of the brief, ${MIN_BUDGET}-${MAX_BUDGET} (default ${DEFAULT_BUDGET}).`,
        required: false,
      },
    ],
  },
  {
    name: 'record',
    title: 'Cairn: record this session',
    description:
      'Asks the model to record in Cairn what others will need from this session: decisions with their rationale, ' +
      'conventions, outcomes and failures.',
    arguments: [],
  },
];

export const BRIEF_URI = 'cairn://brief';

export const RESOURCES = [
  {
    uri: BRIEF_URI,
    name: 'brief',
    title: 'Cairn: project brief',
    description: `${BRIEF_ABOUT} ${WHICH} Within ${DEFAULT_BUDGET} characters.`,
    mimeType: 'text/markdown',
  },
];

/** The `record` prompt: read by the model at the end of a session, so short, concrete and true. */
export const RECORD_TEXT = `Record in Cairn what other agents and people will need from this session. They start from Cairn's shared memory and were not here.

First recall what you worked on: do not record what memory already holds. Then write, one entry per fact:
- decide: each decision others must follow (a library, an interface, an approach), with its rationale: why this and not the alternative. If it replaces a decision in memory, pass supersedes with that decision's id.
- remember: each convention or rule you learnt or set (how to run the tests, a naming rule, a step a release needs), tagged "convention".
- observe: each outcome worth knowing: what worked, and what failed with its cause, with source saying where you saw it (a command, a CI run, a log). When you fixed a failure that memory holds, observe the fix with supersedes set to that failure's id.
- plan: if you worked on a plan, update its steps' status, and release a step you claimed and did not finish.

Keep each entry short and concrete: name the file, command, version or error, and pass paths with the files or folders it is about. Leave out what is trivial, plain from the code, or of use to this session only (note is for private scratch). If nothing is worth recording, say so and write nothing.`;

/** A name or value the caller sent, quoted and clipped, for an error. */
const shown = (v: string) => JSON.stringify(v.length > 64 ? `${v.slice(0, 64)}…` : v);

/** What resources/read of any other URI is told (-32602, with the URI in the error's data). */
export const unknownResource = (uri: string) => `Unknown resource ${shown(uri)}; resources/list has ${BRIEF_URI}`;

/** A prompts/get, checked: which prompt, with its arguments parsed; or why it is refused (-32602). */
export type PromptAsk = { prompt: 'brief'; budget: number | undefined } | { prompt: 'record' } | { refused: string };

export function askPrompt(name: string, args: Record<string, string> | undefined): PromptAsk {
  const prompt = PROMPTS.find((p) => p.name === name);
  if (!prompt) return { refused: `Unknown prompt ${shown(name)}; prompts/list has brief and record` };
  const known = prompt.arguments.map((a) => a.name);
  const extra = Object.keys(args ?? {}).find((k) => !known.includes(k));
  if (extra !== undefined) {
    const takes = known.length ? `it takes ${known.join(', ')}` : 'it takes no arguments';
    return { refused: `prompts/get ${name}: no argument ${shown(extra)}; ${takes}` };
  }
  if (prompt.name === 'record') return { prompt: 'record' };
  // MCP prompt arguments are strings; an empty one (a form's blank field) is the default
  const raw = args?.budget_chars?.trim() ?? '';
  if (raw === '') return { prompt: 'brief', budget: undefined };
  const budget = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(budget >= MIN_BUDGET && budget <= MAX_BUDGET)) {
    return {
      refused: `prompts/get brief: budget_chars must be a whole number of characters from ${MIN_BUDGET} to ${MAX_BUDGET}, such as ${DEFAULT_BUDGET}, not ${shown(args?.budget_chars ?? '')}`,
    };
  }
  return { prompt: 'brief', budget };
}
