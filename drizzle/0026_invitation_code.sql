ALTER TABLE "invitations" ADD COLUMN "code_hash" text;--> statement-breakpoint
-- Accepting an invitation needs the secret of its link as well as the invited email (anyone may
-- sign up with any email: the email alone let a stranger who took it first join). Invitations
-- made before this have no secret and cannot be accepted: the owner invites again.
DROP FUNCTION IF EXISTS cairn_dash_member_add(text, text);
--> statement-breakpoint
DROP FUNCTION IF EXISTS cairn_dash_invitation_answer(text, uuid, boolean);
