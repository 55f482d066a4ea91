ALTER TABLE "ledger" ADD COLUMN "private" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- cairn_ledger_append takes whether the event is about a private entry (sql/entries/cairn_ledger_append.sql)
DROP FUNCTION cairn_ledger_append(uuid, text, text, uuid, text, text, text);
--> after-functions
-- Events of the private entries and artifacts still stored are marked, so other agents' ledger
-- views leave them out; those of private entries already forgotten cannot be told apart and stay
-- shown (who, when, the hash; never content). The flag is not hashed: chains still verify.
DO $$
DECLARE
  v_org uuid;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  FOR v_org IN SELECT id FROM orgs LOOP
    PERFORM set_config('cairn.org', v_org::text, true);
    UPDATE ledger l SET private = true FROM entries e
      WHERE l.org_id = v_org AND e.org_id = v_org AND e.id = l.entry_id AND e.scope = 'agent';
    UPDATE ledger l SET private = true FROM artifacts a
      WHERE l.org_id = v_org AND a.org_id = v_org AND a.id = l.entry_id AND a.scope = 'agent';
  END LOOP;
  PERFORM set_config('cairn.operator', '', true);
  PERFORM set_config('cairn.org', '', true);
END $$;
