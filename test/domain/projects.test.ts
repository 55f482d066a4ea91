import { describe, expect, it } from 'vitest';
import { canonicalProject, resolveProject } from '../../src/domain/projects';

describe('project canonicalisation', () => {
  it.each([
    ['https://github.com/Acme/Widgets.git', 'github.com/acme/widgets'],
    ['http://github.com/Acme/Widgets', 'github.com/acme/widgets'],
    ['git@github.com:Acme/Widgets.git', 'github.com/acme/widgets'],
    ['ssh://git@github.com:22/Acme/Widgets', 'github.com/acme/widgets'],
    ['ssh://git@github.com/Acme/Widgets.git/', 'github.com/acme/widgets'],
    ['https://user:s3cret@github.com/Acme/Widgets.git', 'github.com/acme/widgets'],
    ['https://oauth2:ghp_token@gitlab.com/group/sub/repo.git', 'gitlab.com/group/sub/repo'],
    ['https://github.com:443/Acme/Widgets', 'github.com/acme/widgets'],
    ['https://git.example.com:8443/team/repo.git', 'git.example.com:8443/team/repo'],
    ['git://github.com/acme/widgets.git', 'github.com/acme/widgets'],
    ['github.com/acme/widgets', 'github.com/acme/widgets'],
    ['GitHub.com/Acme/Widgets/', 'github.com/acme/widgets'],
    ['  https://github.com/Acme/Widgets  ', 'github.com/acme/widgets'],
    ['/home/me/repo/', '/home/me/repo'],
    ['/home/me//repo/./sub/..', '/home/me/repo'],
    ['C:\\work\\repo', 'c:/work/repo'],
    ['c:/Work/Repo/', 'c:/Work/Repo'],
    ['/', '/'],
  ])('%s → %s', (input, expected) => {
    expect(canonicalProject(input)).toBe(expected);
  });

  it.each([
    'widgets',
    'acme/widgets',
    'https://github.com/',
    'not a url at all',
    'localhost/acme/widgets',
    'github.com/acme',
    'ftp://github.com/acme/widgets',
    'relative/path/to/repo',
    `https://github.com/${'a'.repeat(1100)}`,
    'https://github.com/acme/wid\u0000gets',
  ])('%s is not recognised', (input) => {
    expect(canonicalProject(input)).toBeNull();
  });

  it('never keeps credentials', () => {
    expect(canonicalProject('https://alice:hunter2@github.com/acme/widgets')).not.toMatch(/alice|hunter2/);
  });

  it('reports whether a project was given and recognised', () => {
    expect(resolveProject(undefined)).toEqual({ given: false, canonical: null, recognised: false });
    expect(resolveProject('  ')).toEqual({ given: false, canonical: null, recognised: false });
    expect(resolveProject('nope')).toEqual({ given: true, canonical: null, recognised: false });
    expect(resolveProject('/srv/x')).toEqual({ given: true, canonical: '/srv/x', recognised: true });
  });
});
