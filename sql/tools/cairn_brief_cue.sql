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
  v_text text;
BEGIN
  IF p_kind = 'observation' THEN
    -- a failure word or HTTP status that no count or "no" denies, one word between or none ("0
    -- errors", "no crashes", "no new crashes", "without errors", "no 504s", "no 5xx during the
    -- drain", "crash-free": a report of what went well; not the 0 that ends a version, "3.0
    -- failed"); the denials are taken out first, which costs a 16 KiB text a fifth of what a
    -- look-behind at every character did
    v_text := regexp_replace(p_content, '(^|[^[:alnum:]_.])(0|no|zero|without) ([[:alpha:]]+ )?(' || v_failed
                             || '|[45](\d\d|xx)s?)\M', '\1', 'gi');
  END IF;
  RETURN CASE p_kind
    WHEN 'plan' THEN coalesce(p_status IN ('active', 'draft'), false)
    WHEN 'decision' THEN true
    WHEN 'observation' THEN
      p_tags && ARRAY['incident', 'bug', 'failure', 'outage', 'regression', 'flaky', 'error']
      -- a failure word left (above); a timeout inside an identifier (ORDER_TIMEOUT,
      -- keepalive_timeout); an HTTP status as a code ("503s", "5xx", "returned 404") — not any
      -- number from 400 to 599 ("a 500-truck fleet", "512 tests green", "EUR 540")
      OR (v_text ~* ('\m(' || v_failed || ')\M|_timeouts?\M|\m[45](\d\d|xx)s\M|\m[45]xx\M'
                     '|\m(http|status|returned|returns|returning) [45]\d\d(?![-[:alnum:]_]|\.[0-9])')
      -- and, as written (case counts): a status with its reason phrase ("429 Too Many Requests",
      -- "502 Bad Gateway"; not "512 MiB"), an exception as printed ("OutOfMemoryError: Java heap")
          OR p_content ~ ('\m[45]\d\d (Bad|Unauthorized|Payment|Forbidden|Not|Method|Proxy|Request|Conflict|'
            'Gone|Length|Precondition|Content|Payload|URI|Unsupported|Range|Expectation|Misdirected|'
            'Unprocessable|Locked|Failed|Too|Upgrade|Unavailable|Internal|Service|Gateway|HTTP|Variant|'
            'Insufficient|Loop|Network)\M|[a-z](Error|Exception):'))
      -- but not a report that opens with what went well, before any failure word (in its first 300
      -- characters: the look-ahead costs a 16 KiB text 3 ms) and with no "but" between: "CI green
      -- on main: … (1 flaky: …)", "CI on main green: …, Error Prone clean", "UI tests green after
      -- the timeout change" — green, clean or passing as a state (before on, after, a colon…; not
      -- "the green button"), succeeded; not "CI passing on main but nightly e2e failed", "Deploy
      -- succeeded, then 3 pods crash-looped"
      AND NOT coalesce(substring(left(v_text, 300) from '(?i)^(.*?)\m(' || v_failed || ')\M')
            ~* ('^(?!.*\m(but|except|although|though|however|yet|then|until|later)\M).*('
                '\m(green|clean|passing)(?=\s*($|[:;,.)]|\s-\s|\s(on|in|at|after|again|now|for|with|across|since|everywhere)\M))'
                '|\msucceeded\M)'), false)
    ELSE
      p_tags && ARRAY['convention', 'conventions', 'style', 'guideline', 'guidelines', 'howto',
        'how-to', 'rule', 'rules', 'policy', 'process', 'workflow', 'gotcha', 'gotchas']
      OR p_content ~* ('\m(always|never|must|should|shouldn''t|don''t|do not|avoid|prefer|'
        'convention|required|requires|make sure|instead of|only)\M')
  END;
END $function$;
