-- A ledger event as the ledger pages return it.
CREATE OR REPLACE FUNCTION public.cairn_event_json(l ledger)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object(
    'seq', l.seq, 'at', l.at, 'agent', l.agent, 'op', l.op, 'entry_id', l.entry_id,
    'project', l.project, 'content_sha256', l.content_sha256, 'reason', l.reason,
    'verified', l.verified, 'actor_kind', l.actor_kind, 'prev_hash', l.prev_hash, 'hash', l.hash)
$function$;
