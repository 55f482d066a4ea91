-- Whether the entry p_by (an entry's replacement) had been written by p_at: the one question of
-- cairn_recall_visible that reads another row, kept apart so that cairn_recall_visible is a plain
-- expression the planner inlines into each recall statement (a function with a sub-select is
-- called row by row instead, ~60 µs a call, 30 calls a recall) and reached only by an as_of read
-- of an entry that was replaced.
CREATE OR REPLACE FUNCTION public.cairn_replaced_by(p_org uuid, p_by uuid, p_at timestamp with time zone)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT EXISTS (SELECT 1 FROM entries s WHERE s.org_id = p_org AND s.id = p_by AND s.created_at <= p_at)
$function$;
