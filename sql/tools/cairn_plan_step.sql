-- A plan's step p_i for an update's p_field (claim_step, release_step): the step, refused (CN422)
-- when the plan has no such step; and, in p_held, who holds it and until when ("reviewer until
-- 2026-11-23T09:00:00Z") when an agent other than p_agent holds a claim not yet expired, else NULL.
CREATE OR REPLACE FUNCTION public.cairn_plan_step(p_steps jsonb, p_i integer, p_field text, p_agent text,
    OUT p_step jsonb, OUT p_held text)
 RETURNS record
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  IF jsonb_array_length(p_steps) = 0 THEN
    RAISE EXCEPTION '%: the plan has no steps; add them with steps first', p_field USING ERRCODE = 'CN422';
  END IF;
  IF p_i >= jsonb_array_length(p_steps) THEN
    RAISE EXCEPTION '%: the plan has % steps (#0 to #%)', p_field, jsonb_array_length(p_steps),
      jsonb_array_length(p_steps) - 1 USING ERRCODE = 'CN422';
  END IF;
  p_step := p_steps->p_i;
  IF p_step->>'claimed_by' <> p_agent AND (p_step->>'claim_expires_at')::timestamptz > now() THEN
    p_held := format('%s until %s', cairn_name_text(p_step->>'claimed_by'),
      to_char((p_step->>'claim_expires_at')::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'));
  END IF;
END $function$;
