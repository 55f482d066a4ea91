/**
 * The software trade's abbreviations and synonyms, for recall: a question that says "PG", "k8s" or
 * "brute force" also looks for "postgres", "kubernetes" or "credential stuffing". Each line is one
 * group of interchangeable terms (single words or phrases, `|`-separated); a query word or phrase
 * from a group brings the rest of its group along, weighed below the query's own words (see
 * cairn_recall_for). It grows by a line per missing group — a general term of the trade, never a
 * project's own names; docs/design.md ("Recall") says how it is measured.
 */
const GROUPS = `
postgres|postgresql|pg|psql
mysql|mariadb
database|db|databases
kubernetes|k8s|kube|kubectl
terraform|tf
javascript|js|ecmascript
typescript|ts
python|py
golang
frontend|front end|fe|client side|ui
backend|back end|server side
authentication|authn|auth|login|log in|sign in|signin
authorization|authz|permission|permissions|rbac|access control
password|passwd|credential|credentials
brute force|credential stuffing|password spraying
production|prod
staging|stage|stg|preprod
development|dev
locally|local|localhost|on my machine|my machine|local dev|local development
environment|env|environments
environment variable|env var|envvar
configuration|config|settings|cfg
repository|repo|repos
dependency|dependencies|deps|package|packages|library|libraries|lib
upgrade|bump|update
downgrade|rollback|roll back|revert
deploy|deployment|release|rollout|ship
continuous integration|ci|pipeline|build
pull request|pr|merge request|mr
documentation|docs|doc|readme
performance|perf|latency|slow|speed
memory|ram|heap|oom|oomkilled|out of memory
cpu|processor
timeout|time out|timed out|deadline
error|exception|failure|crash|panic
flaky|intermittent|flake|nondeterministic
test|tests|spec|specs|testing
unit test|unit tests
integration test|integration tests|e2e|end to end
duplicate|double|twice|idempotency|idempotent|double submit|dedup|deduplicate
daylight saving|dst|clock change|time change
timezone|time zone|tz|utc
cache|caching|cached|memoize
queue|queues|message queue|broker|kafka|rabbitmq|sqs
cron|cronjob|schedule|scheduled|nightly
container|containers|docker
node|nodejs|node.js
npm|pnpm|yarn|package manager
linter|lint|eslint|linting
formatter|prettier|format
logging|logs|log
monitoring|metrics|observability|telemetry|otel|opentelemetry|tracing
alert|alerts|alerting|pager|pagerduty|on call|oncall
incident|outage|postmortem|downtime
api|endpoint|endpoints|route|routes
url|uri|link
http|https
websocket|ws|socket
grpc|protobuf|proto
graphql|gql
rest|restful
sql|query|queries
migration|migrations|schema change
index|indexes|indices
transaction|transactions|tx
connection pool|pool|pgbouncer|pooler
secret|secrets|api key|token|tokens
encryption|encrypt|encrypted|tls|ssl
certificate|cert|certs
dns|domain|hostname
load balancer|lb|alb|elb|ingress
cdn|cloudfront|edge
bucket|s3|object storage|blob
aws|amazon web services
gcp|google cloud
azure|microsoft azure
feature flag|feature flags|flag|toggle
rate limit|rate limiting|throttle|throttling|429
retry|retries|backoff
payment|payments|checkout|billing|charge
customer|user|users|customers|account|accounts
email|mail|smtp
notification|notifications|push
mobile|ios|android
browser|chrome|firefox|safari
react|jsx|tsx
css|styles|stylesheet|tailwind
accessibility|a11y
internationalization|i18n|localization|l10n|translation
vulnerability|cve|security issue|exploit
hotfix|fix|patch|bugfix
bug|defect|issue|regression
refactor|refactoring|cleanup|clean up
`;

interface Vocabulary {
  /** Each term: the rest of its group. */
  groups: Map<string, string[]>;
  /** The first words of the terms of more than one word (no other word starts a phrase). */
  heads: Set<string>;
}

let vocabulary: Vocabulary | undefined;

function known(): Vocabulary {
  if (!vocabulary) {
    const groups = new Map<string, string[]>();
    const heads = new Set<string>();
    for (const line of GROUPS.trim().split('\n')) {
      const terms = line.split('|').map((t) => t.trim().toLowerCase());
      for (const t of terms) {
        groups.set(t, [...(groups.get(t) ?? []), ...terms.filter((x) => x !== t)]);
        if (t.includes(' ')) heads.add(t.slice(0, t.indexOf(' ')));
      }
    }
    vocabulary = { groups, heads };
  }
  return vocabulary;
}

/** Every word and phrase the vocabulary knows (tests). */
export const vocabularyTerms = (): string[] => [...known().groups.keys()];

/**
 * For each word or phrase (up to three words) of a query that the vocabulary knows: that word or
 * phrase, then the rest of its group.
 */
export function vocabularyGroups(query: string): string[][] {
  const words = query.toLowerCase().match(/[a-z0-9][a-z0-9.]*[a-z0-9]|[a-z0-9]/g) ?? [];
  const { groups, heads } = known();
  const out: string[][] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const rest = groups.get(word);
    if (rest) out.push([word, ...rest]);
    if (!heads.has(word)) continue;
    for (let n = 2; n <= 3 && i + n <= words.length; n++) {
      const probe = words.slice(i, i + n).join(' ');
      const more = groups.get(probe);
      if (more) out.push([probe, ...more]);
    }
  }
  return out;
}
