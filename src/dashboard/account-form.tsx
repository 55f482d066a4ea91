/** @jsxImportSource hono/jsx */
/** The form of the sign-up, sign-in and setup pages, and where it leads once signed in. */
import type { Child } from 'hono/jsx';
import { ErrorLine } from './components';
import { Page } from './layout';

/**
 * Where to go once signed in, from a `next` field: an authorization request waiting for consent or
 * an invitation's link, both paths of this dashboard written in visible ASCII (as a URL escapes
 * itself). Anything else — another origin, `//host`, a backslash, a CR or LF that would split the
 * redirect's header — is ignored, and the user lands on the default page.
 */
export const nextOf = (next: string | undefined): string | undefined =>
  next &&
  /^[\x21-\x7e]+$/.test(next) &&
  !next.includes('\\') &&
  (next.startsWith('/dashboard/authorize?') || INVITATION.test(next))
    ? next
    : undefined;

const INVITATION = /^\/dashboard\/invitations\/[0-9a-f-]{36}\?code=[\w-]*$/;

/** `?next=…` carried from one account page to the other. */
export const withNext = (path: string, next: string | undefined) =>
  next ? `${path}?${new URLSearchParams({ next })}` : path;

/** The sign-up, sign-in and setup pages: one form of email and password, with their own extras. */
export function AccountPage(p: {
  nonce: string;
  csrf: string;
  error?: string | undefined;
  email?: string | undefined;
  title: string;
  action: string;
  password: { label: string; autocomplete: string; minlength?: number };
  extra?: Child;
  submit: string;
  footer: Child;
  /** Where to go once signed in (an authorization request waiting for consent). */
  next?: string | undefined;
  /** What the page is for, above the form (the setup link's page). */
  intro?: Child;
}) {
  return (
    <Page title={p.title} nonce={p.nonce}>
      <ErrorLine error={p.error} />
      {p.next ? <p>Sign in to let an application use your org’s memory.</p> : null}
      {p.intro}
      <form class="card narrow" method="post" action={p.action}>
        <input type="hidden" name="_csrf" value={p.csrf} />
        {p.next ? <input type="hidden" name="next" value={p.next} /> : null}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required value={p.email ?? ''} />
        <label for="password">{p.password.label}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete={p.password.autocomplete}
          minlength={p.password.minlength}
          required
        />
        {p.extra}
        <p class="actions">
          <button type="submit">{p.submit}</button>
        </p>
      </form>
      <p>{p.footer}</p>
    </Page>
  );
}
