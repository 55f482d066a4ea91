/** The rules of an account, shared by the dashboard's forms and the `cairn user create` command. */
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The email as stored (trimmed, lower-cased), or null when it is not an address. */
export function normaliseEmail(input: string): string | null {
  const email = input.trim().toLowerCase();
  return EMAIL_RE.test(email) && email.length <= 254 ? email : null;
}

export const PASSWORD_RULE = 'a password of 12 to 1024 characters';

export function passwordOk(password: string): boolean {
  return password.length >= 12 && password.length <= 1024;
}
