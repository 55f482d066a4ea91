-- Records a failed authentication for a bucket (door and client address): p_limit failures in a
-- row are allowed, then one more per p_window / p_limit seconds (GCRA). Says whether this one was
-- over the limit (refused; it does not lengthen the wait) and whether the next will be (blocked),
-- and in how many seconds one will be allowed. Holds no org data.
CREATE OR REPLACE FUNCTION public.cairn_auth_failure(p_bucket text, p_limit integer, p_window integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_now timestamptz := clock_timestamp();
  v_period interval := make_interval(secs => p_window::numeric / p_limit);
  v_tau interval := make_interval(secs => p_window) - v_period;
  v_tat timestamptz;
  v_refused boolean;
BEGIN
  IF random() < 0.01 THEN
    DELETE FROM auth_failures WHERE tat < v_now;
  END IF;
  INSERT INTO auth_failures AS f (bucket, tat) VALUES (p_bucket, v_now + v_period)
    ON CONFLICT (bucket) DO UPDATE SET tat = greatest(f.tat, v_now) + v_period
      WHERE greatest(f.tat, v_now) - v_now <= v_tau
    RETURNING f.tat INTO v_tat;
  v_refused := NOT FOUND;
  IF v_refused THEN
    SELECT tat INTO v_tat FROM auth_failures WHERE bucket = p_bucket;
  END IF;
  RETURN jsonb_build_object('refused', v_refused, 'blocked', v_tat - v_now > v_tau,
    'retry_after', greatest(1, ceil(extract(epoch FROM v_tat - v_now - v_tau)))::int);
END $function$;
