/** @jsxImportSource hono/jsx */
/** An agent's name as the dashboard shows it: the name, and a badge when it mixes scripts. */
import { mixedScripts } from '../domain/agents';

/** What the badge's title says of a name that mixes `scripts`. */
export const mixedTitle = (scripts: string[]) =>
  `This name mixes ${scripts.join(' and ')} letters, so it may look like another agent's name while being a different agent.`;

/** The name as text, then a visible "mixed scripts" badge (with a title saying why) when it mixes scripts. */
export function AgentName({ name, strong }: { name: string; strong?: boolean }) {
  const mixed = mixedScripts(name);
  return (
    <>
      {strong ? <strong>{name}</strong> : name}
      {mixed ? (
        <>
          {' '}
          <span class="badge warning" title={mixedTitle(mixed)}>
            mixed scripts
          </span>
        </>
      ) : null}
    </>
  );
}
