-- A ledger event's hash: SHA-256 of the previous hash and the event's canonical form
-- (cairn_ledger_canonical), then the fields an event has had only since they were recorded, each
-- length-prefixed like the others and left out when absent, so that an event keeps the form it was
-- hashed with: `verified` (its agent came from the credential), `actor:<kind>` (who acted: agent,
-- member or operator; drizzle/0032) and a private event's salt (drizzle/0031). p_chain: the org id
-- the chain was started under (ledger_heads.chain_id). src/domain/ledger.ts computes the same.
CREATE OR REPLACE FUNCTION public.cairn_ledger_hash(p_prev text, p_chain uuid, l ledger)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT cairn_sha256(p_prev
    || cairn_ledger_canonical(l.seq, p_chain, l.at, l.agent, l.op, l.entry_id, l.project, l.content_sha256, l.reason)
    || CASE WHEN l.verified THEN '8:verified' ELSE '' END
    || CASE WHEN l.actor_kind IS NOT NULL THEN octet_length(l.actor_kind) + 6 || ':actor:' || l.actor_kind ELSE '' END
    || CASE WHEN l.salt IS NOT NULL THEN octet_length(l.salt) || ':' || l.salt ELSE '' END)
$function$;
