ALTER TABLE "oauth_grants" ADD COLUMN "agent" text;--> statement-breakpoint
-- OAuth grants bound to an agent at consent, as API keys are (docs/design.md, "Agent-bound keys"):
-- cairn_oauth_approve takes the agent
DROP FUNCTION IF EXISTS cairn_oauth_approve(text, text, uuid, text, text, text, text, text, integer);
