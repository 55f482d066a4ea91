-- Whether an entry may appear in a brief (space view brief), before time and scope: an active or
-- draft plan, any decision, an observation tagged or worded as a failure, a memory or note tagged
-- or worded as a rule. It is the predicate of the partial indexes the brief walks
-- (entries_brief_shared_idx, entries_brief_project_idx, entries_brief_private_idx: drizzle/0017),
-- so a brief reads only entries that qualify, whatever the org's size. A change here must rebuild
-- those indexes (REINDEX) in a migration.
CREATE OR REPLACE FUNCTION public.cairn_brief_cue(p_kind text, p_status text, p_tags text[], p_content text)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
DECLARE
  -- the words of a failure
  v_failed constant text := 'fail|fails|failed|failing|failures?|errors?|exception|broke|broken|'
    'crash(?!-free)|crashed|crashes|crashing|crash-looped|timeouts?|timed out|flaky|regress|regressed|'
    'regresses|regressing|regressions?|incidents?|outages?|oom|oomkilled|panic|panics|panicked|deadlocks?';
BEGIN
  RETURN CASE p_kind
    WHEN 'plan' THEN coalesce(p_status IN ('active', 'draft'), false)
    WHEN 'decision' THEN true
    WHEN 'observation' THEN
      p_tags && ARRAY['incident', 'bug', 'failure', 'outage', 'regression', 'flaky', 'error']
      -- a failure word that no count or "no" denies ("0 errors", "no crashes", "without errors",
      -- "crash-free": a report of what went well; not the 0 that ends a version, "3.0 failed"; the
      -- denials are taken out first, which costs a 16 KiB text a fifth of what a look-behind at
      -- every character did); a timeout inside an identifier (ORDER_TIMEOUT, keepalive_timeout);
      -- an HTTP status as a code ("503s", "5xx", "returned 404") — not any number from 400 to 599
      -- ("a 500-truck fleet", "512 tests green", "EUR 540")
      OR regexp_replace(p_content, '(^|[^[:alnum:]_.])(0|no|zero|without) (' || v_failed || ')\M', '\1', 'gi')
         ~* ('\m(' || v_failed || ')\M|_timeouts?\M|\m[45](\d\d|xx)s\M|\m[45]xx\M'
             '|\m(http|status|returned|returns|returning) [45]\d\d(?![-[:alnum:]_]|\.[0-9])')
      -- and, as written (case counts): a status with its reason phrase ("429 Too Many Requests",
      -- "502 Bad Gateway"; not "512 MiB"), an exception as printed ("OutOfMemoryError: Java heap")
      OR p_content ~ ('\m[45]\d\d (Bad|Unauthorized|Payment|Forbidden|Not|Method|Proxy|Request|Conflict|'
        'Gone|Length|Precondition|Content|Payload|URI|Unsupported|Range|Expectation|Misdirected|'
        'Unprocessable|Locked|Failed|Too|Upgrade|Unavailable|Internal|Service|Gateway|HTTP|Variant|'
        'Insufficient|Loop|Network)\M|[a-z](Error|Exception):')
    ELSE
      p_tags && ARRAY['convention', 'conventions', 'style', 'guideline', 'guidelines', 'howto',
        'how-to', 'rule', 'rules', 'policy', 'process', 'workflow', 'gotcha', 'gotchas']
      OR p_content ~* ('\m(always|never|must|should|shouldn''t|don''t|do not|avoid|prefer|'
        'convention|required|requires|make sure|instead of|only)\M')
  END;
END $function$;
